import { HumanMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ProviderUnavailableError } from "../../src/llm/errors.js";
import { invokeJudge } from "../../src/llm/invoke.js";
import { PROVIDER_PACKAGES } from "../../src/llm/providers.js";
import { judgeAnswer, ScriptedChatModel } from "../doubles/index.js";

// @langchain/anthropic is not a dependency of evalgate (see package.json): the provider must load
// it on demand and say how to install it. (@langchain/openai is installed for development, as a
// dependency of the openevals benchmark, so it cannot stand for a missing package here.)
describe("providers loaded on demand", () => {
  it("names the package to install when a provider package is missing", async () => {
    const judge = createChatModel("anthropic:claude-3-5-haiku-latest", { env: {}, maxRetries: 3 });
    const error = await invokeJudge(judge, [new HumanMessage("hi")]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    const unavailable = error as ProviderUnavailableError;
    expect(unavailable.packageName).toBe("@langchain/anthropic");
    expect(unavailable.message).toContain("npm install @langchain/anthropic");
    expect(unavailable.transient).toBe(false);
  });

  it("maps each provider to its LangChain package", () => {
    expect(PROVIDER_PACKAGES.anthropic.packageName).toBe("@langchain/anthropic");
    expect(PROVIDER_PACKAGES["google-genai"].packageName).toBe("@langchain/google-genai");
    expect(PROVIDER_PACKAGES.groq.packageName).toBe("@langchain/groq");
    expect(PROVIDER_PACKAGES.mistralai.packageName).toBe("@langchain/mistralai");
    expect(PROVIDER_PACKAGES.openrouter.packageName).toBe("@langchain/openai");
  });

  it("falls back past a provider that is not installed", async () => {
    const backup = new ScriptedChatModel({ model: "backup", script: [judgeAnswer({ score: 1 })] });
    const judge = createChatModel("anthropic:claude-3-5-haiku-latest", {
      env: {},
      fallbackModels: [backup],
    });
    const answer = await invokeJudge(judge, [new HumanMessage("hi")]);
    expect(answer.model).toBe("backup");
    expect(answer.attempts.map((attempt) => attempt.spec)).toEqual([
      "anthropic:claude-3-5-haiku-latest",
      "scripted:backup",
    ]);
    expect(answer.attempts[0]?.error).toBeInstanceOf(ProviderUnavailableError);
  });
});
