/**
 * The ceiling on calls in flight per model server, end to end: evaluations through the engine
 * against the Ollama-protocol stand-in on 127.0.0.1, which records the most chat requests it had
 * open at once. Order of service is read from the order the server received requests in, while
 * it holds each one at its gate; nothing is timed.
 */
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it, vi } from "vitest";
import { INJECTION_GUARD_SYSTEM } from "../../prompts/evaluation/index.js";
import type { Catalog } from "../../src/criteria/model.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { type ChatModelOptions, createChatModel, withLane } from "../../src/llm/chatModel.js";
import {
  ModelAbortedError,
  ModelOptionsError,
  ModelUnavailableError,
} from "../../src/llm/errors.js";
import { invokeJudge } from "../../src/llm/invoke.js";
import { serverCallCounts } from "../../src/llm/serverState.js";
import { type OllamaChatRequest, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { catalogOf, scoreAnswer, titleIn } from "../engine/helpers.js";

const MODEL = "judge-model:test";
const CLEAN_GUARD = JSON.stringify({
  reasoning: "An ordinary project description.",
  instruction_bearing: false,
});

let server: OllamaServer | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
});

function systemOf(request: OllamaChatRequest): string {
  return request.messages.find((m) => m.role === "system")?.content ?? "";
}

function userOf(request: OllamaChatRequest): string {
  return request.messages.find((m) => m.role === "user")?.content ?? "";
}

/** Answers the injection guard's prompts as a guard and every criterion prompt with a score. */
function guardOrScore(request: OllamaChatRequest): string {
  if (systemOf(request) === INJECTION_GUARD_SYSTEM) return CLEAN_GUARD;
  const title = titleIn(userOf(request));
  if (title === undefined) throw new Error("a prompt that is neither a guard nor a criterion");
  return scoreAnswer(0.75, `The draft covers ${title.toLowerCase()} with figures.`);
}

/**
 * The stand-in, answering after a short pause so that requests overlap at the server (an
 * instant answer would end before the next request arrives, and nothing would be open at once).
 */
function start(options: Parameters<typeof startOllamaServer>[0] = {}) {
  return startOllamaServer({
    models: [MODEL],
    guard: "script", // this test answers the injection guard's prompts itself
    responder: guardOrScore,
    behaviour: { delayBeforeFirstByteMs: 5 },
    ...options,
  });
}

function catalogWith(count: number): Catalog {
  return catalogOf({
    id: `facets-${count}`,
    name: "Facets of a project plan",
    version: "1",
    criteria: Array.from({ length: count }, (_, i) => ({
      id: `f${i + 1}`,
      title: `Facet ${i + 1} of the plan`,
      description: `How clearly does the plan describe facet number ${i + 1}?`,
      weight: 1,
      method: { kind: "score" as const, scale: { min: 0, max: 1 } },
    })),
  });
}

function judge(url: string, options: ChatModelOptions = {}) {
  return createChatModel(`ollama:${MODEL}`, {
    baseUrl: url,
    env: {},
    maxRetries: 0,
    timeoutMs: 20_000,
    ...options,
  });
}

