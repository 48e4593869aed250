export { type Bm25RetrieverOptions, createBm25Retriever } from "./bm25Retriever.js";
export {
  type ChunkOptions,
  chunkDocuments,
  DEFAULT_CHUNK_WORDS,
  DEFAULT_OVERLAP_WORDS,
} from "./chunk.js";
export {
  contextForCriterion,
  criterionQuery,
  DEFAULT_CONTEXT_CHUNKS,
  formatContext,
} from "./criterionContext.js";
export { cosineSimilarity, createEmbeddingRetriever } from "./embeddingRetriever.js";
export { DocumentLoadError, EmbeddingError } from "./errors.js";
export { DOCUMENT_EXTENSIONS, loadDocuments } from "./load.js";
export { STOPWORDS } from "./stopwords.js";
export type { Chunk, RankedChunk, Retriever, SourceDocument } from "./types.js";
