/**
 * `evalgate/context`: source documents for the judge — load and chunk them, and rank chunks per
 * criterion (BM25 by default, or embeddings).
 */
export { type Bm25RetrieverOptions, createBm25Retriever } from "./bm25Retriever.js";
export {
  type ChunkOptions,
  chunkDocuments,
  DEFAULT_CHUNK_WORDS,
  DEFAULT_OVERLAP_WORDS,
} from "./chunk.js";
export { contextForCriterion, DEFAULT_CONTEXT_CHUNKS } from "./criterionContext.js";
export { createEmbeddingRetriever } from "./embeddingRetriever.js";
export {
  ContextError,
  type ContextErrorCode,
  isContextError,
} from "./errors.js";
export { DOCUMENT_EXTENSIONS, loadDocuments } from "./load.js";
export type { Chunk, RankedChunk, Retriever, SourceDocument } from "./types.js";
