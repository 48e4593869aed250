/**
 * Progress on stderr (stdout is the result's): on a terminal one line redrawn in place under the
 * permanent lines, else plain lines — of an evaluation, a proposal run's stages, a blueprint run,
 * and the embedded model's download and generation.
 */
import type { BlueprintProgress } from "../blueprints/runBlueprint.js";
import type { Catalog } from "../criteria/model.js";
import type { EvaluationProgress } from "../engine/options.js";
import type { EmbeddedModelFile } from "../llm/embedded/defaultModel.js";
import { formatSize } from "../llm/embedded/defaultModel.js";
import { onGenerationProgress } from "../llm/embedded/generationProgress.js";
import type { DownloadProgress } from "../llm/embedded/modelDownload.js";
import type { StageProgress } from "../orchestrator/stageProgress.js";
import { redactSecretText } from "../redact.js";
import { meetsThreshold } from "../scoring/consistency.js";
import { thresholdOf } from "../scoring/criterionResult.js";
import type { CriterionOutcome } from "../scoring/result.js";
import { shownScore, shownThreshold } from "../scoring/shownScore.js";
import { oneLine, truncate } from "../shortText.js";
import { spanText } from "../timeText.js";
import { type TextOutput, writeBetween, writeControl } from "./context.js";
import { nativeText } from "./report/summary.js";

const CLEAR_LINE = "\r\x1b[2K";

export interface LiveLine {
  /** The stream is a terminal: lines can be redrawn. */
  readonly tty: boolean;
  /** Draws `text` in place of the live line (on a terminal; nothing elsewhere). */
  draw(text: string): void;
  /** Writes a permanent line, clearing the live line first on a terminal. */
  print(text: string): void;
  clear(): void;
}

export function createLiveLine(stream: TextOutput): LiveLine {
  const tty = stream.isTTY === true;
  let drawn = false;
  const width = () => Math.max(40, (stream.columns ?? 80) - 1);
  const clear = () => {
    if (drawn) writeControl(stream, CLEAR_LINE);
    drawn = false;
  };
  return {
    tty,
    draw(text) {
      if (!tty) return;
      writeBetween(stream, CLEAR_LINE, truncate(text, width()));
      drawn = true;
    },
    print(text) {
      clear();
      stream.write(`${tty ? truncate(text, width()) : text}\n`);
    },
    clear,
  };
}

const BAR_WIDTH = 24;

export interface ProgressReporter {
  onProgress(event: EvaluationProgress): void;
  /** Clears a bar still drawn (an evaluation that ended in an error), so messages start clean. */
  finish(): void;
}

