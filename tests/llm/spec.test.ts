import { describe, expect, it } from "vitest";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ModelOptionsError, ModelSpecError, UnknownProviderError } from "../../src/llm/errors.js";
import { formatModelSpec, KNOWN_PROVIDERS, parseModelSpec } from "../../src/llm/spec.js";

describe("parseModelSpec", () => {
  it("splits on the first colon only", () => {
    expect(parseModelSpec("ollama:qwen2.5:7b")).toEqual({
      provider: "ollama",
      model: "qwen2.5:7b",
    });
    expect(parseModelSpec("openrouter:openai/gpt-4.1-mini")).toEqual({
      provider: "openrouter",
      model: "openai/gpt-4.1-mini",
    });
    expect(parseModelSpec(" OpenAI:gpt-4o-mini ")).toEqual({
      provider: "openai",
      model: "gpt-4o-mini",
    });
  });

  it("rejects an unknown provider, listing the known ones", () => {
    const error = (() => {
      try {
        parseModelSpec("qwen2.5:7b");
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UnknownProviderError);
    const unknown = error as UnknownProviderError;
    expect(unknown.provider).toBe("qwen2.5");
    for (const provider of KNOWN_PROVIDERS) expect(unknown.message).toContain(provider);
    expect(unknown.message).toContain("ollama:<model>");
  });

  it("rejects a spec without provider or without model", () => {
    expect(() => parseModelSpec("llama3")).toThrow(ModelSpecError);
    expect(() => parseModelSpec("ollama:")).toThrow(/model name .* is empty/);
  });
});

describe("servers named in a spec", () => {
  it("splits an Ollama or OpenAI-compatible spec at the @ before http(s)://", () => {
    expect(parseModelSpec("openai-compatible:Qwen/Qwen2.5-7B@http://gpu1:8000/v1")).toEqual({
      provider: "openai-compatible",
      model: "Qwen/Qwen2.5-7B",
      servers: "http://gpu1:8000/v1",
    });
    expect(parseModelSpec("ollama:llama3.1:8b@https://a:11434,https://b:11434")).toEqual({
      provider: "ollama",
      model: "llama3.1:8b",
      servers: "https://a:11434,https://b:11434",
    });
    // An @ that does not start a URL is part of the model name.
    expect(parseModelSpec("ollama:team@v2")).toEqual({ provider: "ollama", model: "team@v2" });
  });

  it("keeps credentials out of the spec the judge reports, and out of a refusal", () => {
    const judge = createChatModel("openai-compatible:m@http://ops:S3cretPw@gpu1:8000/v1", {
      env: {},
    });
    expect(judge.candidates[0]?.spec).toBe("openai-compatible:m");
    expect(JSON.stringify(judge.candidates[0]?.parameters)).not.toContain("S3cretPw");
    const refused = (() => {
      try {
        parseModelSpec("groq:llama@http://ops:S3cretPw@proxy:8080");
      } catch (error) {
        return error as ModelSpecError;
      }
    })();
    expect(refused).toBeInstanceOf(ModelSpecError);
    expect(refused?.message).not.toContain("S3cretPw");
    expect(refused?.spec).not.toContain("S3cretPw");
  });

  it("formats a spec back with its servers, so a command passes them on", () => {
    const text = "openai-compatible:Qwen/Qwen2.5-7B@http://gpu1:8000/v1,http://gpu2:8000/v1";
    expect(formatModelSpec(parseModelSpec(text))).toBe(text);
    expect(formatModelSpec(parseModelSpec("ollama:qwen2.5:7b"))).toBe("ollama:qwen2.5:7b");
  });

  it("refuses a model name that is empty before the @", () => {
    expect(() => parseModelSpec("openai-compatible:@http://gpu1:8000/v1")).toThrow(
      /model name .* is empty/,
    );
  });
});

describe("createChatModel defaults", () => {
  it("uses ollama:qwen2.5:7b-instruct at 127.0.0.1:11434 with temperature 0.1 and 60 s", () => {
    const judge = createChatModel(undefined, { env: {} });
    const [primary] = judge.candidates;
    expect(primary?.spec).toBe("ollama:qwen2.5:7b-instruct");
    expect(primary?.model).toBe("qwen2.5:7b-instruct");
    expect(primary?.baseUrl).toBe("http://127.0.0.1:11434");
    expect(primary?.parameters).toMatchObject({ temperature: 0.1, timeoutMs: 60_000 });
    expect(judge.retry.maxRetries).toBe(2);
  });

  it("reads EVALGATE_MODEL and OLLAMA_BASE_URL from the env record", () => {
    const judge = createChatModel(undefined, {
      env: { EVALGATE_MODEL: "llama3.1:8b", OLLAMA_BASE_URL: "http://gpu-box:11434/" },
    });
    expect(judge.candidates[0]?.spec).toBe("ollama:llama3.1:8b");
    expect(judge.candidates[0]?.baseUrl).toBe("http://gpu-box:11434");
  });

  it("reads an EVALGATE_MODEL that starts with a provider as a whole spec", () => {
    const spec = (EVALGATE_MODEL: string) =>
      createChatModel(undefined, { env: { EVALGATE_MODEL } }).candidates[0]?.spec;
    expect(spec("ollama:qwen2.5:14b")).toBe("ollama:qwen2.5:14b");
    expect(spec("OpenAI:gpt-4o-mini")).toBe("openai:gpt-4o-mini");
    // Ollama names have a colon too: only a known provider first makes it a spec.
    expect(spec("mistral:7b")).toBe("ollama:mistral:7b");
    expect(spec("llama3.2")).toBe("ollama:llama3.2");
  });

  it("lets options override the env, and builds the fallback list in order", () => {
    const judge = createChatModel("ollama:qwen2.5:14b", {
      env: { EVALGATE_MODEL: "ignored", OLLAMA_BASE_URL: "http://ignored:1" },
      baseUrl: "http://127.0.0.1:9999",
      fallbackModels: ["ollama:qwen2.5:7b", "openai:gpt-4o-mini"],
    });
    expect(judge.candidates.map((candidate) => candidate.spec)).toEqual([
      "ollama:qwen2.5:14b",
      "ollama:qwen2.5:7b",
      "openai:gpt-4o-mini",
    ]);
    expect(judge.candidates[1]?.baseUrl).toBe("http://127.0.0.1:9999");
  });

  it("fails at construction on an unknown provider or a bad option", () => {
    expect(() => createChatModel("azure:gpt-4o", { env: {} })).toThrow(UnknownProviderError);
    expect(() => createChatModel(undefined, { env: {}, fallbackModels: ["nope:x"] })).toThrow(
      UnknownProviderError,
    );
    expect(() => createChatModel(undefined, { env: {}, timeoutMs: -5 })).toThrow(ModelOptionsError);
    expect(() => createChatModel(undefined, { env: {}, maxRetries: 1.5 })).toThrow(/maxRetries/);
  });

  it.each([
    ["timeoutMs", 2 ** 31],
    ["timeoutMs", 1.5],
    ["retryBaseDelayMs", 2 ** 31],
    ["retryMaxDelayMs", 2 ** 31],
    ["maxRetryAfterMs", 2 ** 31],
  ])("refuses %s %s, which no timer can wait, naming it", (option, value) => {
    expect(() => createChatModel(undefined, { env: {}, [option]: value })).toThrow(
      new RegExp(`createChatModel option "${option}"`),
    );
  });
});
