import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { describe, expect, it } from "vitest";
import { chunkDocuments } from "../../src/context/chunk.js";
import {
  contextForCriterion,
  createBm25Retriever,
  createEmbeddingRetriever,
  criterionQuery,
  formatContext,
} from "../../src/context/retrieval.js";
import { type Criterion, CriterionSchema } from "../../src/criteria/model.js";
import { cosineSimilarity } from "../../src/pointFunctions/similarity.js";
import { DOCUMENTS } from "./documents.js";

const chunks = chunkDocuments(DOCUMENTS);

function criterion(input: Partial<Criterion> & Pick<Criterion, "method">): Criterion {
  return CriterionSchema.parse({
    id: "c1",
    title: "Hamburg Base",
    description: "Is the company based in Hamburg?",
    weight: 1,
    ...input,
  });
}

/**
 * A deterministic embeddings model for tests (the model boundary): bag-of-words hashed into a
 * fixed number of dimensions. Texts sharing words point in similar directions.
 */
class HashingEmbeddings implements EmbeddingsInterface {
  documentCalls = 0;
  queryCalls = 0;
  constructor(private readonly dimensions = 4096) {}

  private vector(text: string): number[] {
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      if (word.length < 3) continue;
      let hash = 2166136261;
      for (const char of word) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619);
      const index = (hash >>> 0) % this.dimensions;
      vector[index] = vector[index]! + 1;
    }
    return vector;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    this.documentCalls += 1;
    return documents.map((text) => this.vector(text));
  }

  async embedQuery(document: string): Promise<number[]> {
    this.queryCalls += 1;
    return this.vector(document);
  }
}

describe("createBm25Retriever", () => {
  const retriever = createBm25Retriever(chunks);

  it("ranks the address chunk first for a query about the Hamburg address", async () => {
    const ranked = await retriever.retrieve("Hamburg address", 3);
    // Other chunks mention Hamburg (meeting notes) or "address" (innovation); they rank lower.
    expect(ranked.map(({ chunk }) => `${chunk.source}: ${chunk.section}`)).toEqual([
      "company-profile.md: Page 2",
      "notes.txt: Page 1",
      "project.md: Innovation",
    ]);
    expect(ranked[0]!.chunk.text).toContain("Überseeallee 10, 20457 Hamburg");
    expect(ranked[0]!.chunk.section).toBe("Page 2");
    for (let i = 1; i < ranked.length; i += 1) {
      expect(ranked[i - 1]!.score).toBeGreaterThanOrEqual(ranked[i]!.score);
    }
  });

  it("finds chunks by their section title", async () => {
    const ranked = await retriever.retrieve("innovation", 2);
    expect(ranked[0]!.chunk.section).toBe("Innovation");
  });

  it("returns at most k chunks and only those sharing a term with the query", async () => {
    expect(await retriever.retrieve("wind", 1)).toHaveLength(1);
    const ranked = await retriever.retrieve("erosion", 10);
    expect(ranked.length).toBeGreaterThan(0);
    for (const { chunk, score } of ranked) {
      expect(score).toBeGreaterThan(0);
      expect(chunk.text.toLowerCase()).toContain("erosion");
    }
  });

  it("returns an empty array when nothing matches, for stopwords only, and for k = 0", async () => {
    expect(await retriever.retrieve("cryptocurrency blockchain", 5)).toEqual([]);
    expect(await retriever.retrieve("is the of and in", 5)).toEqual([]);
    expect(await retriever.retrieve("Hamburg", 0)).toEqual([]);
    expect(await createBm25Retriever([]).retrieve("Hamburg", 3)).toEqual([]);
  });
});

