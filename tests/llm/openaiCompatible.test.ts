/**
 * OpenAI-compatible model servers (vLLM, llama.cpp server, LM Studio) through the real ChatOpenAI
 * wiring, against the OpenAI-protocol stand-in on 127.0.0.1: what is sent (and what of the OpenAI
 * environment is not), the slots a llama.cpp server reports, a pool mixing them with Ollama, and
 * what a user sees when @langchain/openai is not installed.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { afterEach, describe, expect, it, vi } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ModelSpecError, ModelUnavailableError } from "../../src/llm/errors.js";
import { invokeJudge } from "../../src/llm/invoke.js";
import { resetServerHealth } from "../../src/llm/serverState.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { type OpenAiServer, startOpenAiServer } from "../doubles/openaiServer.js";
import { judgeReply, TOOL_LIBRARY, toolLibraryCatalog } from "./poolJudge.js";

const MODEL = "Qwen/Qwen2.5-7B-Instruct";
const running: Array<OpenAiServer | OllamaServer> = [];

afterEach(async () => {
  vi.unstubAllEnvs();
  resetServerHealth();
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function openAi(options: Parameters<typeof startOpenAiServer>[0] = {}) {
  const server = await startOpenAiServer({
    models: [MODEL],
    responder: (request) => judgeReply(request.messages),
    ...options,
  });
  running.push(server);
  return server;
}

const messages = [new SystemMessage("You judge plans."), new HumanMessage("Criterion: Aims")];

describe("an OpenAI-compatible server", () => {
  it("is called with the model, the prompt, temperature and seed — and its own key, never OpenAI's", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-real-openai-key-0123456789abcdef");
    vi.stubEnv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1");
    vi.stubEnv("OPENAI_ORG_ID", "org-should-not-be-sent");
    const server = await openAi();
    const judge = createChatModel(`openai-compatible:${MODEL}@${server.url}`, {
      env: { OPENAI_COMPATIBLE_API_KEY: "vllm-local-key-42" },
      maxRetries: 0,
    });
    const answer = await invokeJudge(judge, messages);

    const [request] = server.chatRequests();
    expect(request).toMatchObject({
      model: MODEL,
      temperature: 0.1,
      seed: 42,
      messages: [
        { role: "system", content: "You judge plans." },
        { role: "user", content: "Criterion: Aims" },
      ],
    });
    expect(request).not.toHaveProperty("response_format");
    const chat = server.requests.find((r) => r.path === "/v1/chat/completions");
    expect(chat?.headers.authorization).toBe("Bearer vllm-local-key-42");
    expect(chat?.headers["openai-organization"]).toBeUndefined();
    expect(answer.text).toContain('"score": 7');
    expect(answer.usage.outputTokens).toBeGreaterThan(0);
    expect(answer.spec).toBe(`openai-compatible:${MODEL}`);
    expect(answer.parameters.baseUrl).toBe(server.url);
    expect(JSON.stringify(answer)).not.toContain("vllm-local-key-42");
  });

  it("without a key of its own, sends none of OpenAI's", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-real-openai-key-0123456789abcdef");
    const server = await openAi();
    await invokeJudge(
      createChatModel(`openai-compatible:${MODEL}@${server.url}`, { env: {} }),
      messages,
    );
    const auth = server.requests.map((r) => r.headers.authorization ?? "");
    expect(auth.join(" ")).not.toContain("sk-real-openai-key");
  });

  it("sends the URL's credentials as Basic authorization, and shows them as ***", async () => {
    const server = await openAi();
    const host = server.url.replace("http://", "");
    const judge = createChatModel(`openai-compatible:${MODEL}@http://ops:Gr4nary-9@${host}`, {
      env: {},
    });
    const answer = await invokeJudge(judge, messages);
    const basic = `Basic ${Buffer.from("ops:Gr4nary-9").toString("base64")}`;
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([basic, basic]);
    expect(answer.parameters.baseUrl).toBe(`http://***@${host}`);
    expect(JSON.stringify(answer)).not.toContain("Gr4nary");
  });

  it("takes its slots from llama.cpp's GET /props, and groups that many", async () => {
    const server = await openAi({ totalSlots: 3, behaviour: { hold: true } });
    const judge = createChatModel(`openai-compatible:${MODEL}@${server.url}`, { env: {} });
    expect(await judge.candidates[0]?.slots?.()).toBe(3);
    const evaluation = evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(9),
      model: judge,
    });
    await server.waitFor((s) => s.held === 3);
    server.setBehaviour({});
    server.release();
    const result = await evaluation;
    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 3 });
    expect(server.maxInFlight).toBe(3);
    expect(result.criteria.every((c) => c.evaluated)).toBe(true);
  });

  it("a server that says nothing of its slots (vLLM) takes maxInFlight; #slots=N wins over both", async () => {
    const vllm = await openAi();
    const llama = await openAi({ totalSlots: 8 });
    const said = createChatModel(`openai-compatible:${MODEL}@${vllm.url}`, {
      env: {},
      maxInFlight: 2,
    });
    expect(await said.candidates[0]?.slots?.()).toBe(2);
    const configured = createChatModel(`openai-compatible:${MODEL}@${llama.url}#slots=5`, {
      env: {},
    });
    expect(await configured.candidates[0]?.slots?.()).toBe(5);
  });

  it("needs its server: no default, a clear error naming how to give it", () => {
    const build = () => createChatModel(`openai-compatible:${MODEL}`, { env: {} });
    expect(build).toThrow(ModelSpecError);
    expect(build).toThrow(/openai-compatible:<model>@http:\/\/host:8000\/v1/);
  });

  it("takes its server from the baseUrl option too", async () => {
    const server = await openAi();
    const judge = createChatModel(`openai-compatible:${MODEL}`, { env: {}, baseUrl: server.url });
    await invokeJudge(judge, messages);
    expect(server.chatRequests()).toHaveLength(1);
  });

  it("moves a call from a failing server to the next, and redacts the key in what it reports", async () => {
    const failing = await openAi({
      // The key echoed bare, with nothing before it that names it as a key.
      behaviour: { status: 500, errorMessage: "upstream refused vllm-local-key-42 today" },
    });
    const healthy = await openAi();
    const judge = createChatModel(`openai-compatible:${MODEL}@${failing.url},${healthy.url}`, {
      env: { OPENAI_COMPATIBLE_API_KEY: "vllm-local-key-42" },
      maxRetries: 0,
    });
    const answer = await invokeJudge(judge, messages);
    expect(answer.parameters.baseUrl).toBe(healthy.url);
    const moved = JSON.stringify(answer.parameters.failedOver);
    expect(moved).toContain(failing.url);
    expect(moved).toContain("upstream refused *** today");
    expect(moved).not.toContain("vllm-local-key-42");
  });

  it("a server without the model says so in one line of ours, without the client's links", async () => {
    const server = await openAi({ models: ["another-model"] });
    const judge = createChatModel(`openai-compatible:${MODEL}@${server.url}`, {
      env: {},
      maxRetries: 0,
    });
    const error = await invokeJudge(judge, messages).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelUnavailableError);
    expect((error as ModelUnavailableError).reason).toBe("model-not-found");
    expect((error as Error).message).toBe(
      `openai-compatible:${MODEL} at ${server.url} does not have this model: 404 The model \`${MODEL}\` does not exist.`,
    );
  });

  it("every OpenAI-compatible server down: a typed unavailable error", async () => {
    const a = await openAi({ behaviour: { status: 503 } });
    const judge = createChatModel(`openai-compatible:${MODEL}@${a.url}`, {
      env: {},
      maxRetries: 0,
    });
    await expect(invokeJudge(judge, messages)).rejects.toBeInstanceOf(ModelUnavailableError);
  });
});

describe("a pool of Ollama and OpenAI-compatible servers", () => {
  it("spreads one evaluation over both kinds", async () => {
    const vllm = await openAi({ behaviour: { hold: true } });
    const ollama = await startOllamaServer({
      models: ["qwen2.5:7b-instruct"],
      responder: (request) => judgeReply(request.messages),
      behaviour: { hold: "before-response" },
    });
    running.push(ollama);
    const judge = createChatModel("ollama:qwen2.5:7b-instruct", {
      env: {},
      servers: [ollama.url, `openai-compatible:${MODEL}@${vllm.url}#slots=4`],
      maxRetries: 0,
    });
    const evaluation = evaluateContent({
      content: TOOL_LIBRARY,
      catalog: toolLibraryCatalog(16),
      model: judge,
    });
    await Promise.all([ollama.waitFor((s) => s.held === 4), vllm.waitFor((s) => s.held === 4)]);
    ollama.release();
    vllm.setBehaviour({});
    vllm.release();
    const result = await evaluation;
    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 8 });
    expect(vllm.chatRequests().every((r) => r.model === MODEL)).toBe(true);
    expect(ollama.chatRequests().every((r) => r.model === "qwen2.5:7b-instruct")).toBe(true);
    expect(result.criteria.every((c) => c.evaluated)).toBe(true);
  });
});

describe("without @langchain/openai installed", () => {
  it("an OpenAI-compatible judge fails with an error naming npm install @langchain/openai", () => {
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), "evalgate-no-openai-"));
    try {
      // The compiled package beside a node_modules that has everything but @langchain/openai.
      cpSync(join(root, "dist"), join(dir, "dist"), { recursive: true });
      cpSync(join(root, "package.json"), join(dir, "package.json"));
      const modules = join(root, "node_modules");
      mkdirSync(join(dir, "node_modules", "@langchain"), { recursive: true });
      for (const name of readdirSync(modules)) {
        if (name !== "@langchain")
          symlinkSync(join(modules, name), join(dir, "node_modules", name));
      }
      for (const name of readdirSync(join(modules, "@langchain"))) {
        if (name === "openai") continue;
        symlinkSync(
          join(modules, "@langchain", name),
          join(dir, "node_modules", "@langchain", name),
        );
      }
      const script = [
        'const llm = await import("./dist/src/llm/chatModel.js");',
        'const { invokeJudge } = await import("./dist/src/llm/invoke.js");',
        'const judge = llm.createChatModel("openai-compatible:m@http://127.0.0.1:9/v1", { env: {}, maxRetries: 0 });',
        'const error = await invokeJudge(judge, [["human", "hi"]]).catch((e) => e);',
        "console.log(JSON.stringify({ code: error.code, message: error.message }));",
      ].join("\n");
      const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
        cwd: dir,
        encoding: "utf8",
      });
      const seen = JSON.parse(out.trim()) as { code: string; message: string };
      expect(seen.code).toBe("PROVIDER_UNAVAILABLE");
      expect(seen.message).toContain("npm install @langchain/openai");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
