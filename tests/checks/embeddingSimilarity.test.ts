/**
 * embedding_similarity against the Ollama-protocol stand-in server: the request it makes
 * (`POST /api/embed` with `{ model, input }`, the URL's credentials as a Basic header), the cosine
 * it answers (vectors chosen so the cosines are computed by hand), and every way the server can
 * fail — each one the point's error, never a score. Calls in flight are counted, not clocked.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOllamaEmbedder } from "../../src/checks/embeddings.js";
import { runFunctionCriterion } from "../../src/checks/functionCriterion.js";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { invokeJudge } from "../../src/llm/invoke.js";
import { serverCallCounts } from "../../src/llm/serverState.js";
import { MODEL_POINT_FUNCTIONS } from "../../src/pointFunctions/builtIn.js";
import type { CriterionOutcome } from "../../src/scoring/result.js";
import { closedPort } from "../cli/helpers.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { criterion } from "./helpers.js";

/** One dimension per word of this vocabulary: a text's vector counts its words. */
const VOCABULARY = ["nurses", "clinics", "budget", "march", "rural"];

function vocabularyVector(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return VOCABULARY.map((entry) => words.filter((word) => word === entry).length);
}

let server: OllamaServer;

beforeAll(async () => {
  server = await startOllamaServer({
    embedModels: ["nomic-embed-text", "mxbai-embed-large"],
    embedder: vocabularyVector,
  });
});
afterAll(() => server.close());

function registryFor(url: string, extra: { timeoutMs?: number; reference?: string } = {}) {
  const { reference, ...embeddings } = extra;
  return new FunctionRegistry({
    embeddings: { baseUrl: url, env: {}, ...embeddings },
    ...(reference === undefined ? {} : { reference }),
  });
}

async function similarity(
  text: string,
  args: unknown,
  registry = registryFor(server.url),
): Promise<CriterionOutcome> {
  return runFunctionCriterion(
    criterion({ kind: "function", name: "embedding_similarity", args }),
    text,
    registry,
  );
}

