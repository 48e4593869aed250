import {
  INJECTION_GUARD_SYSTEM,
  injectionGuardUserPrompt,
} from "../../prompts/evaluation/index.js";
import { fenceData } from "../judge/fence.js";
import {
  type GuardVerdict,
  parseGuardResponse,
  parseScreeningAnswer,
} from "../judge/injectionGuard.js";
import type { ModelCallError } from "../llm/errors.js";
import { judgeCallError } from "./errors.js";
import type { JudgeSession } from "./judgeSession.js";
import type { EvaluationProgress } from "./options.js";
import type { ScreenedText, ScreeningReason } from "./screening.js";

/**
 * The injection guard, run beside the judging (in grouped and batch mode its content question
 * rides in a judging call). Verdicts' progress events and cache writes wait for its answer; a
 * finding or a failed, missing or unreadable answer holds the result and keeps the cache clean.
 */

/** Why the guard's verdict about `where` holds the result for review; undefined when clean. */
function guardVerdictReason(where: string, verdict: GuardVerdict): string | undefined {
  if (!verdict.ok) {
    return `the injection guard's answer about ${where} could not be read (${verdict.error})`;
  }
  if (!verdict.instructionBearing) return undefined;
  return `the injection guard found text aimed at the judge in ${where}: ${verdict.reasoning}`;
}

/**
 * Why a guard that could not check `where` holds the result: its call failed, or never came. The
 * reason reaches reviewers: the model's error text (it may name the server) stays in the trace.
 */
function guardFailureReason(where: string, error?: { code: string }): string {
  if (error === undefined) return `the injection guard did not check ${where}`;
  return `the injection guard could not check ${where} (${error.code})`;
}

/** The guard's question about one text, carried by a judging call. */
export interface FoldedGuard {
  readonly where: string;
  /** Whether a kept (cached) answer carries a clean screening line. */
  isClean(raw: string): boolean;
  answered(raw: string): void;
  failed(error: ModelCallError): void;
}

/** The most text one guard call classifies; longer texts are sent in blocks of this size. */
const GUARD_BLOCK_CHARS = 16_000;

function blocksOf(text: string): string[] {
  return Array.from({ length: Math.ceil(text.length / GUARD_BLOCK_CHARS) }, (_, i) =>
    text.slice(i * GUARD_BLOCK_CHARS, (i + 1) * GUARD_BLOCK_CHARS),
  );
}

async function guardBlock(
  session: JudgeSession,
  where: string,
  block: string,
): Promise<string | undefined> {
  const call = {
    purpose: "guard" as const,
    criterionIds: [],
    system: INJECTION_GUARD_SYSTEM,
    user: injectionGuardUserPrompt(fenceData("DATA", block)),
  };
  // Only a clean verdict is kept: a finding or a failed guard is asked again next time.
  const clean = (text: string) => guardVerdictReason(where, parseGuardResponse(text)) === undefined;
  if ((await session.recall(call, clean)) !== undefined) return undefined;
  let raw: string;
  try {
    raw = await session.call(call);
  } catch (error) {
    return guardFailureReason(where, judgeCallError(error));
  }
  if (clean(raw)) await session.remember(call, raw);
  return guardVerdictReason(where, parseGuardResponse(raw));
}

interface Fold {
  text: ScreenedText;
  settled: boolean;
  settle: (reasons: string[]) => void;
  reasons: Promise<string[]>;
}

type Report = (event: EvaluationProgress) => void;

export class GuardScreen {
  #started = false;
  readonly #answers: Array<Promise<string[]>> = [];
  #fold: Fold | undefined;
  #open = false;
  readonly #onOpen: Array<() => void> = [];
  #released: Promise<void> | undefined;

  /** `session` undefined: the guard is off (nothing is asked, nothing held). */
  constructor(
    private readonly session: JudgeSession | undefined,
    private readonly texts: readonly ScreenedText[],
  ) {
    if (session === undefined) this.#open = true;
  }

