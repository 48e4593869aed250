/**
 * Model specs: `provider:model`, split on the first colon only (`ollama:qwen2.5:7b-instruct`). An
 * Ollama or OpenAI-compatible model may name its servers after an `@`
 * (`openai-compatible:qwen2.5-7b@http://gpu1:8000/v1,http://gpu2:8000/v1`).
 */
import { ModelSpecError, UnknownProviderError } from "./errors.js";

export const KNOWN_PROVIDERS = [
  "ollama",
  "openai",
  "anthropic",
  "google-genai",
  "groq",
  "mistralai",
  "openrouter",
  "llama-cpp",
  "openai-compatible",
] as const;
export type ProviderName = (typeof KNOWN_PROVIDERS)[number];

export const POOL_PROVIDERS = ["ollama", "openai-compatible"] as const;
export type PoolProvider = (typeof POOL_PROVIDERS)[number];

export interface ModelSpec {
  provider: ProviderName;
  model: string;
  servers?: string;
}

export const DEFAULT_OLLAMA_MODEL = "qwen2.5:7b-instruct";
export const DEFAULT_OLLAMA_BASE_URL = "http://127.0.0.1:11434";

/** Environment read for defaults; tests pass their own record instead of process.env. */
export type ModelEnv = Readonly<Record<string, string | undefined>>;

function isProviderName(value: string): value is ProviderName {
  return (KNOWN_PROVIDERS as readonly string[]).includes(value);
}

function splitServers(text: string): { model: string; servers: string | undefined } {
  const at = text.search(/@https?:\/\//i);
  if (at === -1) return { model: text, servers: undefined };
  return { model: text.slice(0, at).trim(), servers: text.slice(at + 1) };
}

export function parseModelSpec(spec: string): ModelSpec {
  const trimmed = spec.trim();
  const colon = trimmed.indexOf(":");
  if (colon === -1) {
    throw new ModelSpecError(
      spec,
      `expected provider:model (for example ollama:${DEFAULT_OLLAMA_MODEL})`,
    );
  }
  const provider = trimmed.slice(0, colon).trim().toLowerCase();
  const { model, servers } = splitServers(trimmed.slice(colon + 1).trim());
  if (!isProviderName(provider)) throw new UnknownProviderError(spec, provider, KNOWN_PROVIDERS);
  if (model === "") throw new ModelSpecError(spec, "the model name after the provider is empty");
  if (servers === undefined) return { provider, model };
  if (!(POOL_PROVIDERS as readonly string[]).includes(provider)) {
    throw new ModelSpecError(
      spec,
      `only ${POOL_PROVIDERS.join(" and ")} models name their servers after @`,
    );
  }
  return { provider, model, servers };
}

export function formatModelSpec(spec: ModelSpec): string {
  const servers = spec.servers === undefined ? "" : `@${spec.servers}`;
  return `${spec.provider}:${spec.model}${servers}`;
}

/** EVALGATE_MODEL as a spec: an Ollama model name, or a whole spec when it starts with a provider. */
export function defaultModelSpec(env: ModelEnv): string {
  const model = env.EVALGATE_MODEL?.trim();
  if (!model) return `ollama:${DEFAULT_OLLAMA_MODEL}`;
  const provider = model.slice(0, Math.max(0, model.indexOf(":"))).toLowerCase();
  return isProviderName(provider) ? model : `ollama:${model}`;
}

export function defaultOllamaBaseUrl(env: ModelEnv): string {
  const url = env.OLLAMA_BASE_URL?.trim();
  return (url ? url : DEFAULT_OLLAMA_BASE_URL).replace(/\/+$/, "");
}
