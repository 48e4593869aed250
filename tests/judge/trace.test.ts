import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  appendTraceJsonl,
  type BuildTraceInput,
  buildTrace,
  promptHash,
} from "../../src/judge/trace.js";
import { TraceSchema } from "../../src/scoring/result.js";

const INPUT: BuildTraceInput = {
  purpose: "criterion",
  criterionIds: ["c2"],
  model: "ollama:qwen2.5:7b",
  parameters: { temperature: 0.1 },
  systemPrompt: "You are a strict evaluator.",
  userPrompt: "Rate the innovation.",
  rawResponse: '{"reasoning": "novel", "score": 4}',
  usage: { inputTokens: 120, outputTokens: 30 },
  latencyMs: 812,
};

describe("buildTrace", () => {
  it("records the call exactly, with sha256 hashes, an id and an ISO timestamp", () => {
    const trace = buildTrace(INPUT);
    expect(TraceSchema.parse(trace)).toEqual(trace);
    expect(trace).toMatchObject({
      purpose: "criterion",
      criterionIds: ["c2"],
      model: "ollama:qwen2.5:7b",
      parameters: { temperature: 0.1 },
      systemPrompt: INPUT.systemPrompt,
      userPrompt: INPUT.userPrompt,
      rawResponse: INPUT.rawResponse,
      usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150 },
      latencyMs: 812,
    });
    expect(trace.promptHash).toMatch(/^[0-9a-f]{64}$/);
    expect(trace.responseHash).toMatch(/^[0-9a-f]{64}$/);
    expect(new Date(trace.timestamp).toISOString()).toBe(trace.timestamp);
    expect(trace.error).toBeUndefined();
  });

  it("gives the same hashes for the same input and a fresh id each time", () => {
    const a = buildTrace(INPUT);
    const b = buildTrace({ ...INPUT, latencyMs: 5 });
    expect(b.promptHash).toBe(a.promptHash);
    expect(b.responseHash).toBe(a.responseHash);
    expect(b.id).not.toBe(a.id);
    // sha256 values computed outside the module (node -e with node:crypto)
    expect(a.responseHash).toBe("8a2e3c8563b7fdcf7087898e56aa2067618b49fd21693bc549fd3ec4f99ce30b");
    expect(a.promptHash).toBe("3d99d63ddfd844744f6c46c8ebf5345e6c288dd8532770a41ef3aae49f1966c5");
  });

  it("changes the hashes when a prompt or the response changes", () => {
    const a = buildTrace(INPUT);
    expect(buildTrace({ ...INPUT, userPrompt: "Rate the market." }).promptHash).not.toBe(
      a.promptHash,
    );
    expect(buildTrace({ ...INPUT, rawResponse: "{}" }).responseHash).not.toBe(a.responseHash);
    // the boundary between system and user prompt counts
    expect(promptHash("ab", "c")).not.toBe(promptHash("a", "bc"));
  });

  it("keeps an error and fills missing usage with zeros", () => {
    const trace = buildTrace({ ...INPUT, usage: undefined, error: "timeout after 60000 ms" });
    expect(trace.usage).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(trace.error).toBe("timeout after 60000 ms");
  });
});

describe("appendTraceJsonl", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("appends one JSON line per trace, creating the folders", async () => {
    dir = await mkdtemp(join(tmpdir(), "evalgate-trace-"));
    const path = join(dir, "runs", "2024", "traces.jsonl");
    const first = buildTrace(INPUT);
    const second = buildTrace({ ...INPUT, criterionIds: ["c3"], rawResponse: "line\nbreak" });
    await appendTraceJsonl(path, first);
    await appendTraceJsonl(path, second);
    const lines = (await readFile(path, "utf8")).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe("");
    expect(TraceSchema.parse(JSON.parse(lines[0] ?? ""))).toEqual(first);
    expect(TraceSchema.parse(JSON.parse(lines[1] ?? ""))).toEqual(second);
  });
});

describe("secrets in a trace's parameters", () => {
  it("are replaced by *** by name and by shape; other parameters are kept as they are", () => {
    const trace = buildTrace({
      ...INPUT,
      parameters: {
        temperature: 0.1,
        maxTokens: 512,
        apiKey: "abc",
        openAIApiKey: "def",
        headers: { Authorization: "Basic dXNlcjpwYXNz", "x-trace": "kept" },
        baseUrl: "https://user:hunter2@llm.example/v1",
        note: "called with sk-abcdefghijklmnop1234 today",
      },
      error: "refused for Bearer abcdefghijklmnop",
    });
    expect(trace.parameters).toEqual({
      temperature: 0.1,
      maxTokens: 512,
      apiKey: "***",
      openAIApiKey: "***",
      headers: { Authorization: "***", "x-trace": "kept" },
      baseUrl: "https://***@llm.example/v1",
      note: "called with *** today",
    });
    expect(trace.error).toBe("refused for ***");
  });
});
