import MiniSearch from "minisearch";
import { STOPWORDS } from "./stopwords.js";
import type { Chunk, RankedChunk, Retriever } from "./types.js";

export interface Bm25RetrieverOptions {
  /** How much more a match in the section title counts than one in the text (default 1.5). */
  sectionBoost?: number;
}

interface IndexedChunk {
  position: number;
  text: string;
  section?: string;
}

function processTerm(term: string): string | null {
  const lowered = term.toLowerCase();
  return lowered === "" || STOPWORDS.has(lowered) ? null : lowered;
}

/** BM25 over chunk text and section titles (minisearch), exact terms only, any term may match. */
export function createBm25Retriever(
  chunks: readonly Chunk[],
  options: Bm25RetrieverOptions = {},
): Retriever {
  const index = new MiniSearch<IndexedChunk>({
    idField: "position",
    fields: ["text", "section"],
    processTerm,
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
    async retrieve(query: string, k: number): Promise<RankedChunk[]> {
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
