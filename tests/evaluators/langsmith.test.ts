/**
 * evalgate/evaluators inside LangSmith's own `evaluate()` (run locally: no upload, the client
 * pointed at a closed local port, so nothing leaves the machine): the documented example as
 * written (docs/examples/langsmith.ts, importing from "evalgate/evaluators"), and the real model
 * wiring against the Ollama-protocol stand-in server — judge calls and embeddings counted per
 * example, failures reported as null scores with their reason, never as scores.
 */
import { Client } from "langsmith";
import { evaluate } from "langsmith/evaluation";
import type { Example } from "langsmith/schemas";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { summaryExperiment } from "../../docs/examples/langsmith.js";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import { createCatalogEvaluators } from "../../src/evaluators/index.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { closedPort } from "../cli/helpers.js";
import {
  type OllamaChatRequest,
  type OllamaServer,
  type RecordedMessage,
  ScriptedChatModel,
  startOllamaServer,
} from "../doubles/index.js";

vi.spyOn(console, "log").mockImplementation(() => {});
// A local run traces nothing, and LangSmith warns so for every evaluator call: that line only is
// kept quiet; any other warning still shows.
const warn = console.warn.bind(console);
vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => {
  if (String(args[0]).startsWith("Can not call 'on_end'")) return;
  warn(...args);
});

let client: Client;
beforeAll(async () => {
  client = new Client({ apiUrl: `http://127.0.0.1:${await closedPort()}`, apiKey: "local-only" });
});

const DATASET = "00000000-0000-4000-8000-0000000000d5";

function example(id: number, inputs: Record<string, unknown>, answer: string): Example {
  return {
    id: `00000000-0000-4000-8000-00000000000${id}`,
    dataset_id: DATASET,
    inputs,
    outputs: { answer },
    created_at: "2025-01-01T00:00:00.000Z",
    modified_at: "2025-01-01T00:00:00.000Z",
    runs: [],
  };
}

/** Scores of each row by key, for the example with this id. */
function scoresOf(
  rows: ReadonlyArray<{
    example: Example;
    evaluationResults: { results: Array<{ key: string; score?: unknown; comment?: string }> };
  }>,
  id: string,
) {
  const row = rows.find((r) => r.example.id === id);
  return new Map((row?.evaluationResults.results ?? []).map((r) => [r.key, r]));
}

describe("the documented LangSmith experiment", () => {
  const examples = [
    example(1, { project: "clinics" }, "Forty nurses in rural clinics are trained by March."),
    example(2, { project: "water" }, "Two hundred families get clean water."),
    example(3, { project: "vague" }, "Something else entirely."),
  ];
  const summaries: Record<string, string> = {
    clinics: "We train forty nurses in rural clinics.",
    water: "Clean water is guaranteed for two hundred families.",
    vague: "It is unclear.",
  };

  it("scores every example once with every key, a judge error as null", async () => {
    const judge = new ScriptedChatModel({
      model: "judge",
      responder: (messages: RecordedMessage[]) => {
        const user = messages.find((m) => m.role === "user")?.content ?? "";
        if (user.includes("It is unclear.")) return "I cannot say.";
        return JSON.stringify({ reasoning: "Beneficiaries and numbers are stated.", score: 0.9 });
      },
    });
    const rows = await summaryExperiment(
      async ({ project }) => ({ answer: summaries[project] ?? "" }),
      examples,
      { model: judge, client, uploadRuns: false },
    );
    expect(rows).toHaveLength(3);
    // One judge call per example (one LLM point), whichever of the four evaluators asked first.
    expect(judge.calls).toHaveLength(3);

    // clinics: ROUGE-L 5/8 (LCS forty·nurses·in·rural·clinics, P = 5/7, R = 5/9), no "guaranteed"
    // (1), judged 0.9; weights 0.25, 0.5, 0.25: 0.225 + 0.3125 + 0.25.
    const clinics = scoresOf(rows, examples[0]?.id ?? "");
    expect([...clinics.keys()]).toEqual(["p1", "p2", "p3", "overall"]);
    expect(clinics.get("p1")?.score).toBe(0.9);
    expect(clinics.get("p2")?.score).toBeCloseTo(0.625, 9);
    expect(clinics.get("p3")?.score).toBe(1);
    expect(clinics.get("overall")?.score).toBeCloseTo(0.7875, 9);

    // water: LCS two·hundred·families, P = 3/8, R = 3/6, F = 3/7; "guaranteed" is there (0).
    const water = scoresOf(rows, examples[1]?.id ?? "");
    expect(water.get("p2")?.score).toBeCloseTo(3 / 7, 9);
    expect(water.get("p3")?.score).toBe(0);
    expect(water.get("overall")?.score).toBeCloseTo(0.225 + 0.5 * (3 / 7), 9);

    // vague: the judge gave no score: p1 and overall are recorded as null, with the reason.
    const vague = scoresOf(rows, examples[2]?.id ?? "");
    expect(vague.get("p1")?.score).toBeNull();
    expect(vague.get("p1")?.comment).toMatch(/^Not evaluated: /);
    expect(vague.get("p2")?.score).toBe(0);
    expect(vague.get("overall")?.score).toBeNull();
  });
});

