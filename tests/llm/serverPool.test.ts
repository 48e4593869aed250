/**
 * A judge pool: one judge over several Ollama-protocol stand-in servers on 127.0.0.1. What is
 * proven is counted, never clocked: requests per server, requests open at once, slots used, how
 * often each group was answered, and which server answered each call (the traces say).
 */
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { EvaluationModelError } from "../../src/engine/errors.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { MemoryJudgeCacheStore } from "../../src/engine/judgeCache.js";
import { type ChatModelOptions, createChatModel } from "../../src/llm/chatModel.js";
import {
  ModelOptionsError,
  ModelRequestError,
  ModelSpecError,
  ModelUnavailableError,
} from "../../src/llm/errors.js";
import { invokeJudge } from "../../src/llm/invoke.js";
import { resetServerHealth } from "../../src/llm/serverState.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { idsAsked, judgeReply, lastUser, TOOL_LIBRARY, toolLibraryCatalog } from "./poolJudge.js";

const MODEL = "pool-judge:7b";
const SPEC = `ollama:${MODEL}`;
const servers: OllamaServer[] = [];

afterEach(async () => {
  resetServerHealth();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(behaviour: Parameters<typeof startOllamaServer>[0] = {}) {
  const server = await startOllamaServer({
    models: [MODEL],
    responder: (request) => judgeReply(request.messages),
    ...behaviour,
  });
  servers.push(server);
  return server;
}

function pool(list: string, options: ChatModelOptions = {}) {
  return createChatModel(SPEC, {
    env: { OLLAMA_BASE_URL: list },
    maxRetries: 0,
    timeoutMs: 20_000,
    ...options,
  });
}

/** The group each table request asked for, as its ids joined. */
function groupsAsked(server: OllamaServer): string[] {
  return server
    .chatRequests()
    .map((r) => idsAsked(lastUser(r.messages)).join(","))
    .filter((g) => g !== "");
}

const messages = [new SystemMessage("You judge plans."), new HumanMessage("Criterion: Aims")];

describe("one judge over several servers", () => {
  it("OLLAMA_BASE_URL lists two servers: groups spread over all eight slots", async () => {
    const [a, b] = [await start(), await start()];
    a.setBehaviour({ hold: "before-response" });
    b.setBehaviour({ hold: "before-response" });
    const evaluation = evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(16),
      model: pool(`${a.url},${b.url}`),
      injectionGuard: true,
    });
    await Promise.all([a.waitFor((s) => s.held === 4), b.waitFor((s) => s.held === 4)]);
    a.release();
    b.release();
    const result = await evaluation;

    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 8 });
    expect(a.maxInFlight).toBe(4);
    expect(b.maxInFlight).toBe(4);
    expect(a.chatRequests()).toHaveLength(4);
    expect(b.chatRequests()).toHaveLength(4);
    expect(result.criteria.every((c) => c.evaluated)).toBe(true);
    expect(result.humanReviewRequired).toBe(false);
    // Each trace names the server that answered it.
    const answeredBy = result.traces.map((t) => t.parameters.baseUrl);
    expect(answeredBy.filter((url) => url === a.url)).toHaveLength(4);
    expect(answeredBy.filter((url) => url === b.url)).toHaveLength(4);
  });

  it("takes each server's slots from #slots=N, and makes as many groups as all servers have", async () => {
    const [a, b] = [await start(), await start()];
    a.setBehaviour({ hold: "before-response" });
    b.setBehaviour({ hold: "before-response" });
    const evaluation = evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(12),
      model: pool(`${a.url}#slots=1, ${b.url}#slots=3`),
    });
    await Promise.all([a.waitFor((s) => s.held === 1), b.waitFor((s) => s.held === 3)]);
    a.release();
    b.release();
    const result = await evaluation;
    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 4 });
    expect(a.maxInFlight).toBe(1);
    expect(b.maxInFlight).toBe(3);
    expect(a.chatRequests().length + b.chatRequests().length).toBe(4);
  });

  it("the library takes a list, entries as URLs or { url, slots }", async () => {
    const [a, b] = [await start(), await start()];
    const judge = createChatModel(SPEC, {
      env: {},
      servers: [a.url, { url: b.url, slots: 2 }],
      maxRetries: 0,
    });
    expect(await judge.candidates[0]?.slots?.()).toBe(6);
    const result = await evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(12),
      model: judge,
    });
    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 6 });
    expect(a.chatRequests()).toHaveLength(4);
    expect(b.chatRequests()).toHaveLength(2);
  });

  it("evaluations started together share the pool's slots: about one call per slot in all", async () => {
    const [a, b] = [await start(), await start()];
    const judge = pool(`${a.url},${b.url}`);
    const together = await Promise.all(
      [1, 2].map(() =>
        evaluateContent({ content: TOOL_LIBRARY, catalog: toolLibraryCatalog(16), model: judge }),
      ),
    );
    expect(together.map((r) => r.judgeMode)).toEqual([
      { mode: "grouped", groups: 4 },
      { mode: "grouped", groups: 4 },
    ]);
    expect(a.chatRequests().length + b.chatRequests().length).toBe(8);
    // Alone again: every slot is its own.
    const alone = await evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(16),
      model: judge,
    });
    expect(alone.judgeMode).toEqual({ mode: "grouped", groups: 8 });
  });

  it("concurrency or parallelSlots given by the caller are used as given", async () => {
    const [a, b] = [await start(), await start()];
    const result = await evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(16),
      model: pool(`${a.url},${b.url}`),
      parallelSlots: 2,
    });
    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 2 });
  });

  it("answers kept by the judge cache for one server serve the pool (servers are not in the key)", async () => {
    const [one, a, b] = [await start(), await start(), await start()];
    const store = new MemoryJudgeCacheStore();
    const common = { content: TOOL_LIBRARY, catalog: toolLibraryCatalog(16), cache: { store } };
    await evaluateContent({ ...common, model: pool(one.url), parallelSlots: 8 });
    const again = await evaluateContent({
      ...common,
      model: pool(`${a.url},${b.url}`),
      parallelSlots: 8,
    });
    expect(again.cacheHits).toBe(16);
    expect(a.chatRequests().length + b.chatRequests().length).toBe(0);
  });

  it("a spec may name its servers after @", async () => {
    const [a, b] = [await start(), await start()];
    const judge = createChatModel(`${SPEC}@${a.url},${b.url}`, { env: {}, maxRetries: 0 });
    expect(judge.candidates[0]?.spec).toBe(SPEC);
    await Promise.all([invokeJudge(judge, messages), invokeJudge(judge, messages)]);
    expect(a.chatRequests()).toHaveLength(1);
    expect(b.chatRequests()).toHaveLength(1);
  });
});

