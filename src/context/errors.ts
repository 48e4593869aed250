import { EvalgateError } from "../errors.js";

const CONTEXT_ERROR_CODES = ["DOCUMENTS_UNREADABLE", "EMBEDDING_INVALID"] as const;
export type ContextErrorCode = (typeof CONTEXT_ERROR_CODES)[number];

/** An error of the document context; `code` says what. */
export class ContextError extends EvalgateError<ContextErrorCode> {}

export function documentsUnreadable(path: string, reason: string): ContextError {
  return new ContextError("DOCUMENTS_UNREADABLE", `Cannot load documents from ${path}: ${reason}`);
}

export function embeddingInvalid(reason: string): ContextError {
  return new ContextError("EMBEDDING_INVALID", `Embedding retriever: ${reason}`);
}
