/** The content an evaluation judged, read back from the fenced CONTENT block of its traces. */
import type { Trace } from "../scoring/result.js";

const CONTENT_BLOCK = /<<<CONTENT id=([0-9a-f]{12})>>>\n([\s\S]*?)\n<<<END CONTENT id=\1>>>/;

export function fencedContentOf(userPrompt: string): string | undefined {
  return CONTENT_BLOCK.exec(userPrompt)?.[2];
}

/** From that criterion's call (its own, a group's or the batch's), else from any judge call. */
export function contentOfTraces(traces: readonly Trace[], criterionId: string): string | undefined {
  const judged = traces.filter((t) => t.purpose === "criterion" || t.purpose === "batch");
  const own = judged.filter((t) => t.criterionIds.includes(criterionId));
  for (const trace of [...own, ...judged]) {
    const content = fencedContentOf(trace.userPrompt);
    if (content !== undefined) return content;
  }
  return undefined;
}
