/**
 * `evalgate blueprint run` over the Ollama protocol: two candidate models and a judge served by the
 * test server; the comparison document as JSON and as TOON; the seed on every call.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToon } from "../../src/toon/index.js";
import { type OllamaChatRequest, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  JUDGE_MODEL,
  judgeEnv,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";

const BLUEPRINT = {
  id: "stoic-basics",
  title: "Stoicism basics",
  models: ["ollama:cand-a", "ollama:cand-b"],
  prompts: [
    {
      id: "virtue",
      promptText: "Name the four Stoic virtues.",
      points: [
        "Virtue is the only good (wisdom, justice, courage, temperance).",
        ["contains", "justice"],
        { text: "Mentions living according to nature.", multiplier: 3, citation: "Lecture 2" },
      ],
    },
  ],
};

const ANSWERS: Record<string, string> = {
  "cand-a": "Wisdom, justice, courage and temperance; live according to nature.",
  "cand-b": "Be calm.",
};

function respond(request: OllamaChatRequest): string {
  if (request.model !== JUDGE_MODEL) return ANSWERS[request.model] ?? "";
  const user = request.messages.find((m) => m.role === "user")?.content ?? "";
  const score = user.includes("live according to nature") ? 1 : 0.2;
  return JSON.stringify({ reasoning: `Coverage ${score}.`, score, hits: [], misses: [] });
}

let server: OllamaServer;
const temp = tempFolderForFile();
let blueprintFile: string;

beforeAll(async () => {
  server = await startOllamaServer({
    models: [JUDGE_MODEL, "cand-a", "cand-b"],
    responder: respond,
  });
  blueprintFile = await writeText(temp.dir, "stoic.json", JSON.stringify(BLUEPRINT));
});

afterAll(async () => {
  await server.close();
});

const env = () => ({ ...judgeEnv(server.url), EVALGATE_INJECTION_GUARD: "off" });

describe("evalgate blueprint run", () => {
  it("writes llmCoverageScores per prompt per model as JSON, with the seed on every call", async () => {
    const before = server.chatRequests().length;
    const run = await runEvalgate(["blueprint", "run", blueprintFile, "--seed", "11"], {
      env: env(),
      timeoutMs: SPAWN_TIMEOUT,
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    const scores = result.evaluationResults.llmCoverageScores.virtue;
    expect(Object.keys(scores)).toEqual(["ollama:cand-a", "ollama:cand-b"]);
    expect(scores["ollama:cand-a"]).toMatchObject({ keyPointsCount: 3, avgCoverageExtent: 1 });
    // cand-b: 0.2 (×1), contains "justice" false (×1), 0.2 (×3) → 0.8 / 5
    expect(scores["ollama:cand-b"].avgCoverageExtent).toBeCloseTo(0.16, 10);
    expect(scores["ollama:cand-b"].pointAssessments[2]).toMatchObject({
      keyPointText: "Mentions living according to nature.",
      coverageExtent: 0.2,
      multiplier: 3,
      citation: "Lecture 2",
    });
    expect(result.allFinalAssistantResponses.virtue["ollama:cand-b"]).toBe("Be calm.");

    const requests = server.chatRequests().slice(before);
    // Two candidate answers, two text points judged per answer.
    expect(requests).toHaveLength(6);
    for (const request of requests) expect(request.options?.seed).toBe(11);
    const judged = requests.filter((r) => r.model === JUDGE_MODEL);
    for (const request of judged) {
      expect(request.messages.find((m) => m.role === "user")?.content).toContain(
        "Name the four Stoic virtues.",
      );
    }
  });

  it("writes the same document as TOON to --out", async () => {
    const out = join(temp.dir, "run.toon");
    const run = await runEvalgate(
      ["blueprint", "run", blueprintFile, "--format", "toon", "--out", out],
      {
        env: env(),
        timeoutMs: SPAWN_TIMEOUT,
      },
    );
    expect(run.code).toBe(0);
    const decoded = decodeToon(await readFile(out, "utf8")) as {
      evaluationResults: {
        llmCoverageScores: Record<string, Record<string, { avgCoverageExtent: number }>>;
      };
    };
    expect(
      decoded.evaluationResults.llmCoverageScores.virtue?.["ollama:cand-a"]?.avgCoverageExtent,
    ).toBe(1);
  });

  it("names the place of a broken blueprint and exits 2", async () => {
    const bad = await writeText(
      temp.dir,
      "bad.json",
      JSON.stringify({ prompts: [{ id: "x", points: [] }] }),
    );
    const run = await runEvalgate(["blueprint", "run", bad], {
      env: env(),
      timeoutMs: SPAWN_TIMEOUT,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("bad.json");
    expect(run.stderr).toContain("points");
  });
});
