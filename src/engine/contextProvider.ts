import { createBm25Retriever } from "../context/bm25Retriever.js";
import { chunkDocuments } from "../context/chunk.js";
import { contextForCriterion, formatContext } from "../context/criterionContext.js";
import type { RankedChunk, Retriever, SourceDocument } from "../context/types.js";
import type { Criterion } from "../criteria/model.js";

/**
 * Per-criterion context (retrieved from the source documents): `undefined` when the evaluation has
 * no source documents at all (the content itself is the evidence), `""` when it has some but none
 * bears on the criterion.
 */
export interface ContextProvider {
  contextFor(criterion: Criterion): Promise<string | undefined>;
  /** The union of several criteria's chunks, for one batch prompt. */
  contextForAll(criteria: readonly Criterion[]): Promise<string | undefined>;
}

export function createContextProvider(
  input: { documents?: readonly SourceDocument[]; retriever?: Retriever; context?: string },
  k: number,
): ContextProvider {
  const { context } = input;
  if (context !== undefined) {
    return { contextFor: async () => context, contextForAll: async () => context };
  }
  let retriever = input.retriever;
  if (retriever === undefined && input.documents !== undefined) {
    retriever = createBm25Retriever(chunkDocuments([...input.documents]));
  }
  const found = retriever;
  if (found === undefined) {
    return { contextFor: async () => undefined, contextForAll: async () => undefined };
  }
  return {
    async contextFor(criterion) {
      return formatContext(await contextForCriterion(found, criterion, k));
    },
    async contextForAll(criteria) {
      const seen = new Map<string, RankedChunk>();
      for (const criterion of criteria) {
        for (const ranked of await contextForCriterion(found, criterion, k)) {
          if (!seen.has(ranked.chunk.id)) seen.set(ranked.chunk.id, ranked);
        }
      }
      return formatContext([...seen.values()]);
    },
  };
}
