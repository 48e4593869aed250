/**
 * The embedded model's download bar and generation meter; off a terminal only the download's start
 * and end.
 */

import type { EmbeddedModelFile } from "../llm/embedded/defaultModel.js";
import { formatSize } from "../llm/embedded/defaultModel.js";
import { onGenerationProgress } from "../llm/embedded/generationProgress.js";
import type { DownloadProgress } from "../llm/embedded/modelDownload.js";
import { redactSecretText } from "../redact.js";
import { spanText } from "../timeText.js";
import { type TextOutput, writeBetween, writeControl } from "./context.js";
import { progressBar } from "./progress.js";

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
