import { EvalgateError, errorGuard } from "../errors.js";

/** The codes of the document context's errors. */
export const CONTEXT_ERROR_CODES = ["DOCUMENTS_UNREADABLE", "EMBEDDING_INVALID"] as const;
export type ContextErrorCode = (typeof CONTEXT_ERROR_CODES)[number];

/**
 * An error of the document context; `code` says what: a documents folder (or a file in it) that
 * could not be read (`DOCUMENTS_UNREADABLE`), or an embeddings model that answered with the wrong
 * number or shape of vectors (`EMBEDDING_INVALID`).
 */
export class ContextError extends EvalgateError<ContextErrorCode> {
  override name = "ContextError";
}

/** The documents at `path` could not be loaded (`DOCUMENTS_UNREADABLE`). */
export function documentsUnreadable(path: string, reason: string): ContextError {
  return new ContextError("DOCUMENTS_UNREADABLE", `Cannot load documents from ${path}: ${reason}`);
}

/** The embeddings model's answer cannot be used (`EMBEDDING_INVALID`). */
export function embeddingInvalid(reason: string): ContextError {
  return new ContextError("EMBEDDING_INVALID", `Embedding retriever: ${reason}`);
}

export const isDocumentLoadError = errorGuard<ContextError>("DOCUMENTS_UNREADABLE");
export const isEmbeddingError = errorGuard<ContextError>("EMBEDDING_INVALID");
