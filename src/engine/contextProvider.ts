import { chunkDocuments } from "../context/chunk.js";
import { contextForCriterion, createBm25Retriever, formatContext } from "../context/retrieval.js";
import type { RankedChunk, Retriever, SourceDocument } from "../context/types.js";
import type { Criterion } from "../criteria/model.js";

/** Per-criterion context: `undefined` without source documents, `""` when none bears on it. */
export interface ContextProvider {
  contextFor(criterion: Criterion): Promise<string | undefined>;
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
  const { documents } = input;
  const found =
    input.retriever ??
    (documents === undefined ? undefined : createBm25Retriever(chunkDocuments([...documents])));
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
