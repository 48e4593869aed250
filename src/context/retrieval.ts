/** Per-criterion retrieval: BM25 (minisearch) or embeddings over the chunks, and its rendering. */
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import MiniSearch from "minisearch";
import type { Criterion } from "../criteria/model.js";
import { cosineSimilarity } from "../pointFunctions/similarity.js";
import { embeddingInvalid } from "./errors.js";
import type { Chunk, RankedChunk, Retriever } from "./types.js";

/** Words too common to say what a passage is about, or criterion queries would match every chunk. */
const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above after all also an and any are as at be been being between both but by can " +
    "could did do does each for from had has have how if in into is it its may more most must " +
    "no not of on or other our should so such than that the their them then there these they " +
    "this those to was we were what when where which while who whom why will with would you your " +
    // German
    "aber als am an auch auf aus bei bis das dass dem den der des die ein eine einem einen einer " +
    "eines es für hat ist im in mit nach nicht oder sich sie sind über um und von vom wie wird " +
    "zu zum zur"
  ).split(" "),
);

/** BM25 over chunk text and section titles (minisearch), exact terms only, any term may match. */
export function createBm25Retriever(
  chunks: readonly Chunk[],
  /** `sectionBoost`: how much more a match in the section title counts (default 1.5). */
  options: { sectionBoost?: number } = {},
): Retriever {
  const index = new MiniSearch<{ position: number; text: string; section?: string }>({
    idField: "position",
    fields: ["text", "section"],
    processTerm: (term) => {
      const lowered = term.toLowerCase();
      return lowered === "" || STOPWORDS.has(lowered) ? null : lowered;
    },
    searchOptions: {
      boost: { section: options.sectionBoost ?? 1.5 },
      prefix: false,
      fuzzy: false,
      combineWith: "OR",
    },
  });
  index.addAll(
    chunks.map((chunk, position) => ({
      position,
      text: chunk.text,
      ...(chunk.section === undefined ? {} : { section: chunk.section }),
    })),
  );
  return {
    async retrieve(query, k) {
      if (k <= 0 || chunks.length === 0) return [];
      const ranked: RankedChunk[] = [];
      for (const result of index.search(query)) {
        const chunk = typeof result.id === "number" ? chunks[result.id] : undefined;
        if (chunk !== undefined && result.score > 0) ranked.push({ chunk, score: result.score });
        if (ranked.length >= k) break;
      }
      return ranked;
    },
  };
}

/** Dense retrieval (cosine); chunks embedded once on the first query, again after a failure. */
export function createEmbeddingRetriever(
  chunks: readonly Chunk[],
  embeddings: EmbeddingsInterface,
): Retriever {
  let vectors: Promise<number[][]> | undefined;
  const chunkVectors = (): Promise<number[][]> => {
    if (vectors === undefined) {
      const texts = chunks.map((c) =>
        c.section === undefined ? c.text : `${c.section}\n${c.text}`,
      );
      vectors = embeddings.embedDocuments(texts).then((result) => {
        if (result.length !== chunks.length) {
          throw embeddingInvalid(
            `the model returned ${result.length} vectors for ${chunks.length} chunks`,
          );
        }
        return result;
      });
      vectors.catch(() => {
        vectors = undefined;
      });
    }
    return vectors;
  };
  return {
    async retrieve(query, k) {
      if (k <= 0 || chunks.length === 0) return [];
      const [documentVectors, queryVector] = await Promise.all([
        chunkVectors(),
        embeddings.embedQuery(query),
      ]);
      const ranked: RankedChunk[] = [];
      documentVectors.forEach((vector, position) => {
        if (vector.length !== queryVector.length) {
          throw embeddingInvalid(
            `chunk ${chunks[position]!.id} has a ${vector.length}-dimensional vector, ` +
              `the query a ${queryVector.length}-dimensional one`,
          );
        }
        const score = cosineSimilarity(vector, queryVector);
        if (score > 0) ranked.push({ chunk: chunks[position]!, score });
      });
      return ranked.sort((a, b) => b.score - a.score).slice(0, k);
    },
  };
}

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
  k = 4,
): Promise<RankedChunk[]> {
  return retriever.retrieve(criterionQuery(criterion), k);
}

/** `[1] (company-profile.md, Page 2) text`, numbered; no chunks render as "". */
export function formatContext(items: readonly (Chunk | RankedChunk)[]): string {
  return items
    .map((item, index) => {
      const chunk = "chunk" in item ? item.chunk : item;
      const label =
        chunk.section === undefined ? chunk.source : `${chunk.source}, ${chunk.section}`;
      return `[${index + 1}] (${label}) ${chunk.text}`;
    })
    .join("\n\n");
}
