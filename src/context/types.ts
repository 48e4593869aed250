/** A document the context is drawn from: a company profile, an RFP, a project description. */
export interface SourceDocument {
  /** Shown as the chunk's source, e.g. "company-profile.md". */
  name: string;
  text: string;
}

/** A passage of a document, small enough to put in a judge prompt. */
export interface Chunk {
  id: string;
  source: string;
  /** The nearest preceding markdown heading or "Page N" marker; undefined when there is none. */
  section?: string;
  text: string;
  wordCount: number;
}

export interface RankedChunk {
  chunk: Chunk;
  /** Relevance to the query; higher is better. Only positive scores are returned. */
  score: number;
}

/** Finds the chunks most relevant to a query. */
export interface Retriever {
  /** At most k chunks, best first; an empty array when nothing is relevant. */
  retrieve(query: string, k: number): Promise<RankedChunk[]>;
}
