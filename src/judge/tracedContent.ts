/**
 * The content an evaluation judged, read back from its traces: the fenced CONTENT block of the
 * judge's prompt (neutralised as the judge saw it). Calibration labels keep no content of their
 * own; the trace store beside them keeps the exact prompts, and this is how few-shot examples and
 * the calibration replay find what was judged.
 */
import type { Trace } from "../scoring/result.js";

const CONTENT_BLOCK = /<<<CONTENT id=([0-9a-f]{12})>>>\n([\s\S]*?)\n<<<END CONTENT id=\1>>>/;

/** The content block of one prompt, or undefined when it has none. */
export function fencedContentOf(userPrompt: string): string | undefined {
  return CONTENT_BLOCK.exec(userPrompt)?.[2];
}

/**
 * The content the judge saw for a criterion: from that criterion's call (its own, a group's or
 * the batch's), else from any judge call of the evaluation; undefined when no trace carries it.
 */
export function contentOfTraces(traces: readonly Trace[], criterionId: string): string | undefined {
  const judged = traces.filter((t) => t.purpose === "criterion" || t.purpose === "batch");
  const own = judged.filter((t) => t.criterionIds.includes(criterionId));
  for (const trace of [...own, ...judged]) {
    const content = fencedContentOf(trace.userPrompt);
    if (content !== undefined) return content;
  }
  return undefined;
}
