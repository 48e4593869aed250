/** The real wiring: evaluateContent with an `ollama:` model against the Ollama-protocol server. */
import { afterEach, describe, expect, it } from "vitest";
import { EvaluationModelError } from "../../src/engine/errors.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { type ChatModelOptions, createChatModel } from "../../src/llm/chatModel.js";
import { ModelTimeoutError } from "../../src/llm/errors.js";
import { CLEAN_GUARD_ANSWER, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  BUDGET_CONTENT,
  BUDGET_TITLES,
  budgetCatalog,
  checkAnswer,
  ifbCatalog,
  scoreAnswer,
  titleIn,
} from "./helpers.js";

const MODEL = "qwen2.5:7b-instruct";

let server: OllamaServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function ollamaJudge(url: string, options: ChatModelOptions = {}) {
  return createChatModel(`ollama:${MODEL}`, {
    baseUrl: url,
    env: {},
    maxRetries: 0,
    timeoutMs: 2_000,
    ...options,
  });
}

/** The user message of a chat request. */
function userContent(body: { messages: { role: string; content: string }[] }): string {
  return body.messages.find((m) => m.role === "user")?.content ?? "";
}

describe("evaluateContent against an Ollama-protocol server", () => {
  it("sends each criterion prompt at temperature 0.1 and reads usage from the server's counts", async () => {
    const scores: Record<string, number> = {
      [BUDGET_TITLES.arithmetic]: 0.9,
      [BUDGET_TITLES.compliance]: 0.8,
      [BUDGET_TITLES.alignment]: 0.8,
      [BUDGET_TITLES.reasonableness]: 0.7,
      [BUDGET_TITLES.justification]: 0.6,
    };
    server = await startOllamaServer({
      models: [MODEL],
      responder: (request) => {
        const title = titleIn(userContent(request)) ?? "";
        return scoreAnswer(scores[title] ?? 0, `Judged ${title}.`);
      },
      behaviour: { promptEvalCount: 400, evalCount: 25 },
    });
    const catalog = await budgetCatalog();
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: ollamaJudge(server.url),
    });

    const requests = server.chatRequests();
    expect(requests).toHaveLength(5);
    for (const body of requests) {
      expect(body.model).toBe(MODEL);
      expect(body.options?.temperature).toBe(0.1);
      expect(body.messages.map((m) => m.role)).toEqual(["system", "user"]);
      const prompt = userContent(body);
      expect(prompt).toContain(BUDGET_CONTENT);
      const trace = result.traces.find((t) => t.userPrompt === prompt);
      expect(trace, "the trace holds the prompt the server received").toBeDefined();
      expect(trace?.systemPrompt).toBe(body.messages[0]?.content);
      expect(trace?.usage).toEqual({ inputTokens: 400, outputTokens: 25, totalTokens: 425 });
      expect(trace?.parameters).toMatchObject({ temperature: 0.1 });
      expect(trace?.model).toBe(`ollama:${MODEL}`);
    }
    const titles = requests.map((b) => titleIn(userContent(b))).sort();
    expect(titles).toEqual(Object.values(BUDGET_TITLES).sort());
    // The five criteria's counts, and the injection guard's call, which the stand-in counts in
    // words: its prompt's in, its answer's out.
    const words = (text: string) => text.split(/\s+/).filter((w) => w !== "").length;
    const [guard] = server.guardRequests();
    const guardIn = words(guard?.messages.map((m) => m.content).join("\n") ?? "");
    const guardOut = words(CLEAN_GUARD_ANSWER);
    expect(result.usage).toEqual({
      inputTokens: 2000 + guardIn,
      outputTokens: 125 + guardOut,
      totalTokens: 2125 + guardIn + guardOut,
    });
    // 0.25·0.9 + 0.2·0.8 + 0.2·0.8 + 0.2·0.7 + 0.15·0.6
    expect(result.overallScore).toBeCloseTo(0.775, 10);
    expect(result.model).toBe(`ollama:${MODEL}`);
    expect(result.passed).toBe(true);
  });

  it("batch mode sends one request with the TOON header", async () => {
    server = await startOllamaServer({
      models: [MODEL],
      responder: () =>
        [
          "results[3]{id,score,reasoning}:",
          '  c1,pass,"Hamburg office."',
          '  c2,4,"New method."',
          '  c3,4,"Large market."',
        ].join("\n"),
    });
    const catalog = await ifbCatalog();
    const result = await evaluateContent({
      content: "Nordlicht GmbH, Hamburg: sensor fusion for harbour cranes.",
      catalog,
      model: ollamaJudge(server.url),
      mode: "batch",
    });
    const requests = server.chatRequests();
    expect(requests).toHaveLength(1);
    expect(userContent(requests[0]!)).toContain("results[3]{id,score,quotes,reasoning}:");
    expect(requests[0]?.options?.temperature).toBe(0.1);
    expect(result.status).toBe("FUNDABLE");
    expect(result.nativeTotal).toBe(4);
  });

  it("a hanging server with a short timeout fails with ModelTimeoutError, never an empty answer", async () => {
    server = await startOllamaServer({ models: [MODEL], behaviour: { hang: true } });
    const catalog = await ifbCatalog();
    // The server never answers: only the client's timeout can end the calls. (The timeout leaves
    // the requests time to reach the server even on a loaded machine, so it can count them.)
    const error = await evaluateContent({
      content: "Nordlicht GmbH, Hamburg.",
      catalog,
      model: ollamaJudge(server.url, { timeoutMs: 2_000 }),
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EvaluationModelError);
    if (!(error instanceof EvaluationModelError)) return;
    expect(error.modelError).toBeInstanceOf(ModelTimeoutError);
    expect(error.cause).toBeInstanceOf(ModelTimeoutError);
    expect((error.modelError as ModelTimeoutError).timeoutMs).toBe(2_000);
    await server.waitFor((s) => s.clientDisconnects === 3);
    expect(server.chatRequests()).toHaveLength(3);
  });

  it("a server that answers some criteria and hangs on one: that one is a judge error", async () => {
    server = await startOllamaServer({
      models: [MODEL],
      responder: (request) =>
        titleIn(userContent(request)) === "Hamburg Base"
          ? checkAnswer("pass", "Hamburg office.")
          : scoreAnswer(4, "Good."),
      behaviour: (_n, request) =>
        titleIn(userContent(request)) === "Market" ? { hang: true } : {},
    });
    const catalog = await ifbCatalog();
    const result = await evaluateContent({
      content: "Nordlicht GmbH, Hamburg.",
      catalog,
      // Long enough for the two prompt answers even on a loaded machine.
      model: ollamaJudge(server.url, { timeoutMs: 2_000 }),
    });
    expect(result.notEvaluated).toEqual(["c3"]);
    expect(result.criteria.find((c) => c.id === "c3")?.judgeError).toMatch(
      /did not answer within 2000 ms/,
    );
    expect(result.scores).toEqual({ c1: 1, c2: 0.75 });
    expect(result.passed).toBe(false);
  });
});

