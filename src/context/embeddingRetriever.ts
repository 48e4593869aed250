import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { cosineSimilarity } from "../pointFunctions/similarity.js";
import { embeddingInvalid } from "./errors.js";
import type { Chunk, RankedChunk, Retriever } from "./types.js";

function embeddedText(chunk: Chunk): string {
  return chunk.section === undefined ? chunk.text : `${chunk.section}\n${chunk.text}`;
}

/** Dense retrieval (cosine); chunks embedded once on the first query, again after a failure. */
export function createEmbeddingRetriever(
  chunks: readonly Chunk[],
  embeddings: EmbeddingsInterface,
): Retriever {
  let vectors: Promise<number[][]> | undefined;

  const chunkVectors = (): Promise<number[][]> => {
    if (vectors === undefined) {
      vectors = embeddings.embedDocuments(chunks.map(embeddedText)).then((result) => {
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
    async retrieve(query: string, k: number): Promise<RankedChunk[]> {
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
