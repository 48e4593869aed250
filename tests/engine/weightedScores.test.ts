/**
 * Probability-weighted scores through the real Ollama wiring: evaluateContent with an `ollama:`
 * model against the Ollama-protocol stand-in, which answers with token log-probabilities when a
 * request asks for them. Hand-computed: P(4)=0.6, P(5)=0.3, P(3)=0.1 on 1–5 → 4.2 → 0.8 as 0–1.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseCatalog } from "../../src/criteria/parse.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import type { Trace } from "../../src/scoring/result.js";
import {
  type OllamaChatRequest,
  type OllamaServer,
  type OllamaTokenLogprob,
  startOllamaServer,
} from "../doubles/index.js";

const MODEL = "grader:1b";

/** A funding catalog in the TOON criteria dialect: two 1–5 score criteria. */
function dialectCatalog(meta = "", values = "") {
  return parseCatalog(
    `meta{version,program${meta}}:
  "2.1","Harbour Fund"${values}
criteria[2,]{id,type,weight,title,prompt}:
  novelty,score,0.5,Novelty of the approach,"How new is the approach to crane safety?"
  reach,score,0.5,Reach of the results,"How many harbours could use the results?"
`,
    { format: "toon", source: "harbour.toon" },
  );
}

const CONTENT = "Kranwerk GmbH: acoustic fatigue sensing for harbour cranes, piloted in Bremen.";

/** Each criterion's answer, by a phrase of its prompt. */
function answerFor(request: OllamaChatRequest): string {
  const user = request.messages.find((m) => m.role === "user")?.content ?? "";
  const score = user.includes("How new is the approach") ? 4 : 2;
  return `{"reasoning": "Read the pilot description.", "score": ${score}, "hits": [], "misses": []}`;
}

/**
 * The answer's tokens: one token per piece of the JSON text, the score's value its own token
 * (" 4"), each other token certain; at the score, `alternatives` (token, probability).
 */
function tokensOf(answer: string, alternatives: Array<[string, number]>): OllamaTokenLogprob[] {
  const match = /("score":)( \d)/.exec(answer);
  if (match === null) throw new Error(`no score in ${answer}`);
  const scoreAt = match.index + (match[1] ?? "").length;
  const scoreToken = match[2] ?? "";
  const before = answer.slice(0, scoreAt);
  const after = answer.slice(scoreAt + scoreToken.length);
  const certain = (token: string): OllamaTokenLogprob => ({
    token,
    logprob: 0,
    top_logprobs: [{ token, logprob: 0 }],
  });
  const sampled = alternatives.find(([token]) => token === scoreToken)?.[1] ?? 1;
  return [
    ...(before.match(/.{1,6}/gs) ?? []).map(certain),
    {
      token: scoreToken,
      logprob: Math.log(sampled),
      top_logprobs: alternatives.map(([token, p]) => ({ token, logprob: Math.log(p) })),
    },
    ...(after.match(/.{1,6}/gs) ?? []).map(certain),
  ];
}

let server: OllamaServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(alternatives: (answer: string) => Array<[string, number]> | undefined) {
  server = await startOllamaServer({
    models: [MODEL],
    responder: answerFor,
    logprobs: (_request, answer) => {
      const given = alternatives(answer);
      return given === undefined ? undefined : tokensOf(answer, given);
    },
  });
  return createChatModel(`ollama:${MODEL}`, {
    baseUrl: server.url,
    env: {},
    maxRetries: 0,
    timeoutMs: 5_000,
  });
}

function criterionTrace(traces: readonly Trace[], id: string): Trace | undefined {
  return traces.find((t) => t.purpose === "criterion" && t.criterionIds.includes(id));
}