describe("structured output", () => {
  it("sends each criterion's answer contract as Ollama's format (a JSON Schema), unless turned off", async () => {
    server = await startOllamaServer({
      models: [MODEL],
      responder: (request) => {
        const user = userContent(request);
        return user.includes('"result"')
          ? checkAnswer("pass", "Registered office in Hamburg.")
          : scoreAnswer(4, `Judged ${titleIn(user) ?? "it"}.`);
      },
    });
    const catalog = await ifbCatalog();
    const result = await evaluateContent({
      content: "Hafen Sensorik GmbH, Hamburg: a sensor network for quay walls.",
      catalog,
      model: ollamaJudge(server.url),
    });
    const formats = server.chatRequests().map((body) => body.format);
    expect(formats).toHaveLength(3);
    const byTitle = new Map(
      server
        .chatRequests()
        .map((body) => [titleIn(userContent(body)) ?? userContent(body), body.format]),
    );
    const check = [...byTitle.entries()].find(([, f]) => JSON.stringify(f).includes('"pass"'))?.[1];
    expect(check).toEqual({
      type: "object",
      properties: {
        reasoning: { type: "string", description: "the reasoning, with evidence, written first" },
        quotes: {
          type: "array",
          description: "exact passages copied from the content that support the verdict",
          items: { type: "string", maxLength: 300 },
          maxItems: 3,
        },
        result: { type: "string", enum: ["pass", "fail"] },
      },
      required: ["reasoning", "quotes", "result"],
    });
    const scores = formats.filter((f) => JSON.stringify(f).includes('"score"'));
    expect(scores).toHaveLength(2);
    for (const schema of scores) {
      expect(schema).toMatchObject({
        properties: { score: { type: "integer", minimum: 1, maximum: 5 } },
        required: ["reasoning", "quotes", "score", "hits", "misses"],
      });
      // reasoning comes first, so a constrained decoder writes it before the score
      expect(Object.keys((schema as { properties: object }).properties)[0]).toBe("reasoning");
    }
    const judging = result.traces.filter((t) => t.purpose !== "guard");
    expect(judging.every((t) => t.parameters.format !== undefined)).toBe(true);

    const before = server.chatRequests().length;
    await evaluateContent({
      content: "Hafen Sensorik GmbH, Hamburg.",
      catalog,
      model: ollamaJudge(server.url),
      structuredOutput: false,
    });
    expect(
      server
        .chatRequests()
        .slice(before)
        .every((body) => body.format === undefined),
    ).toBe(true);
  });
});