describe("embedding_similarity", () => {
  it("asks the server for both vectors at once and answers their cosine", async () => {
    const before = server.embedRequests().length;
    // nurses clinics → (1,1,0,0,0); nurses budget → (1,0,1,0,0): cos = 1 / (√2 · √2) = 0.5.
    const outcome = await similarity("Nurses and clinics", "nurses budget");
    expect(outcome).toMatchObject({ evaluated: true, score: 0.5, native: 0.5 });
    expect(server.embedRequests().slice(before)).toEqual([
      { model: "nomic-embed-text", input: ["Nurses and clinics", "nurses budget"] },
    ]);
    // rural clinics clinics → (0,2,0,0,1); clinics → (0,1,0,0,0): cos = 2 / √5.
    const second = await similarity("rural clinics clinics", { reference: "clinics" });
    expect(second.score).toBeCloseTo(2 / Math.sqrt(5), 12);
  });

  it("thresholds with min, negates with not_, and takes the model from the args", async () => {
    expect(
      (await similarity("nurses clinics", { reference: "nurses budget", min: 0.5 })).native,
    ).toBe("pass");
    expect(
      (await similarity("nurses clinics", { reference: "nurses budget", min: 0.6 })).native,
    ).toBe("fail");
    const negated = await runFunctionCriterion(
      criterion({ kind: "function", name: "not_embedding_similarity", args: "nurses budget" }),
      "nurses clinics",
      registryFor(server.url),
    );
    expect(negated.score).toBe(0.5);
    const before = server.embedRequests().length;
    await similarity("nurses", { reference: "nurses", model: "mxbai-embed-large" });
    expect(server.embedRequests()[before]?.model).toBe("mxbai-embed-large");
  });

  it("takes the model from EVALGATE_EMBED_MODEL, the reference from the registry", async () => {
    const registry = new FunctionRegistry({
      reference: "budget march",
      embeddings: { baseUrl: server.url, env: { EVALGATE_EMBED_MODEL: "mxbai-embed-large" } },
    });
    const before = server.embedRequests().length;
    // budget → (0,0,1,0,0); budget march → (0,0,1,1,0): cos = 1 / √2.
    const outcome = await similarity("budget", {}, registry);
    expect(outcome.score).toBeCloseTo(1 / Math.sqrt(2), 12);
    expect(server.embedRequests()[before]).toEqual({
      model: "mxbai-embed-large",
      input: ["budget", "budget march"],
    });
  });

  it("counts an opposite direction as 0 and an empty text as 0 without asking", async () => {
    server.setEmbedBehaviour({
      embeddings: [
        [1, 0],
        [-1, 0],
      ],
    });
    try {
      expect((await similarity("anything", "else")).score).toBe(0);
    } finally {
      server.setEmbedBehaviour({});
    }
    const before = server.embedRequests().length;
    expect((await similarity("   ", "nurses")).score).toBe(0);
    expect(server.embedRequests().length).toBe(before);
  });

  it("sends the URL's credentials as a Basic header and never shows them", async () => {
    const guarded = await startOllamaServer({
      requireAuthorization: `Basic ${Buffer.from("ops:s3cret-pw").toString("base64")}`,
      embedder: vocabularyVector,
    });
    try {
      const url = guarded.url.replace("http://", "http://ops:s3cret-pw@");
      const outcome = await similarity("nurses", "nurses", registryFor(url));
      expect(outcome.score).toBe(1);
      guarded.setEmbedBehaviour({ status: 500, errorMessage: "out of memory" });
      const failed = await similarity("nurses", "nurses", registryFor(url));
      expect(failed.evaluated).toBe(false);
      expect(failed.judgeError).toContain("out of memory");
      expect(JSON.stringify(failed)).not.toContain("s3cret");
      expect(failed.judgeError).toContain("***@127.0.0.1");
    } finally {
      await guarded.close();
    }
  });

  it("reports a server it cannot reach, and a model it has not pulled, as not evaluated", async () => {
    const down = await similarity(
      "nurses",
      "nurses",
      registryFor(`http://127.0.0.1:${await closedPort()}`),
    );
    expect(down).toMatchObject({ evaluated: false, score: null, native: null });
    expect(down.judgeError).toMatch(/^embedding_similarity: .*ollama serve/s);

    const missing = await similarity("nurses", { reference: "nurses", model: "all-minilm" });
    expect(missing).toMatchObject({ evaluated: false, score: null });
    expect(missing.judgeError).toContain("ollama pull all-minilm");
  });

  it.each([
    ["a body that is not JSON", { rawBody: "<html>proxy error</html>" }, "not usable JSON"],
    [
      "a prototype key",
      { rawBody: '{"embeddings":[[1],[1]],"__proto__":{"polluted":true}}' },
      "__proto__",
    ],
    ["no embeddings field", { rawBody: '{"embedding":[1,2]}' }, "not { embeddings"],
    ["one vector for two texts", { embeddings: [[1, 2]] }, "answered 1 vectors for 2 texts"],
    [
      "vectors of different lengths",
      {
        embeddings: [
          [1, 2],
          [1, 2, 3],
        ],
      },
      "different lengths (2, 3)",
    ],
    [
      "a zero vector",
      {
        embeddings: [
          [0, 0],
          [1, 0],
        ],
      },
      "zero vector",
    ],
    ["text in a vector", { embeddings: [["a"], [1]] }, "not { embeddings"],
    ["a rate limit", { status: 429, errorMessage: "slow down" }, "rate limited"],
  ])("reports %s as the point's error", async (_what, behaviour, message) => {
    server.setEmbedBehaviour(behaviour);
    try {
      const outcome = await similarity("nurses", "nurses");
      expect(outcome).toMatchObject({ evaluated: false, score: null });
      expect(outcome.judgeError).toContain(message);
      expect({} as Record<string, unknown>).not.toHaveProperty("polluted");
    } finally {
      server.setEmbedBehaviour({});
    }
  });

  it("reads at most 16 MB of an answer", async () => {
    server.setEmbedBehaviour({ rawBody: `{"embeddings":[[${"1,".repeat(8_500_000)}1]]}` });
    try {
      const outcome = await similarity("nurses", "nurses");
      expect(outcome.evaluated).toBe(false);
      expect(outcome.judgeError).toContain("longer than 16,777,216 bytes");
    } finally {
      server.setEmbedBehaviour({});
    }
  });

  it("gives up on a server that does not answer within the timeout", async () => {
    server.setEmbedBehaviour({ hang: true });
    try {
      const outcome = await similarity(
        "nurses",
        "nurses",
        registryFor(server.url, { timeoutMs: 300 }),
      );
      expect(outcome.evaluated).toBe(false);
      expect(outcome.judgeError).toContain("did not answer within 300 ms");
    } finally {
      server.setEmbedBehaviour({});
    }
  });

  it("refuses a text or a reference too long to embed, without asking", async () => {
    const before = server.embedRequests().length;
    const outcome = await similarity("n".repeat(100_001), "nurses");
    expect(outcome.judgeError).toBe(
      "embedding_similarity: the text is 100,001 characters, more than the 100,000 sent to be embedded",
    );
    const reference = await similarity("nurses", { reference: "n".repeat(100_001) });
    expect(reference.judgeError).toContain("the reference is 100,001 characters");
    expect(server.embedRequests().length).toBe(before);
  });

  it("is an error without a model server in its context (called outside a registry)", async () => {
    const answer = await MODEL_POINT_FUNCTIONS.embedding_similarity.fn("nurses", "nurses");
    expect(answer).toEqual({
      error:
        "embedding_similarity: no model server to embed with (run it through a FunctionRegistry)",
    });
  });
});

