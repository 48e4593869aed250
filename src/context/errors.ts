import { EvalgateError, errorGuard } from "../errors.js";

/** A documents folder (or a file in it) that could not be read. */
export class DocumentLoadError extends EvalgateError {
  override readonly name = "DocumentLoadError";
  override readonly code = "DOCUMENTS_UNREADABLE";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super("DOCUMENTS_UNREADABLE", `Cannot load documents from ${path}: ${reason}`);
  }
}

/** An embeddings model that answered with the wrong number or shape of vectors. */
export class EmbeddingError extends EvalgateError {
  override readonly name = "EmbeddingError";
  override readonly code = "EMBEDDING_INVALID";
  constructor(reason: string) {
    super("EMBEDDING_INVALID", `Embedding retriever: ${reason}`);
  }
}

/** The codes of the document context's errors, one per class. */
export const CONTEXT_ERROR_CODES = ["DOCUMENTS_UNREADABLE", "EMBEDDING_INVALID"] as const;

export const isDocumentLoadError = errorGuard<DocumentLoadError>("DOCUMENTS_UNREADABLE");
export const isEmbeddingError = errorGuard<EmbeddingError>("EMBEDDING_INVALID");
