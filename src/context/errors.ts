/** A documents folder (or a file in it) that could not be read. */
export class DocumentLoadError extends Error {
  override readonly name = "DocumentLoadError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`Cannot load documents from ${path}: ${reason}`);
  }
}

/** An embeddings model that answered with the wrong number or shape of vectors. */
export class EmbeddingError extends Error {
  override readonly name = "EmbeddingError";
  constructor(reason: string) {
    super(`Embedding retriever: ${reason}`);
  }
}