/** `[#########---------------]`: how many of `total` are done. */
export function progressBar(done: number, total: number, width = BAR_WIDTH): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}]`;
}

function outcomeText(outcome: CriterionOutcome, threshold: number): string {
  if (!outcome.evaluated || outcome.score === null) {
    return `not evaluated: ${oneLine(outcome.judgeError ?? "no answer")}`;
  }
  const met = meetsThreshold(outcome.score, threshold) ? "met" : "not met";
  return `${nativeText(outcome.native)} → ${shownScore(outcome.score, "decimal", threshold)} (threshold ${shownThreshold(threshold)}, ${met})`;
}

export function createProgressReporter(
  stream: TextOutput,
  catalog: Pick<Catalog, "criteria" | "passingThreshold">,
): ProgressReporter {
  const byId = new Map(catalog.criteria.map((c) => [c.id, c]));
  const live = createLiveLine(stream);
  const running = new Set<string>();
  let total = catalog.criteria.length;
  let done = 0;

  const label = (id: string) => {
    const title = byId.get(id)?.title;
    return title === undefined || title === id ? id : `${id} ${title}`;
  };
  const drawBar = () => {
    const now = running.size === 0 ? "" : `  judging ${[...running].join(", ")}`;
    live.draw(`${progressBar(done, total)} ${done}/${total}${now}`);
  };

  return {
    onProgress(event) {
      switch (event.type) {
        case "start":
          total = event.total;
          live.print(
            `evaluating ${total} criteria (${event.llmCriteria} by the judge model, ` +
              `${total - event.llmCriteria} by deterministic checks)`,
          );
          drawBar();
          return;
        case "criterion_start":
          running.add(event.criterionId);
          drawBar();
          return;
        case "criterion_done": {
          running.delete(event.criterionId);
          done += 1;
          const criterion = byId.get(event.criterionId);
          const threshold =
            criterion === undefined ? catalog.passingThreshold : thresholdOf(criterion, catalog);
          live.print(
            `[${done}/${event.total}] ${label(event.criterionId)}: ${outcomeText(event.outcome, threshold)}`,
          );
          drawBar();
          return;
        }
        case "done":
          live.print(
            `done: ${event.passed ? "passed" : "not passed"} (overall ${shownScore(event.overallScore)})`,
          );
          return;
      }
    },
    finish: live.clear,
  };
}

export interface StageProgressReporter {
  onProgress(threadId: string, progress: StageProgress): void;
  /** Clears a line still drawn, so that what is printed next starts clean. */
  finish(): void;
}

function criterionLine(progress: Extract<StageProgress, { phase: "judging" }>): string {
  const score =
    progress.score === undefined
      ? ""
      : progress.score === null
        ? " → not evaluated"
        : ` → ${shownScore(progress.score)}`;
  return `[${progress.done}/${progress.total}] ${progress.title}: ${progress.criterionId ?? ""}${score}`;
}

function judgedLine(progress: Extract<StageProgress, { phase: "judged" }>): string {
  const outcome = progress.passed ? "passed" : "not passed";
  return `${progress.title} judged: ${shownScore(progress.overallScore)} (${outcome})`;
}

function plainLine(progress: StageProgress): string {
  switch (progress.phase) {
    case "writing":
      return `writing ${progress.title}…`;
    case "judging":
      return progress.done === 0
        ? `judging ${progress.title}: ${progress.total} criteria`
        : criterionLine(progress);
    case "judged":
      return judgedLine(progress);
  }
}

/** The line redrawn in place on a terminal while a stage is written or judged. */
function liveLine(progress: Exclude<StageProgress, { phase: "judged" }>): string {
  if (progress.phase === "writing") return `writing ${progress.title}…`;
  const last = progress.criterionId === undefined ? "" : `  ${progress.criterionId}`;
  return `judging ${progress.title} ${progressBar(progress.done, progress.total)} ${progress.done}/${progress.total}${last}`;
}

export function createStageProgressReporter(stream: TextOutput): StageProgressReporter {
  const live = createLiveLine(stream);
  return {
    onProgress(_threadId, progress) {
      if (!live.tty) live.print(plainLine(progress));
      else if (progress.phase === "judged") live.print(judgedLine(progress));
      else live.draw(liveLine(progress));
    },
    finish: live.clear,
  };
}

/** One line of the download bar: `[#####-----]  45%  500 MB / 1.1 GB  12 MB/s  48 sec left`. */
export function downloadLine(progress: DownloadProgress): string {
  const { receivedBytes: got, totalBytes: total, bytesPerSecond: rate } = progress;
  const sizes = `${formatSize(got)}${total === undefined ? "" : ` / ${formatSize(total)}`}`;
  const speed = `${formatSize(rate)}/s`;
  if (total === undefined || total <= 0) return `downloading  ${sizes}  ${speed}`;
  const share = Math.min(got / total, 1);
  const bar = progressBar(share, 1);
  const left = rate > 0 ? spanText((total - got) / rate) : "?";
  const percent = `${Math.floor(share * 100)}%`.padStart(4);
  return `${bar} ${percent}  ${sizes}  ${speed}  ${left} left`;
}

export function createDownloadBar(stderr: TextOutput, file: EmbeddedModelFile) {
  // Never drawn yet: the first update is drawn, however soon after the process started.
  let lastDraw = Number.NEGATIVE_INFINITY;
  let started = false;
  let last: DownloadProgress | undefined;
  const draw = (force: boolean) => {
    if (last === undefined || stderr.isTTY !== true) return;
    const now = performance.now();
    if (!force && now - lastDraw < 200) return;
    lastDraw = now;
    writeBetween(stderr, "\r", downloadLine(last), "\x1b[K");
  };
  return {
    start: () => {
      started = true;
      stderr.write(`downloading ${redactSecretText(file.url)}\n`);
    },
    update: (progress: DownloadProgress) => {
      last = progress;
      draw(false);
    },
    waiting: () => {
      stderr.write("another evalgate is downloading the model; waiting for it\n");
    },
    /** Ends the bar; `done` when the file arrived (an interrupted download is not "downloaded"). */
    finish: (done: boolean) => {
      if (!started) return;
      draw(true);
      if (stderr.isTTY === true) stderr.write("\n");
      if (done && last !== undefined)
        stderr.write(`downloaded ${formatSize(last.receivedBytes)}\n`);
    },
  };
}

/** Shows tokens per second while the embedded model generates (terminal only); returns a stop. */
export function showGenerationProgress(stderr: TextOutput): () => void {
  if (stderr.isTTY !== true) return () => {};
  let lastDraw = Number.NEGATIVE_INFINITY;
  let drawn = false;
  const stop = onGenerationProgress((progress) => {
    const now = performance.now();
    if (!progress.done && now - lastDraw < 250) return;
    lastDraw = now;
    drawn = true;
    const rate = progress.tokensPerSecond.toFixed(1);
    const calls = `${progress.activeCalls} call${progress.activeCalls === 1 ? "" : "s"} running`;
    const line = `  ${progress.model}: ${progress.tokens} tokens, ${rate} tokens/s (${calls})`;
    writeBetween(stderr, "\r", line, "\x1b[K");
  });
  return () => {
    stop();
    if (drawn) writeControl(stderr, "\r\x1b[K");
  };
}

/** `[k/n] prompt × model: coverage 0.75` lines; on a terminal the pair being asked is redrawn. */
export function createBlueprintProgress(stream: TextOutput): {
  onProgress(progress: BlueprintProgress): void;
  finish(): void;
} {
  const live = createLiveLine(stream);
  return {
    onProgress(progress) {
      const pair = `${progress.promptId} × ${progress.model}`;
      if (progress.phase === "asking") {
        if (progress.done === 0) {
          stream.write(`running ${progress.total} answers (prompts × models), each judged\n`);
        }
        live.draw(`[${progress.done}/${progress.total}] asking ${pair}…`);
        return;
      }
      const coverage =
        progress.coverage === null ? "no coverage" : `coverage ${shownScore(progress.coverage)}`;
      const error = progress.error === undefined ? "" : ` (${progress.error})`;
      live.print(`[${progress.done}/${progress.total}] ${pair}: ${coverage}${error}`);
    },
    finish: live.clear,
  };
}