describe("probability-weighted scores on Ollama", () => {
  it("weights the score by the token probabilities: P(4)=.6, P(5)=.3, P(3)=.1 → 4.2 on 1–5", async () => {
    const model = await serve((answer) =>
      answer.includes('"score": 4')
        ? [
            [" 4", 0.6],
            [" 5", 0.3],
            [" 3", 0.1],
          ]
        : // 2 with 0.5, 1 with 0.25, 3 with 0.25 → 0.5·2 + 0.25·1 + 0.25·3 = 2.0
          [
            [" 2", 0.5],
            [" 1", 0.25],
            [" 3", 0.25],
          ],
    );
    const result = await evaluateContent({
      content: CONTENT,
      catalog: dialectCatalog(),
      model,
      weightedScores: true,
    });

    // Asked of the server: log-probabilities with alternatives, on every criterion call.
    const requests = server?.chatRequests() ?? [];
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect(request.logprobs).toBe(true);
      expect(request.top_logprobs).toBeGreaterThanOrEqual(3);
    }
    const novelty = result.criteria.find((c) => c.id === "novelty");
    expect(novelty?.scoreMethod).toBe("probability-weighted");
    expect(novelty?.scoreMethodReason).toBeUndefined();
    expect(novelty?.native).toBeCloseTo(4.2, 10);
    // (4.2 − 1) / 4 = 0.8
    expect(novelty?.score).toBeCloseTo(0.8, 10);
    const reach = result.criteria.find((c) => c.id === "reach");
    expect(reach?.scoreMethod).toBe("probability-weighted");
    expect(reach?.native).toBeCloseTo(2, 10);
    expect(reach?.score).toBeCloseTo(0.25, 10);
    // 0.5·0.8 + 0.5·0.25
    expect(result.overallScore).toBeCloseTo(0.525, 10);

    const trace = criterionTrace(result.traces, "novelty");
    expect(trace?.scoreWeighting?.scoreMethod).toBe("probability-weighted");
    if (trace?.scoreWeighting?.scoreMethod !== "probability-weighted") return;
    expect(trace.scoreWeighting.distribution["3"]).toBeCloseTo(0.1, 10);
    expect(trace.scoreWeighting.distribution["4"]).toBeCloseTo(0.6, 10);
    expect(trace.scoreWeighting.distribution["5"]).toBeCloseTo(0.3, 10);
    expect(trace.parameters).toMatchObject({ topLogprobs: requests[0]?.top_logprobs });
  });

  it("keeps the plain score, saying why, when the server sends no log-probabilities", async () => {
    const model = await serve(() => undefined);
    const result = await evaluateContent({
      content: CONTENT,
      catalog: dialectCatalog(),
      model,
      weightedScores: true,
    });
    expect(server?.chatRequests().every((r) => r.logprobs === true)).toBe(true);
    const novelty = result.criteria.find((c) => c.id === "novelty");
    expect(novelty?.native).toBe(4);
    expect(novelty?.score).toBeCloseTo(0.75, 10);
    expect(novelty?.scoreMethod).toBe("plain");
    expect(novelty?.scoreMethodReason).toMatch(/no token log-probabilities/);
    expect(criterionTrace(result.traces, "novelty")?.scoreWeighting).toEqual({
      scoreMethod: "plain",
      reason: novelty?.scoreMethodReason,
    });
  });

  it("treats a server's malformed log-probabilities as none: plain score, never a guessed weight", async () => {
    server = await startOllamaServer({
      models: [MODEL],
      responder: answerFor,
      // A log-probability that is not a number (NaN is sent as null) spoils the whole list.
      logprobs: (_request, answer) =>
        tokensOf(answer, [
          [" 4", 0.9],
          [" 5", 0.1],
        ]).map((token, index) => (index === 0 ? { ...token, logprob: Number.NaN } : token)),
    });
    const model = createChatModel(`ollama:${MODEL}`, {
      baseUrl: server.url,
      env: {},
      maxRetries: 0,
      timeoutMs: 5_000,
    });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: dialectCatalog(),
      model,
      weightedScores: true,
    });
    const novelty = result.criteria.find((c) => c.id === "novelty");
    expect(novelty?.evaluated).toBe(true);
    expect(novelty?.native).toBe(4);
    expect(novelty?.scoreMethod).toBe("plain");
    expect(novelty?.scoreMethodReason).toMatch(/no token log-probabilities/);
  });

  it("keeps the plain score when the scale's values carry too little of the probability", async () => {
    // " 4" 0.2 and " 5" 0.2 on the scale (0.4 < 0.5); " four" 0.6 is not a scale value.
    const model = await serve(() => [
      [" 4", 0.2],
      [" four", 0.6],
      [" 5", 0.2],
    ]);
    const result = await evaluateContent({
      content: CONTENT,
      catalog: dialectCatalog(),
      model,
      weightedScores: true,
    });
    const novelty = result.criteria.find((c) => c.id === "novelty");
    expect(novelty?.native).toBe(4);
    expect(novelty?.scoreMethod).toBe("plain");
    expect(novelty?.scoreMethodReason).toBe(
      "the scale's values carry 0.40 of the probability, under 0.5",
    );
  });

  it("is off by default: no log-probabilities asked, no score method on the result", async () => {
    const model = await serve(() => [[" 4", 1]]);
    const result = await evaluateContent({ content: CONTENT, catalog: dialectCatalog(), model });
    const requests = server?.chatRequests() ?? [];
    expect(requests).toHaveLength(2);
    for (const request of requests) {
      expect("logprobs" in request).toBe(false);
      expect("top_logprobs" in request).toBe(false);
    }
    for (const criterion of result.criteria) {
      expect(criterion.scoreMethod).toBeUndefined();
      expect(criterion.scoreMethodReason).toBeUndefined();
    }
    expect(result.criteria.find((c) => c.id === "novelty")?.native).toBe(4);
    expect(result.traces.every((t) => t.scoreWeighting === undefined)).toBe(true);
  });

  it("is turned on by the catalog's weighted_scores, and off again by the caller's option", async () => {
    const model = await serve((answer) =>
      answer.includes('"score": 4')
        ? [
            [" 4", 0.5],
            [" 5", 0.5],
          ]
        : [[" 2", 1]],
    );
    const catalog = dialectCatalog(",weighted_scores", ",true");
    expect(catalog.weightedScores).toBe(true);
    const on = await evaluateContent({ content: CONTENT, catalog, model });
    expect(on.criteria.find((c) => c.id === "novelty")?.native).toBeCloseTo(4.5, 10);
    const before = server?.chatRequests().length ?? 0;
    const off = await evaluateContent({ content: CONTENT, catalog, model, weightedScores: false });
    const offRequests = (server?.chatRequests() ?? []).slice(before);
    expect(offRequests.length).toBeGreaterThan(0);
    expect(offRequests.some((r) => "logprobs" in r)).toBe(false);
    expect(off.criteria.find((c) => c.id === "novelty")?.native).toBe(4);
  });

  it("says a batched answer's scores are plain: several scores share one answer", async () => {
    server = await startOllamaServer({
      models: [MODEL],
      responder: () =>
        [
          "results[2]{id,score,quotes,reasoning}:",
          '  novelty,4,"","New."',
          '  reach,2,"","Few."',
        ].join("\n"),
    });
    const model = createChatModel(`ollama:${MODEL}`, {
      baseUrl: server.url,
      env: {},
      maxRetries: 0,
      timeoutMs: 5_000,
    });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: dialectCatalog(),
      model,
      mode: "batch",
      weightedScores: true,
    });
    expect(server.chatRequests()).toHaveLength(1);
    for (const criterion of result.criteria) {
      expect(criterion.evaluated).toBe(true);
      expect(criterion.scoreMethod).toBe("plain");
      expect(criterion.scoreMethodReason).toMatch(/^batched answer/);
    }
  });
});
