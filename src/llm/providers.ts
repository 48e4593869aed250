/**
 * Providers other than Ollama, imported from their LangChain package on first use so evalgate
 * depends on none; SDK retries are off (ours own retries).
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { isRecord } from "../untrusted/json.js";
import { ProviderUnavailableError } from "./errors.js";
import { loadOncePer } from "./modelCandidate.js";
import type { ModelSettings } from "./settings.js";
import type { ModelSpec, ProviderName } from "./spec.js";

type PackagedProvider = Exclude<ProviderName, "ollama" | "llama-cpp" | "openai-compatible">;

/** Per provider: its package, its chat model class, the variable of its API key (sent when set). */
export const PROVIDER_PACKAGES = Object.fromEntries(
  Object.entries({
    openai: ["@langchain/openai", "ChatOpenAI", "OPENAI_API_KEY"],
    anthropic: ["@langchain/anthropic", "ChatAnthropic", "ANTHROPIC_API_KEY"],
    "google-genai": ["@langchain/google-genai", "ChatGoogleGenerativeAI", "GOOGLE_API_KEY"],
    groq: ["@langchain/groq", "ChatGroq", "GROQ_API_KEY"],
    mistralai: ["@langchain/mistralai", "ChatMistralAI", "MISTRAL_API_KEY"],
    // Judge models named as OpenRouter ids: an OpenAI-compatible endpoint.
    openrouter: ["@langchain/openai", "ChatOpenAI", "OPENROUTER_API_KEY"],
  } satisfies Record<PackagedProvider, [string, string, string]>).map(
    ([provider, [packageName, className, apiKeyEnv]]) => [
      provider,
      { packageName, className, apiKeyEnv },
    ],
  ),
) as Readonly<
  Record<PackagedProvider, { packageName: string; className: string; apiKeyEnv: string }>
>;

type ChatModelConstructor = new (fields: Record<string, unknown>) => BaseChatModel;

const importPackage = loadOncePer(
  (name: string) => name,
  (name): Promise<unknown> => import(name),
);

/** A package's chat model class, imported once; ProviderUnavailableError naming `npm install`. */
export async function chatModelClass(
  provider: string,
  packageName: string,
  className: string,
  model: string,
): Promise<ChatModelConstructor> {
  const loaded = await importPackage(packageName).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const notInstalled = message.includes(packageName);
    throw new ProviderUnavailableError(
      packageName,
      notInstalled ? "the package is not installed" : `the package failed to load (${message})`,
      { provider },
      error,
    );
  });
  const found = isRecord(loaded) ? loaded[className] : undefined;
  if (typeof found !== "function") {
    throw new ProviderUnavailableError(packageName, `the package has no export ${className}`, {
      provider,
      model,
    });
  }
  return found as ChatModelConstructor;
}

export async function loadProviderChatModel(
  spec: ModelSpec & { provider: PackagedProvider },
  settings: ModelSettings,
): Promise<BaseChatModel> {
  const definition = PROVIDER_PACKAGES[spec.provider];
  const { packageName, className } = definition;
  const ChatModel = await chatModelClass(spec.provider, packageName, className, spec.model);
  const apiKey = settings.env[definition.apiKeyEnv];
  return new ChatModel({
    model: spec.model,
    temperature: settings.temperature,
    maxRetries: 0,
    ...(apiKey ? { apiKey } : {}),
    ...(spec.provider === "openrouter"
      ? { configuration: { baseURL: "https://openrouter.ai/api/v1" } }
      : {}),
  });
}
