/**
 * A pool routes around a bad server: one that never sends its headers, drips its answer and never
 * ends, answers garbage or answers nothing loses no criterion while another server is healthy —
 * the call moves to the healthy one and the bad one is taken out for a while. And a server is one
 * server whatever its URL's spelling: named six ways it has one ceiling on calls in flight (the
 * calls open at once are counted at the stand-in) and is listed once. Stand-ins for Ollama on
 * 127.0.0.1; counted, not clocked.
 */
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { type ChatModelOptions, createChatModel } from "../../src/llm/chatModel.js";
import { ModelOptionsError } from "../../src/llm/errors.js";
import { invokeJudge } from "../../src/llm/invoke.js";
import { serverKeyOf } from "../../src/llm/serverList.js";
import { outOfPool, resetServerHealth, serverCallCounts } from "../../src/llm/serverState.js";
import { type OllamaBehaviour, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { idsAsked, judgeReply, lastUser, TOOL_LIBRARY, toolLibraryCatalog } from "./poolJudge.js";

const MODEL = "pool-judge:7b";
const SPEC = `ollama:${MODEL}`;
const servers: OllamaServer[] = [];

afterEach(async () => {
  resetServerHealth();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(behaviour: OllamaBehaviour = {}) {
  const server = await startOllamaServer({
    models: [MODEL],
    responder: (request) => judgeReply(request.messages),
    behaviour,
  });
  servers.push(server);
  return server;
}

function judge(list: string, options: ChatModelOptions = {}) {
  return createChatModel(SPEC, { env: { OLLAMA_BASE_URL: list }, maxRetries: 0, ...options });
}

/** The criteria the server was asked about: a table's rows, or a single criterion's title. */
function criteriaAsked(server: OllamaServer): string[] {
  return server.chatRequests().flatMap((r) => {
    const prompt = lastUser(r.messages);
    const rows = idsAsked(prompt);
    if (rows.length > 0) return rows;
    const single = /Part (\d+) of the lending plan/.exec(prompt);
    return single === null ? [] : [`part${single[1]}`];
  });
}

describe.each<[string, OllamaBehaviour]>([
  ["never sends its headers", { hang: true }],
  ["drips its answer and never ends", { hold: "mid-stream" }],
  ["answers garbage", { answer: "Lorem ipsum dolor sit amet, no table and no score here." }],
  ["answers nothing", { answer: "" }],
  ["answers a page that is not an Ollama stream", { rawBody: "<html>Gateway</html>" }],
  ["cuts its stream", { reset: "mid-stream" }],
  [
    "streams an error line (its runner died)",
    { rawBody: `${JSON.stringify({ error: "llama runner process has terminated" })}\n` },
  ],
])("one server of two %s", (_fault, behaviour) => {
  it("every one of 10 criteria is judged by the healthy one, and the bad one is taken out", async () => {
    const bad = await start(behaviour);
    const good = await start();
    const model = judge(`${bad.url},${good.url}`, { timeoutMs: 1_500 });
    const result = await evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(10),
      model,
    });
    expect(result.criteria).toHaveLength(10);
    expect(result.criteria.filter((c) => !c.evaluated || c.judgeError !== undefined)).toEqual([]);
    expect(result.humanReviewRequired).toBe(false);
    // The healthy server answered every criterion, each once.
    const answered = criteriaAsked(good);
    expect(new Set(answered).size).toBe(10);
    expect(answered).toHaveLength(10);
    // The bad server is out: the calls moved away from it say why, and it is not tried again.
    expect(outOfPool(serverKeyOf(bad.url))).toBeDefined();
    const moved = result.traces.filter((t) => t.parameters.failedOver !== undefined);
    expect(moved.length).toBe(bad.chatRequests().length);
    const tried = bad.chatRequests().length;
    await evaluateContent({ content: TOOL_LIBRARY, catalog: toolLibraryCatalog(10), model });
    expect(bad.chatRequests()).toHaveLength(tried);
  }, 60_000);
});

describe.each<[string, OllamaBehaviour]>([
  ["never sends its headers", { hang: true }],
  ["answers garbage", { answer: "results[2]{id}:\n  nothing,here" }],
])("grouped (16 criteria, a table per group): one server of two %s", (_fault, behaviour) => {
  it("every group's table comes from the healthy server", async () => {
    const bad = await start(behaviour);
    const good = await start();
    const result = await evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(16),
      model: judge(`${bad.url},${good.url}`, { timeoutMs: 1_500 }),
    });
    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 8 });
    expect(result.criteria.filter((c) => !c.evaluated || c.judgeError !== undefined)).toEqual([]);
    const answered = criteriaAsked(good);
    expect(new Set(answered).size).toBe(16);
    expect(answered).toHaveLength(16);
  }, 60_000);
});

describe("one server, whatever its URL's spelling", () => {
  const spellings = (port: number) => [
    `http://127.0.0.1:${port}`,
    `http://localhost:${port}/`,
    `http://127.1:${port}`,
    `http://0x7f.0.0.1:${port}`,
    `http://2130706433:${port}`,
    `http://[::ffff:127.0.0.1]:${port}`,
  ];

  it("has one key", async () => {
    const keys = new Set(spellings(11434).map(serverKeyOf));
    expect([...keys]).toEqual(["http://loopback:11434"]);
    expect(serverKeyOf("http://gpu-box")).toBe("http://gpu-box:80");
    expect(serverKeyOf("http://gpu-box:80/v1/")).toBe("http://gpu-box:80/v1");
    expect(serverKeyOf("http://[::ffff:10.0.0.5]:8000")).toBe("http://10.0.0.5:8000");
    expect(serverKeyOf("http://gpu-box:11434")).not.toBe(serverKeyOf("http://gpu-box:11435"));
  });

  it("named six ways by six judges, it has one ceiling: at most 4 calls in flight", async () => {
    const server = await start({ hold: "before-response" });
    const messages = [new SystemMessage("You judge plans."), new HumanMessage("Criterion: Aims")];
    const calls = spellings(server.port).flatMap((url) => {
      const model = judge(url);
      return Array.from({ length: 4 }, () => invokeJudge(model, messages));
    });
    // 24 calls: 4 at the server, the other 20 queued behind the one ceiling of the one server.
    await server.waitFor((s) => s.held === 4 && serverCallCounts(server.url)?.queued === 20);
    server.setBehaviour({});
    server.release();
    await Promise.all(calls);
    expect(server.maxInFlight).toBe(4);
    expect(server.chatRequests()).toHaveLength(24);
  });

  it("listed twice in a pool under two spellings, it is refused", () => {
    const [first, second] = spellings(11434);
    expect(() => judge(`${first},${second}`)).toThrow(ModelOptionsError);
    expect(() => judge(`${first},${second}`)).toThrow(/names http:\/\/localhost:11434 twice/);
  });

  it("taken out under one spelling, it is out under every other", async () => {
    const bad = await start({ status: 503, errorMessage: "GPU lost" });
    const good = await start();
    const [one, other] = spellings(bad.port);
    const messages = [new HumanMessage("Criterion: Aims")];
    await invokeJudge(judge(`${one},${good.url}`), messages);
    expect(bad.chatRequests()).toHaveLength(1);
    await invokeJudge(judge(`${other},${good.url}`), messages);
    expect(bad.chatRequests()).toHaveLength(1);
  });
});