describe("a server that fails", () => {
  it("is taken out and its work goes to the other: every criterion judged, once", async () => {
    const [down, up] = [
      await start({ behaviour: { status: 503, errorMessage: "GPU lost" } }),
      await start(),
    ];
    const judge = pool(`${down.url},${up.url}`);
    const result = await evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(16),
      model: judge,
      injectionGuard: true,
    });
    expect(result.criteria.every((c) => c.evaluated && c.judgeError === undefined)).toBe(true);
    expect(result.humanReviewRequired).toBe(false);
    // It was tried by at most the calls sent before its first answer came back (one per slot).
    const tried = down.chatRequests().length;
    expect(tried).toBeGreaterThanOrEqual(1);
    expect(tried).toBeLessThanOrEqual(4);
    // The other server answered each of the eight groups exactly once.
    const answered = groupsAsked(up);
    expect(answered).toHaveLength(8);
    expect(new Set(answered).size).toBe(8);
    const moved = result.traces.filter((t) => t.parameters.failedOver !== undefined);
    expect(moved).toHaveLength(tried);
    expect(String(moved[0]?.parameters.failedOver)).toContain(`${down.url}`);

    // Out for a while: the next evaluation does not try it at all.
    await evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(16),
      model: judge,
    });
    expect(down.chatRequests()).toHaveLength(tried);
  });

  it("dies mid-run: the calls it held go to the other server, and nothing is lost or judged twice", async () => {
    const [dying, survivor] = [await start(), await start()];
    dying.setBehaviour({ hold: "before-response" });
    survivor.setBehaviour({ hold: "before-response" });
    const evaluation = evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(16),
      model: pool(`${dying.url},${survivor.url}`),
    });
    await Promise.all([dying.waitFor((s) => s.held === 4), survivor.waitFor((s) => s.held === 4)]);
    const lost = groupsAsked(dying);
    await dying.close();
    survivor.setBehaviour({});
    survivor.release();
    const result = await evaluation;

    expect(result.criteria.every((c) => c.evaluated && c.judgeError === undefined)).toBe(true);
    const answered = groupsAsked(survivor);
    expect(answered).toHaveLength(8);
    expect(new Set(answered).size).toBe(8);
    expect(answered).toEqual(expect.arrayContaining(lost));
    expect(result.traces).toHaveLength(8);
    expect(result.traces.every((t) => t.parameters.baseUrl === survivor.url)).toBe(true);
  });

  it("every server down: the call fails with the typed error, each server tried once", async () => {
    const a = await start({ behaviour: { status: 502, errorMessage: "bad gateway" } });
    const b = await start({ behaviour: { status: 503, errorMessage: "overloaded" } });
    const error = await invokeJudge(pool(`${a.url},${b.url}`), messages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect((error as ModelUnavailableError).reason).toBe("server-error");
    expect(a.chatRequests()).toHaveLength(1);
    expect(b.chatRequests()).toHaveLength(1);
  });

  it("every server down in an evaluation: the evaluation fails as a model failure", async () => {
    const a = await start({ behaviour: { status: 500 } });
    const b = await start({ behaviour: { status: 500 } });
    const failure = await evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(8),
      model: pool(`${a.url},${b.url}`),
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EvaluationModelError);
  });

  it("a request the server refuses as such (HTTP 400) is not moved to another server", async () => {
    const a = await start({ behaviour: { status: 400, errorMessage: "bad request body" } });
    const b = await start();
    const error = await invokeJudge(pool(`${a.url},${b.url}`), messages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelRequestError);
    expect(a.chatRequests()).toHaveLength(1);
    expect(b.chatRequests()).toHaveLength(0);
  });

  it("a 429 moves the call on and takes the server out", async () => {
    const busy = await start({ behaviour: { status: 429, retryAfter: 120 } });
    const free = await start();
    const judge = pool(`${busy.url},${free.url}`);
    const first = await invokeJudge(judge, messages);
    expect(first.parameters.baseUrl).toBe(free.url);
    for (let i = 0; i < 3; i++) await invokeJudge(judge, messages);
    expect(busy.chatRequests()).toHaveLength(1);
    expect(free.chatRequests()).toHaveLength(4);
  });

  it("comes back after its time out (serverCooldownMs 0: at once) and is used again", async () => {
    const flaky = await start({ behaviour: [{ status: 503 }] });
    const steady = await start();
    const judge = pool(`${flaky.url},${steady.url}`, { serverCooldownMs: 0 });
    for (let i = 0; i < 4; i++) await invokeJudge(judge, messages);
    // One failed request, then answers again.
    expect(flaky.chatRequests().length).toBeGreaterThanOrEqual(2);
    expect(flaky.chatRequests().length + steady.chatRequests().length).toBe(5);
  });
});

