/**
 * checkOllama: is the Ollama server up, and is the model pulled? Reads GET /api/tags and says what
 * to run when not (`ollama serve`, `ollama pull <model>`).
 */
import { z } from "zod";
import { redactCredentials, redactUrl } from "./redact.js";
import { normaliseBaseUrl } from "./spec.js";

const TagsSchema = z.object({
  models: z.array(z.looseObject({ name: z.string(), model: z.string().optional() })),
});

export interface OllamaStatus {
  /** The server, without credentials. */
  baseUrl: string;
  reachable: boolean;
  modelPresent: boolean;
  /** Names of the pulled models (empty when unreachable). */
  models: string[];
  /** What is wrong and what to run; undefined when all is well. */
  problem?: string;
}

export interface CheckOllamaOptions {
  /** Give up after this long (default 3000 ms). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Ollama resolves a name without a tag to `<name>:latest`. */
function hasModel(models: readonly string[], model: string): boolean {
  const wanted = model.includes(":") ? [model] : [model, `${model}:latest`];
  return models.some((name) => wanted.includes(name));
}

export async function checkOllama(
  baseUrl: string,
  model: string,
  options: CheckOllamaOptions = {},
): Promise<OllamaStatus> {
  const url = normaliseBaseUrl(baseUrl);
  const shown = redactUrl(url);
  const unreachable = (why: string): OllamaStatus => ({
    baseUrl: shown,
    reachable: false,
    modelPresent: false,
    models: [],
    problem: `Ollama not reachable at ${shown} (${redactCredentials(why)}): run \`ollama serve\``,
  });
  let body: unknown;
  try {
    const response = await (options.fetch ?? fetch)(`${url}/api/tags`, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 3_000),
    });
    if (!response.ok) return unreachable(`GET /api/tags answered HTTP ${response.status}`);
    body = await response.json();
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    return unreachable(cause instanceof Error ? cause.message : String(cause));
  }
  const tags = TagsSchema.safeParse(body);
  if (!tags.success) return unreachable("GET /api/tags did not answer an Ollama model list");
  const models = tags.data.models.map((entry) => entry.name);
  const modelPresent = hasModel(models, model);
  return {
    baseUrl: shown,
    reachable: true,
    modelPresent,
    models,
    ...(modelPresent
      ? {}
      : { problem: `model "${model}" is not pulled at ${shown}: run \`ollama pull ${model}\`` }),
  };
}