  /** Starts the guard calls for every text but `foldInto`, whose question's handle it returns. */
  start(foldInto?: string): FoldedGuard | undefined {
    const { session } = this;
    if (this.#started || session === undefined) return undefined;
    this.#started = true;
    session.holdCacheWrites();
    const folded = this.texts.find(
      (t) => t.where === foldInto && t.text.trim() !== "" && t.text.length <= GUARD_BLOCK_CHARS,
    );
    for (const text of this.texts) {
      if (text === folded) this.#answers.push(this.makeFold(text).reasons);
      else this.#answers.push(this.askAlone(session, text));
    }
    Promise.all(this.#answers).then(
      (answers) => {
        this.openGate();
        // Clean: the answers held so far are kept now, and later ones at once — an evaluation
        // killed before its end resumes from them.
        if (answers.every((reasons) => reasons.length === 0)) {
          this.#released = session.releaseCacheWrites();
        }
      },
      () => this.openGate(),
    );
    return this.#fold === undefined ? undefined : this.foldedGuard(this.#fold);
  }

  private async askAlone(session: JudgeSession, { where, text }: ScreenedText): Promise<string[]> {
    if (text.trim() === "") return [];
    const reasons = await Promise.all(blocksOf(text).map((b) => guardBlock(session, where, b)));
    return reasons.filter((reason): reason is string => reason !== undefined);
  }

  private makeFold(text: ScreenedText): Fold {
    let resolve: (reasons: string[]) => void = () => {};
    const fold: Fold = {
      text,
      settled: false,
      settle: (given) => {
        if (!fold.settled) resolve(given);
        fold.settled = true;
      },
      reasons: new Promise((found) => {
        resolve = found;
      }),
    };
    this.#fold = fold;
    return fold;
  }

  private foldedGuard(fold: Fold): FoldedGuard {
    const { where } = fold.text;
    return {
      where,
      isClean: (raw) => guardVerdictReason(where, parseScreeningAnswer(raw)) === undefined,
      answered: (raw) => {
        const reason = guardVerdictReason(where, parseScreeningAnswer(raw));
        fold.settle(reason === undefined ? [] : [reason]);
      },
      failed: (error) => fold.settle([guardFailureReason(where, error)]),
    };
  }

  /** After judging: asks a folded question no call carried, and resolves with every reason. */
  async finish(): Promise<ScreeningReason[]> {
    const { session } = this;
    if (session === undefined) return [];
    this.start();
    const fold = this.#fold;
    if (fold !== undefined && !fold.settled) {
      fold.settle(await this.askAlone(session, fold.text));
    }
    const reasons = (await Promise.all(this.#answers)).flat();
    await this.closeCache(session, reasons.length === 0);
    return reasons.map((message) => ({ source: "guard", message }));
  }

  /** The evaluation failed: waits for the calls made (each traced) and asks nothing more. */
  async abandon(): Promise<void> {
    const { session } = this;
    if (session === undefined || !this.#started) return;
    this.#fold?.settle([guardFailureReason(this.#fold.text.where)]);
    const answers = await Promise.allSettled(this.#answers);
    const clean = answers.every((a) => a.status === "fulfilled" && a.value.length === 0);
    await this.closeCache(session, clean);
  }

  /** Clean: the held cache writes are kept; else nothing of this evaluation is kept. */
  private async closeCache(session: JudgeSession, clean: boolean): Promise<void> {
    this.openGate();
    if (clean) await (this.#released ?? session.releaseCacheWrites());
    else session.bypassCache();
  }

  /** The caller's progress with each criterion's verdict held back until the guard has answered. */
  gate(report: Report | undefined): Report | undefined {
    if (report === undefined || this.#open) return report;
    const held: EvaluationProgress[] = [];
    this.#onOpen.push(() => {
      for (const event of held.splice(0)) report(event);
    });
    return (event) => {
      if (!this.#open && event.type === "criterion_done") held.push(event);
      else report(event);
    };
  }

  private openGate(): void {
    if (this.#open) return;
    this.#open = true;
    for (const release of this.#onOpen.splice(0)) release();
  }
}