describe("credentials in a server's URL", () => {
  it("are sent as Basic authorization to that server only, and shown nowhere", async () => {
    const secret = await start({
      requireAuthorization: `Basic ${Buffer.from("judge:Hunter2-pool").toString("base64")}`,
    });
    const open = await start();
    const host = secret.url.replace("http://", "");
    const result = await evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(16),
      model: pool(`http://judge:Hunter2-pool@${host},${open.url}`),
    });
    expect(result.criteria.every((c) => c.evaluated)).toBe(true);
    expect(secret.chatRequests().length).toBeGreaterThan(0);
    expect(open.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    const shown = JSON.stringify(result);
    expect(shown).not.toContain("Hunter2");
    expect(shown).toContain(`http://***@${host}`);
  });

  it("a failing server's message is redacted where the call was moved", async () => {
    const token = Buffer.from("judge:Hunter2-pool").toString("base64");
    const leaky = await start({ behaviour: { status: 503, echoHeaders: true } });
    const steady = await start();
    const host = leaky.url.replace("http://", "");
    const answer = await invokeJudge(
      pool(`http://judge:Hunter2-pool@${host},${steady.url}`),
      messages,
    );
    const moved = JSON.stringify(answer.parameters.failedOver);
    expect(leaky.requests[0]?.headers.authorization).toBe(`Basic ${token}`);
    expect(moved).toContain("***");
    expect(moved).not.toContain(token);
    expect(moved).not.toContain("Hunter2");
  });
});

describe("server lists that cannot be used", () => {
  it.each([
    ["an empty entry", "http://a:11434,,http://b:11434", /none empty/],
    ["a server listed twice", "http://a:11434,http://a:11434/", /names http:\/\/a:11434 twice/],
    ["no scheme", "http://a:11434,gpu-box:11434", /http:\/\/ or https:\/\//],
    ["slots of 0", "http://a:11434#slots=0", /slots=<1–256>/],
    ["another fragment", "http://a:11434#weight=2", /slots=<1–256>/],
    ["a query, which would not be sent", "http://a:11434/ollama?key=Pa55word", /no query/],
    [
      "33 servers",
      Array.from({ length: 33 }, (_, i) => `http://h${i}:11434`).join(","),
      /at most 32/,
    ],
  ])("%s in OLLAMA_BASE_URL is refused, naming the variable", (_name, list, why) => {
    const build = () => createChatModel(SPEC, { env: { OLLAMA_BASE_URL: list } });
    expect(build).toThrow(ModelOptionsError);
    expect(build).toThrow(/OLLAMA_BASE_URL/);
    expect(build).toThrow(why);
    expect(build).not.toThrow(/Pa55word/);
  });

  it("never repeats a password from a list it refuses", () => {
    const build = () =>
      createChatModel(SPEC, { env: { OLLAMA_BASE_URL: "http://u:Pa55word@a:11434,,x" } });
    expect(build).toThrow(ModelOptionsError);
    expect(() => build()).not.toThrow(/Pa55word/);
  });

  it("a spec that names servers for a provider without them is refused, redacted", () => {
    const build = () => createChatModel("openai:gpt-4o@http://u:Pa55word@proxy:8080/v1");
    expect(build).toThrow(ModelSpecError);
    expect(build).toThrow(/only ollama and openai-compatible/);
    expect(build).not.toThrow(/Pa55word/);
  });

  it("a servers entry that is neither a URL nor a server spec is refused, naming the entry", () => {
    expect(() =>
      createChatModel(SPEC, { env: {}, servers: ["http://a:11434", "gpu-box"] }),
    ).toThrow(/servers\.1/);
  });
});