describe("against the Ollama-protocol server", () => {
  const JUDGE = "evalgate-judge:test";
  const VOCABULARY = ["nurses", "clinics", "water", "families"];
  let server: OllamaServer;

  beforeAll(async () => {
    server = await startOllamaServer({
      models: [JUDGE],
      responder: (request: OllamaChatRequest) => {
        const user = request.messages.at(-1)?.content ?? "";
        const score = user.includes("nurses") ? 0.7 : 0.3;
        return JSON.stringify({ reasoning: `Covered to ${score}.`, score });
      },
      embedder: (text) => {
        const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
        return VOCABULARY.map((entry) => words.filter((w) => w === entry).length);
      },
    });
  });
  afterAll(() => server.close());

  const catalog = parseCatalog(
    JSON.stringify({
      id: "meaning",
      points: ["Names the people who benefit.", ["embedding_similarity"]],
    }),
    { format: "json", source: "meaning.json" },
  );

  function evaluatorsFor(url: string) {
    return createCatalogEvaluators(catalog, {
      model: createChatModel(`ollama:${JUDGE}`, { baseUrl: url, maxRetries: 0 }),
      registry: new FunctionRegistry({ embeddings: { baseUrl: url, env: {} } }),
      keyPrefix: "meaning.",
    });
  }

  it("asks the judge and the embeddings once per example, inside evaluate()", async () => {
    const { evaluators, overall } = await evaluatorsFor(server.url);
    const data = [
      example(4, { project: "clinics" }, "nurses clinics"),
      example(5, { project: "water" }, "water water families"),
    ];
    const answers: Record<string, string> = { clinics: "nurses and clinics", water: "nurses" };
    const chatBefore = server.chatRequests().length;
    const embedBefore = server.embedRequests().length;
    const experiment = await evaluate(
      async (inputs: Record<string, unknown>) => ({ answer: answers[String(inputs.project)] }),
      { data, evaluators: [...evaluators, overall], client, uploadRuns: false },
    );
    expect(server.chatRequests().length - chatBefore).toBe(2);
    expect(server.embedRequests().length - embedBefore).toBe(2);
    // clinics: the same words, cosine 1; judged 0.7; equal weights: 0.85.
    const clinics = scoresOf(experiment.results, data[0]?.id ?? "");
    expect(clinics.get("meaning.p1")?.score).toBe(0.7);
    expect(clinics.get("meaning.p2")?.score).toBe(1);
    expect(clinics.get("meaning.overall")?.score).toBeCloseTo(0.85, 9);
    // water: nurses (1,0,0,0) against water water families (0,0,2,1): cosine 0.
    const water = scoresOf(experiment.results, data[1]?.id ?? "");
    expect(water.get("meaning.p2")?.score).toBe(0);
    expect(water.get("meaning.overall")?.score).toBeCloseTo(0.35, 9);
  });

  it("a failed embeddings call is that key's null; a judge that cannot be reached is each LLM key's null", async () => {
    const { all } = await evaluatorsFor(server.url);
    server.setEmbedBehaviour({ status: 503, errorMessage: "embedding model loading" });
    try {
      const results = await all({ outputs: "nurses", referenceOutputs: "nurses clinics" });
      expect(results.map((r) => r.key)).toEqual(["meaning.p1", "meaning.p2", "meaning.overall"]);
      expect(results[0]?.score).toBe(0.7);
      expect(results[1]?.score).toBeNull();
      expect(results[1]?.comment).toContain("embedding model loading");
      expect(results[2]?.score).toBeNull();
    } finally {
      server.setEmbedBehaviour({});
    }

    const down = `http://ops:hunter2-secret@127.0.0.1:${await closedPort()}`;
    const failing = await evaluatorsFor(down);
    const results = await failing.all({ outputs: "nurses", referenceOutputs: "nurses" });
    // The judge's point and the embeddings point (the same server) are both null, with the reason.
    expect(results.every((r) => r.score === null)).toBe(true);
    expect(results[0]?.comment).toMatch(/^Not evaluated: judge model error: /);
    expect(results[1]?.comment).toMatch(/^Not evaluated: /);
    expect(JSON.stringify(results)).not.toContain("hunter2");
  });
});