/** Turns of the event loop until `condition` holds (a count reached), at most `turns`. */
async function until(condition: () => boolean, turns = 200_000): Promise<void> {
  for (let turn = 0; turn < turns; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error("the condition never held");
}

const queuedAt = (url: string) => serverCallCounts(url)?.queued ?? 0;

describe("calls in flight to one server, across evaluations", () => {
  it("200 concurrent evaluations never have more than 4 requests open at the server, and all finish judged", async () => {
    server = await start();
    const model = judge(server.url);
    const catalog = catalogWith(3);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        evaluateContent({
          content: `Plan ${i + 1}: a community energy cooperative with milestones and a budget.`,
          catalog,
          model,
          mode: "per-criterion",
          // On for users by default (off in this suite's settings): its calls share the ceiling.
          injectionGuard: true,
        }),
      ),
    );

    expect(server.maxInFlight).toBeLessThanOrEqual(4);
    expect(server.maxInFlight).toBe(4);
    // One guard call and three criterion calls per evaluation, each answered.
    const requests = server.chatRequests();
    expect(requests).toHaveLength(800);
    expect(requests.filter((r) => systemOf(r) === INJECTION_GUARD_SYSTEM)).toHaveLength(200);
    for (const result of results) {
      expect(result.criteria.map((c) => [c.evaluated, c.judgeError])).toEqual([
        [true, undefined],
        [true, undefined],
        [true, undefined],
      ]);
      expect(result.overallScore).toBeCloseTo(0.75, 6);
      expect(result.warnings.filter((w) => /injection guard/.test(w))).toEqual([]);
    }
    expect(serverCallCounts(server.url)).toBeUndefined();
  }, 180_000);

  it("serves evaluations in turn: one with 50 queued criteria does not starve one that comes later with 2", async () => {
    server = await start({ behaviour: { hold: "before-response" } });
    const url = server.url;
    // A judge already bound to a lane (as CriteriaEngine keeps one): each evaluation's own wins.
    const model = withLane(judge(url, { maxInFlight: 1 }));
    // The turns counted are the criteria's: the guard's calls, which take turns too, would shift
    // every count (the guard's share of the ceiling is the 200-evaluation case above).
    const common = { model, mode: "per-criterion" as const, injectionGuard: false };
    const first = evaluateContent({
      ...common,
      content: "ALPHA plan: a regional seed bank with storage and outreach.",
      catalog: catalogWith(50),
      concurrency: 50,
    });
    await server.waitFor((s) => s.held === 1);
    await until(() => queuedAt(url) === 49);
    const second = evaluateContent({
      ...common,
      content: "BETA plan: a school garden with a teaching schedule.",
      catalog: catalogWith(2),
    });
    await until(() => queuedAt(url) === 51);

    for (let served = 1; served < 5; served++) {
      const before = server.chatRequests().length;
      server.release(1);
      await server.waitFor((s) => s.held === 1 && s.chatRequests().length === before + 1);
    }
    const order = server
      .chatRequests()
      .map((request) => (userOf(request).includes("BETA plan") ? "B" : "A"));
    // The first A held the slot when B arrived; from then on A and B take turns.
    expect(order).toEqual(["A", "A", "B", "A", "B"]);
    expect(server.maxInFlight).toBe(1);

    server.setBehaviour({});
    server.release();
    const [alpha, beta] = await Promise.all([first, second]);
    expect(alpha.criteria.every((c) => c.evaluated)).toBe(true);
    expect(beta.criteria.every((c) => c.evaluated)).toBe(true);
    expect(server.chatRequests()).toHaveLength(52);
  }, 120_000);

  it("sends retries through the same ceiling", async () => {
    // The first request of every prompt fails with a 503, so every call is retried once.
    const seen = new Set<string>();
    server = await start({
      behaviour: (_n, request) => {
        const prompt = userOf(request);
        if (seen.has(prompt)) return { delayBeforeFirstByteMs: 5 };
        seen.add(prompt);
        return { delayBeforeFirstByteMs: 5, status: 503, errorMessage: "loading model" };
      },
    });
    const model = judge(server.url, { maxInFlight: 2, maxRetries: 1, retryBaseDelayMs: 1 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        invokeJudge(model, [
          new SystemMessage("You judge plans."),
          new HumanMessage(`Criterion: Aims of plan ${i}`),
        ]),
      ),
    );
    expect(answers.map((answer) => answer.attempts.length)).toEqual(Array(12).fill(2));
    expect(server.chatRequests()).toHaveLength(24);
    expect(server.maxInFlight).toBe(2);
  });
});

