/**
 * Probability-weighted scores through the real ChatOpenAI wiring: evaluateContent with an
 * `openai-compatible:` judge (alone and as a pool member beside Ollama) against the
 * OpenAI-protocol stand-in, which answers `choices[0].logprobs.content` when a request asks.
 * Hand-computed: P(4)=0.6, P(5)=0.3, P(3)=0.1 on 1–5 → 0.6·4 + 0.3·5 + 0.1·3 = 4.2 → 0.8.
 */
import { afterEach, describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { resetServerHealth } from "../../src/llm/serverState.js";
import type { Trace } from "../../src/scoring/result.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  type OpenAiChatRequest,
  type OpenAiLogprobsResponder,
  type OpenAiServer,
  type OpenAiTokenLogprob,
  startOpenAiServer,
} from "../doubles/openaiServer.js";
import { catalogOf } from "../engine/helpers.js";

const MODEL = "mistralai/Ministral-8B-Instruct-2410";
const running: Array<OpenAiServer | OllamaServer> = [];

afterEach(async () => {
  resetServerHealth();
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** A beekeeping cooperative's proposal, judged on two 1–5 criteria. */
const CONTENT =
  "Imkerei Lindenhof eG: hive-weight telemetry for 40 apiaries in the Lüneburg Heath, open data.";
const catalog = catalogOf({
  id: "apiary-fund",
  name: "Apiary fund",
  version: "3",
  criteria: [
    {
      id: "telemetry",
      title: "Telemetry design",
      description: "How sound is the hive-weight telemetry design?",
      weight: 1,
      method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
    },
    {
      id: "openness",
      title: "Open data",
      description: "How open is the data the apiaries publish?",
      weight: 1,
      method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
    },
  ],
});

function userOf(request: { messages: Array<{ role: string; content: string }> }): string {
  return request.messages.find((m) => m.role === "user")?.content ?? "";
}

/** Telemetry answers 4, openness 2. */
function answerFor(request: { messages: Array<{ role: string; content: string }> }): string {
  const score = userOf(request).includes("hive-weight telemetry design") ? 4 : 2;
  return `{"reasoning": "The apiary plan names its scales.", "score": ${score}}`;
}

/**
 * The answer in tokens of up to five characters, the score's value its own token (" 4"), every
 * other token certain; at the score, the `alternatives` (token, probability).
 */
function tokensOf(answer: string, alternatives: Array<[string, number]>): OpenAiTokenLogprob[] {
  const match = /("score":)( \d)/.exec(answer);
  if (match === null) throw new Error(`no score in ${answer}`);
  const at = match.index + (match[1] ?? "").length;
  const score = match[2] ?? "";
  const certain = (token: string): OpenAiTokenLogprob => ({
    token,
    logprob: 0,
    top_logprobs: [{ token, logprob: 0 }],
  });
  const chunks = (text: string) => (text.match(/.{1,5}/gs) ?? []).map(certain);
  const sampled = alternatives.find(([token]) => token === score)?.[1] ?? 1;
  return [
    ...chunks(answer.slice(0, at)),
    {
      token: score,
      logprob: Math.log(sampled),
      top_logprobs: alternatives.map(([token, p]) => ({ token, logprob: Math.log(p) })),
    },
    ...chunks(answer.slice(at + score.length)),
  ];
}

/** The hand-computed distributions: telemetry 4.2, openness 0.5·2 + 0.5·1 = 1.5. */
const handComputed: OpenAiLogprobsResponder = (_request, answer) =>
  answer.includes('"score": 4')
    ? tokensOf(answer, [
        [" 4", 0.6],
        [" 5", 0.3],
        [" 3", 0.1],
      ])
    : tokensOf(answer, [
        [" 2", 0.5],
        [" 1", 0.5],
      ]);

async function openAi(logprobs?: OpenAiLogprobsResponder) {
  const server = await startOpenAiServer({
    models: [MODEL],
    responder: answerFor,
    ...(logprobs === undefined ? {} : { logprobs }),
  });
  running.push(server);
  return server;
}

function judgeAt(server: OpenAiServer) {
  return createChatModel(`openai-compatible:${MODEL}@${server.url}`, {
    env: {},
    maxRetries: 0,
    timeoutMs: 5_000,
  });
}

function criterionTrace(traces: readonly Trace[], id: string): Trace | undefined {
  return traces.find((t) => t.purpose === "criterion" && t.criterionIds.includes(id));
}

function asksLogprobs(request: OpenAiChatRequest): boolean {
  return "logprobs" in request || "top_logprobs" in request;
}

describe("probability-weighted scores on an OpenAI-compatible server", () => {
  it("asks with logprobs and top_logprobs, and weights P(4)=.6, P(5)=.3, P(3)=.1 to 4.2", async () => {
    const server = await openAi(handComputed);
    const result = await evaluateContent({
      content: CONTENT,
      catalog,
      model: judgeAt(server),
      weightedScores: true,
    });
    const requests = server.chatRequests();
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.logprobs).toBe(true);
      expect(request.top_logprobs).toBe(10);
      expect(request.stream).toBe(false);
    }
    const telemetry = result.criteria.find((c) => c.id === "telemetry");
    expect(telemetry?.scoreMethod).toBe("probability-weighted");
    expect(telemetry?.native).toBeCloseTo(4.2, 10);
    // (4.2 − 1) / 4
    expect(telemetry?.score).toBeCloseTo(0.8, 10);
    const openness = result.criteria.find((c) => c.id === "openness");
    expect(openness?.native).toBeCloseTo(1.5, 10);
    // (1.5 − 1) / 4
    expect(openness?.score).toBeCloseTo(0.125, 10);
    expect(result.overallScore).toBeCloseTo((0.8 + 0.125) / 2, 10);

    const trace = criterionTrace(result.traces, "telemetry");
    expect(trace?.parameters).toMatchObject({ topLogprobs: 10 });
    const weighting = trace?.scoreWeighting;
    expect(weighting?.scoreMethod).toBe("probability-weighted");
    if (weighting?.scoreMethod !== "probability-weighted") return;
    expect(weighting.distribution).toEqual({
      "3": expect.closeTo(0.1, 10),
      "4": expect.closeTo(0.6, 10),
      "5": expect.closeTo(0.3, 10),
    });
  });

  it("does not ask when weighting is off: the request has no logprobs field at all", async () => {
    const server = await openAi(handComputed);
    const result = await evaluateContent({ content: CONTENT, catalog, model: judgeAt(server) });
    const requests = server.chatRequests();
    expect(requests).toHaveLength(2);
    expect(requests.some(asksLogprobs)).toBe(false);
    expect(result.criteria.find((c) => c.id === "telemetry")?.native).toBe(4);
    expect(result.criteria.every((c) => c.scoreMethod === undefined)).toBe(true);
  });

  it("one judge asks only on the weighted evaluation's calls, before and after", async () => {
    const server = await openAi(handComputed);
    const judge = judgeAt(server);
    await evaluateContent({ content: CONTENT, catalog, model: judge });
    await evaluateContent({ content: CONTENT, catalog, model: judge, weightedScores: true });
    await evaluateContent({ content: CONTENT, catalog, model: judge });
    const asked = server.chatRequests().map(asksLogprobs);
    expect(asked).toEqual([false, false, true, true, false, false]);
  });

  it("keeps the plain score, saying why, when the server answers logprobs: null", async () => {
    const server = await openAi();
    const result = await evaluateContent({
      content: CONTENT,
      catalog,
      model: judgeAt(server),
      weightedScores: true,
    });
    expect(server.chatRequests().every((r) => r.logprobs === true)).toBe(true);
    const telemetry = result.criteria.find((c) => c.id === "telemetry");
    expect(telemetry?.evaluated).toBe(true);
    expect(telemetry?.native).toBe(4);
    expect(telemetry?.score).toBeCloseTo(0.75, 10);
    expect(telemetry?.scoreMethod).toBe("plain");
    expect(telemetry?.scoreMethodReason).toMatch(/no token log-probabilities/);
  });

  it("treats malformed log-probabilities as none: a string where a number belongs", async () => {
    const server = await openAi((request, answer) => {
      const tokens = handComputed(request, answer) ?? [];
      // A server bug: one logprob sent as text. The whole list is unusable, never guessed around.
      return tokens.map((token, index) =>
        index === 1 ? { ...token, logprob: "-0.1" as unknown as number } : token,
      );
    });
    const result = await evaluateContent({
      content: CONTENT,
      catalog,
      model: judgeAt(server),
      weightedScores: true,
    });
    const telemetry = result.criteria.find((c) => c.id === "telemetry");
    expect(telemetry?.native).toBe(4);
    expect(telemetry?.scoreMethod).toBe("plain");
    expect(telemetry?.scoreMethodReason).toMatch(/no token log-probabilities/);
  });

  it("weights an OpenAI-compatible pool member's answers beside an Ollama server's plain ones", async () => {
    const vllm = await openAi(handComputed);
    // The Ollama server is never given tokens: its answers keep the plain score, with the reason.
    const ollama = await startOllamaServer({ models: ["qwen2.5:3b"], responder: answerFor });
    running.push(ollama);
    const judge = createChatModel("ollama:qwen2.5:3b", {
      env: {},
      servers: [`openai-compatible:${MODEL}@${vllm.url}#slots=1`, `${ollama.url}#slots=1`],
      maxRetries: 0,
      timeoutMs: 5_000,
    });
    const result = await evaluateContent({
      content: CONTENT,
      catalog,
      model: judge,
      weightedScores: true,
    });
    const vllmCalls = vllm.chatRequests();
    expect(vllmCalls.length + ollama.chatRequests().length).toBe(2);
    expect(vllmCalls.length).toBeGreaterThan(0);
    expect(vllmCalls.every((r) => r.logprobs === true && r.top_logprobs === 10)).toBe(true);
    for (const criterion of result.criteria) {
      const trace = criterionTrace(result.traces, criterion.id);
      const byVllm = trace?.parameters.baseUrl === vllm.url;
      expect(criterion.scoreMethod).toBe(byVllm ? "probability-weighted" : "plain");
      const weighted = criterion.id === "telemetry" ? 4.2 : 1.5;
      const plain = criterion.id === "telemetry" ? 4 : 2;
      expect(criterion.native).toBeCloseTo(byVllm ? weighted : plain, 10);
    }
  });
});