describe("the embeddings requests and the server's ceiling", () => {
  it("wait for a slot of the server's ceiling: with maxInFlight 1, one request at a time", async () => {
    const gated = await startOllamaServer({
      embedder: vocabularyVector,
      embedBehaviour: { hold: true },
    });
    try {
      const embedder = createOllamaEmbedder({ baseUrl: gated.url, env: {}, maxInFlight: 1 });
      const calls = [
        embedder.embed(["nurses"]),
        embedder.embed(["clinics"]),
        embedder.embed(["budget"]),
      ];
      for (let answered = 0; answered < 3; answered += 1) {
        await gated.waitFor((s) => s.held === 1);
        // The others wait at our ceiling: the server has seen only the held ones so far.
        expect(gated.embedRequests().length).toBe(answered + 1);
        gated.release(1);
      }
      expect(await Promise.all(calls)).toEqual([
        [[1, 0, 0, 0, 0]],
        [[0, 1, 0, 0, 0]],
        [[0, 0, 1, 0, 0]],
      ]);
      expect(gated.maxInFlight).toBe(1);
    } finally {
      await gated.close();
    }
  });

  it("share the judge's ceiling at that server, however its URL is spelled", async () => {
    const gated = await startOllamaServer({
      embedder: vocabularyVector,
      behaviour: { hold: "before-response" },
    });
    try {
      const judge = createChatModel("ollama:qwen2.5:7b-instruct", {
        env: { OLLAMA_BASE_URL: gated.url },
        maxInFlight: 1,
      });
      const judged = invokeJudge(judge, [["user", "Judge the plan."]]);
      await gated.waitFor((s) => s.held === 1);
      const embedder = createOllamaEmbedder({
        baseUrl: `http://localhost:${gated.port}/`,
        env: {},
        maxInFlight: 1,
      });
      const embedded = embedder.embed(["nurses"]);
      // The embedding waits at the ceiling (or, were it not shared, reaches the server).
      while (
        (serverCallCounts(gated.url)?.queued ?? 0) === 0 &&
        gated.embedRequests().length === 0
      ) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      gated.release();
      await Promise.all([judged, embedded]);
      expect(gated.maxInFlight).toBe(1);
    } finally {
      await gated.close();
    }
  });

  it("stop waiting when the caller cancels", async () => {
    const gated = await startOllamaServer({
      embedder: vocabularyVector,
      embedBehaviour: { hold: true },
    });
    try {
      const controller = new AbortController();
      const embedder = createOllamaEmbedder({
        baseUrl: gated.url,
        env: {},
        signal: controller.signal,
      });
      const call = embedder.embed(["nurses"]);
      await gated.waitFor((s) => s.held === 1);
      controller.abort();
      await expect(call).rejects.toMatchObject({ code: "MODEL_CALL_CANCELLED" });
      await gated.waitFor((s) => s.clientDisconnects === 1);
    } finally {
      await gated.close();
    }
  });
});