describe("a call waiting for a slot", () => {
  const messages = [new SystemMessage("You judge plans."), new HumanMessage("Criterion: Aims")];

  it("leaves the queue when its caller cancels, and is never sent", async () => {
    server = await start({ behaviour: { hold: "before-response" } });
    const model = judge(server.url, { maxInFlight: 1 });
    const running = invokeJudge(model, messages);
    await server.waitFor((s) => s.held === 1);
    const controller = new AbortController();
    const waiting = invokeJudge(model, messages, { signal: controller.signal });
    const url = server.url;
    await until(() => queuedAt(url) === 1);
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(ModelAbortedError);
    expect(queuedAt(server.url)).toBe(0);
    server.release();
    await running;
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("gives up after maxQueueWaitMs with an error naming the ceiling, not retried", async () => {
    server = await start({ behaviour: { hold: "before-response" } });
    const model = judge(server.url, { maxInFlight: 1, maxQueueWaitMs: 50, maxRetries: 2 });
    const running = invokeJudge(model, messages);
    await server.waitFor((s) => s.held === 1);
    const error = await invokeJudge(model, messages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    const busy = error as ModelUnavailableError;
    expect(busy.reason).toBe("busy");
    expect(busy.transient).toBe(false);
    expect(busy.message).toContain(`ollama:${MODEL} at ${server.url} had no free call slot`);
    expect(busy.message).toContain("at most 1 calls are in flight to it at once");
    server.release();
    await running;
    expect(server.chatRequests()).toHaveLength(1);
  });
});

describe("the ceiling's setting", () => {
  /** The most requests the server had open while 12 evaluations of 4 criteria ran at once. */
  async function maxOpenWhileEvaluating(model: string | ReturnType<typeof judge>) {
    const catalog = catalogWith(4);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        evaluateContent({
          content: `Plan ${i}: a repair café with volunteers.`,
          catalog,
          model,
          concurrency: 8,
        }),
      ),
    );
    return server?.maxInFlight;
  }

  it("EVALGATE_MAX_IN_FLIGHT sets it for models built from a spec", async () => {
    server = await start();
    vi.stubEnv("EVALGATE_MAX_IN_FLIGHT", "2");
    vi.stubEnv("OLLAMA_BASE_URL", server.url);
    expect(await maxOpenWhileEvaluating(`ollama:${MODEL}`)).toBe(2);
  });

  it("the maxInFlight option sets it for one judge", async () => {
    server = await start();
    expect(await maxOpenWhileEvaluating(judge(server.url, { maxInFlight: 3 }))).toBe(3);
  });

  it("is 4 when nothing sets it", async () => {
    server = await start();
    expect(await maxOpenWhileEvaluating(judge(server.url))).toBe(4);
  });

  it.each(["0", "-1", "2.5", "lots", "257"])(
    "EVALGATE_MAX_IN_FLIGHT=%s is refused, naming the variable",
    (value) => {
      expect(() =>
        createChatModel(`ollama:${MODEL}`, { env: { EVALGATE_MAX_IN_FLIGHT: value } }),
      ).toThrow(ModelOptionsError);
      expect(() =>
        createChatModel(`ollama:${MODEL}`, { env: { EVALGATE_MAX_IN_FLIGHT: value } }),
      ).toThrow(/EVALGATE_MAX_IN_FLIGHT.*from 1 to 256/);
    },
  );

  it("a maxInFlight option outside 1–256, or a queue wait over a day, is refused", () => {
    expect(() => createChatModel(`ollama:${MODEL}`, { env: {}, maxInFlight: 0 })).toThrow(
      ModelOptionsError,
    );
    expect(() => createChatModel(`ollama:${MODEL}`, { env: {}, maxInFlight: 300 })).toThrow(
      ModelOptionsError,
    );
    expect(() =>
      createChatModel(`ollama:${MODEL}`, { env: {}, maxQueueWaitMs: 90_000_000 }),
    ).toThrow(/maxQueueWaitMs/);
  });
});
