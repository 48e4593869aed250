import { afterEach, describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { checkOllama } from "../../src/llm/checkOllama.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";

let server: OllamaServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("checkOllama", () => {
  it("reports a reachable server and a pulled model", async () => {
    server = await startOllamaServer({ models: ["qwen2.5:7b-instruct", "llama3.2:latest"] });
    const status = await checkOllama(`${server.url}/`, "qwen2.5:7b-instruct");
    expect(status).toEqual({
      baseUrl: server.url,
      reachable: true,
      modelPresent: true,
      models: ["qwen2.5:7b-instruct", "llama3.2:latest"],
    });
    expect((await checkOllama(server.url, "llama3.2")).modelPresent).toBe(true);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toContain(
      "GET /api/tags",
    );
  });

  it("reports a missing model with the `ollama pull` to run", async () => {
    server = await startOllamaServer({ models: ["llama3.2:3b"] });
    const status = await checkOllama(server.url, "qwen2.5:7b-instruct");
    expect(status.reachable).toBe(true);
    expect(status.modelPresent).toBe(false);
    expect(status.models).toEqual(["llama3.2:3b"]);
    expect(status.problem).toBe(
      `model "qwen2.5:7b-instruct" is not pulled at ${server.url}: run \`ollama pull qwen2.5:7b-instruct\``,
    );
  });

  it("reports a port with nothing listening as unreachable, with `ollama serve`", async () => {
    const closed = await startOllamaServer();
    const url = closed.url;
    await closed.close();
    const status = await checkOllama(url, "qwen2.5:7b-instruct");
    expect(status.reachable).toBe(false);
    expect(status.modelPresent).toBe(false);
    expect(status.models).toEqual([]);
    expect(status.problem).toMatch(new RegExp(`^Ollama not reachable at ${url} .*ollama serve`));
  });

  it("reports a server that is not Ollama as unreachable", async () => {
    server = await startOllamaServer();
    const status = await checkOllama(`${server.url}/not-ollama`, "qwen2.5:7b-instruct");
    expect(status.reachable).toBe(false);
    expect(status.problem).toContain("HTTP 404");
  });

  it("sends the URL's credentials as a Basic header and shows them as ***", async () => {
    const basic = `Basic ${Buffer.from("ops:t0p-secret").toString("base64")}`;
    server = await startOllamaServer({
      models: ["qwen2.5:7b-instruct"],
      requireAuthorization: basic,
    });
    const status = await checkOllama(
      `http://ops:t0p-secret@127.0.0.1:${server.port}`,
      "qwen2.5:7b-instruct",
    );
    expect(status).toEqual({
      baseUrl: `http://***@127.0.0.1:${server.port}`,
      reachable: true,
      modelPresent: true,
      models: ["qwen2.5:7b-instruct"],
    });
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([basic]);

    const refused = await checkOllama(
      `http://ops:wrong-pass@127.0.0.1:${server.port}`,
      "qwen2.5:7b-instruct",
    );
    expect(refused.reachable).toBe(false);
    expect(refused.problem).toContain("HTTP 401");
    expect(JSON.stringify(refused)).not.toContain("wrong-pass");
  });

  it("refuses a base URL that is not http(s), naming the setting, without its credentials", async () => {
    const refusal = await checkOllama("ftp://ops:t0p-secret@files.example", "qwen2.5:7b-instruct")
      .then(() => undefined)
      .catch((error: unknown) => error);
    expect(isEvalgateError(refusal, "MODEL_OPTIONS_INVALID")).toBe(true);
    const { message } = refusal as Error;
    expect(message).toContain("OLLAMA_BASE_URL: expected an http:// or https:// URL");
    expect(message).not.toContain("t0p-secret");
    const named = checkOllama("http://a:1,http://a:1", "m", { setting: "--model" });
    await expect(named).rejects.toThrow("--model: the list names http://a:1 twice");
  });
});

describe("checkOllama over a pool of servers", () => {
  it("is ready when one server of the list has the model, and names every server", async () => {
    const withModel = await startOllamaServer({ models: ["judge:7b"] });
    const without = await startOllamaServer({ models: ["other:1b"] });
    try {
      const status = await checkOllama(`${without.url},${withModel.url}#slots=2`, "judge:7b");
      expect(status).toMatchObject({ reachable: true, modelPresent: true });
      expect(status.problem).toBeUndefined();
      expect(status.baseUrl).toBe(`${without.url},${withModel.url}`);
      expect(status.models).toEqual(expect.arrayContaining(["judge:7b", "other:1b"]));
    } finally {
      await Promise.all([withModel.close(), without.close()]);
    }
  });

  it("says what is wrong with each server when none is ready", async () => {
    const without = await startOllamaServer({ models: ["other:1b"] });
    try {
      const status = await checkOllama(`${without.url},http://127.0.0.1:9`, "judge:7b", {
        timeoutMs: 2_000,
      });
      expect(status).toMatchObject({ reachable: true, modelPresent: false });
      expect(status.problem).toContain(`model "judge:7b" is not pulled at ${without.url}`);
      expect(status.problem).toContain("Ollama not reachable at http://127.0.0.1:9");
    } finally {
      await without.close();
    }
  });

  it("a list it cannot read is refused, its passwords redacted", async () => {
    const refusal = await checkOllama("http://u:Pa55word@a:11434,,x", "judge:7b")
      .then(() => undefined)
      .catch((error: unknown) => error);
    expect(isEvalgateError(refusal, "MODEL_OPTIONS_INVALID")).toBe(true);
    expect((refusal as Error).message).toContain("none empty");
    expect((refusal as Error).message).not.toContain("Pa55word");
  });
});