describe("createEmbeddingRetriever", () => {
  it("ranks by cosine similarity and embeds the chunks once", async () => {
    const embeddings = new HashingEmbeddings();
    const retriever = createEmbeddingRetriever(chunks, embeddings);
    expect(embeddings.documentCalls).toBe(0);

    const address = await retriever.retrieve("registered office address Hamburg", 2);
    expect(address[0]!.chunk.text).toContain("Überseeallee");
    const market = await retriever.retrieve("market competitors growth", 2);
    expect(market[0]!.chunk.section).toBe("Market");
    expect(market[0]!.score).toBeGreaterThan(market[1]?.score ?? 0);

    expect(embeddings.documentCalls).toBe(1);
    expect(embeddings.queryCalls).toBe(2);
  });

  it("leaves out chunks with no similarity", async () => {
    const retriever = createEmbeddingRetriever(chunks, new HashingEmbeddings());
    expect(await retriever.retrieve("zzzz qqqq", 5)).toEqual([]);
  });

  it("reports a model that returns the wrong number of vectors, and retries later", async () => {
    const embeddings = new HashingEmbeddings();
    let broken = true;
    const flaky: EmbeddingsInterface = {
      embedDocuments: async (documents) => {
        const vectors = await embeddings.embedDocuments(documents);
        return broken ? vectors.slice(1) : vectors;
      },
      embedQuery: (document) => embeddings.embedQuery(document),
    };
    const retriever = createEmbeddingRetriever(chunks, flaky);
    await expect(retriever.retrieve("Hamburg", 2)).rejects.toMatchObject({
      code: "EMBEDDING_INVALID",
    });
    await expect(retriever.retrieve("Hamburg", 2)).rejects.toThrow(
      `the model returned ${chunks.length - 1} vectors for ${chunks.length} chunks`,
    );
    broken = false;
    expect((await retriever.retrieve("Hamburg", 2)).length).toBeGreaterThan(0);
  });

  it("computes cosine similarity", () => {
    expect(cosineSimilarity([1, 0], [1, 0])).toBe(1);
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 1], [2, 2])).toBeCloseTo(1);
    expect(cosineSimilarity([0, 0], [1, 1])).toBe(0);
    expect(cosineSimilarity([1], [1, 2])).toBe(0);
  });
});

describe("contextForCriterion and formatContext", () => {
  const retriever = createBm25Retriever(chunks);

  it("builds the query from title, description and the method's text", () => {
    expect(criterionQuery(criterion({ method: { kind: "check" } }))).toBe(
      "Hamburg Base\nIs the company based in Hamburg?",
    );
    const point = criterion({ method: { kind: "point", text: "Names the investment volume." } });
    expect(criterionQuery(point)).toContain("Names the investment volume.");
  });

  it("returns the top-k chunks for a criterion", async () => {
    const context = await contextForCriterion(
      retriever,
      criterion({ method: { kind: "check" } }),
      2,
    );
    expect(context).toHaveLength(2);
    expect(context[0]!.chunk.text).toContain("Hamburg");
  });

  it("uses the point text to find its evidence", async () => {
    const withPoint = criterion({
      title: "Funding",
      description: "Assess the budget.",
      method: { kind: "point", text: "States the planned investment volume in euros." },
    });
    const [best] = await contextForCriterion(retriever, withPoint, 1);
    expect(best!.chunk.section).toBe("Page 3");
  });

  it("is empty when the documents say nothing about the criterion (TC-CRI-06)", async () => {
    const unrelated = criterion({
      title: "Cybersecurity certification",
      description: "Does the applicant hold ISO 27001 certification?",
      method: { kind: "check" },
    });
    const context = await contextForCriterion(retriever, unrelated, 3);
    expect(context).toEqual([]);
    expect(formatContext(context)).toBe("");
  });

  it("renders each chunk with its number, source and section", async () => {
    const context = await retriever.retrieve("company address Hamburg", 2);
    const text = formatContext(context);
    expect(
      text.startsWith("[1] (company-profile.md, Page 2) Registered office The registered"),
    ).toBe(true);
    expect(text).toMatch(/\n\n\[2\] \(/);
    expect(formatContext([{ id: "x#1", source: "x.txt", text: "Loose text.", wordCount: 2 }])).toBe(
      "[1] (x.txt) Loose text.",
    );
  });
});
