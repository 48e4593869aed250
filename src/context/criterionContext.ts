import type { Criterion } from "../criteria/model.js";
import type { Chunk, RankedChunk, Retriever } from "./types.js";

const DEFAULT_CONTEXT_CHUNKS = 4;

export function criterionQuery(criterion: Criterion): string {
  const parts = [criterion.title, criterion.description];
  if (criterion.method.kind === "point") parts.push(criterion.method.text);
  if (criterion.method.kind === "check" && criterion.method.expectedOutcome !== undefined) {
    parts.push(criterion.method.expectedOutcome);
  }
  return parts.join("\n");
}

/** The top-k chunks for a criterion; none lets the engine answer "Insufficient Information" without the model. */
export function contextForCriterion(
  retriever: Retriever,
  criterion: Criterion,
  k: number = DEFAULT_CONTEXT_CHUNKS,
): Promise<RankedChunk[]> {
  return retriever.retrieve(criterionQuery(criterion), k);
}

function chunkOf(item: Chunk | RankedChunk): Chunk {
  return "chunk" in item ? item.chunk : item;
}

/** `[1] (company-profile.md, Page 2) text`, numbered; no chunks render as "". */
export function formatContext(items: readonly (Chunk | RankedChunk)[]): string {
  return items
    .map((item, index) => {
      const chunk = chunkOf(item);
      const label =
        chunk.section === undefined ? chunk.source : `${chunk.source}, ${chunk.section}`;
      return `[${index + 1}] (${label}) ${chunk.text}`;
    })
    .join("\n\n");
}
