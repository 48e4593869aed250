/**
 * checkOllama: is the server up and the model pulled (GET /api/tags, at most 4 MB)? Says what to
 * run when not. A pool is checked server by server, at once: ready when one is.
 */
import { z } from "zod";
import { redactSecretText } from "../redact.js";
import { readBoundedText } from "./ollamaFetch.js";
import { parseServerList, type ServerAddress } from "./serverList.js";

const MAX_TAGS_BYTES = 4 * 1024 * 1024;

const TagsSchema = z.object({
  models: z.array(z.looseObject({ name: z.string(), model: z.string().optional() })),
});

export interface OllamaStatus {
  baseUrl: string;
  reachable: boolean;
  modelPresent: boolean;
  models: string[];
  problem?: string;
  /** It answered 401 or 403: up, but the URL's credentials (or none) are refused. */
  accessDenied?: boolean;
}

export interface CheckOllamaOptions {
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** The setting the list came from, named when it is refused (default OLLAMA_BASE_URL). */
  setting?: string;
}

/** Ollama resolves a name without a tag to `<name>:latest`. */
function hasModel(models: readonly string[], model: string): boolean {
  const wanted = model.includes(":") ? [model] : [model, `${model}:latest`];
  return models.some((name) => wanted.includes(name));
}

/**
 * An unusable server list (an empty entry, a server named twice, no http(s) scheme, a fragment
 * other than `slots=N`) is refused with ModelOptionsError naming `setting`: it is the user's to
 * mend, not a server that is down.
 */
export async function checkOllama(
  baseUrl: string,
  model: string,
  options: CheckOllamaOptions = {},
): Promise<OllamaStatus> {
  const servers = parseServerList(baseUrl, options.setting ?? "OLLAMA_BASE_URL");
  const statuses = await Promise.all(
    servers.map(({ address }) => checkOneOllama(address, model, options)),
  );
  if (statuses.length === 1 && statuses[0] !== undefined) return statuses[0];
  // A pool: ready when a server is; otherwise every server's problem.
  const joined = statuses.map((s) => s.baseUrl).join(",");
  const models = [...new Set(statuses.flatMap((s) => s.models))];
  const reachable = statuses.some((s) => s.reachable);
  const modelPresent = statuses.some((s) => s.modelPresent);
  const pool = { baseUrl: joined, reachable, modelPresent, models };
  if (modelPresent) return pool;
  return { ...pool, problem: statuses.map((s) => s.problem ?? "").join("; ") };
}

async function checkOneOllama(
  address: ServerAddress,
  model: string,
  options: CheckOllamaOptions,
): Promise<OllamaStatus> {
  const { shown } = address;
  const unreachable = (why: string): OllamaStatus => ({
    baseUrl: shown,
    reachable: false,
    modelPresent: false,
    models: [],
    problem: `Ollama not reachable at ${shown} (${redactSecretText(why)}): run \`ollama serve\``,
  });
  let body: unknown;
  try {
    const { authorization } = address;
    const response = await (options.fetch ?? fetch)(`${address.url}/api/tags`, {
      signal: AbortSignal.timeout(options.timeoutMs ?? 3_000),
      ...(authorization ? { headers: { authorization: authorization.headerValue() } } : {}),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      const why = `GET /api/tags answered HTTP ${response.status}`;
      if (response.status !== 401 && response.status !== 403) return unreachable(why);
      return {
        ...unreachable(why),
        accessDenied: true,
        problem: `Ollama at ${shown} refused access (${why}): give the server's user and password in its URL (http://user:password@host:11434)`,
      };
    }
    body = JSON.parse(await readBoundedText(response, MAX_TAGS_BYTES));
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    return unreachable(cause instanceof Error ? cause.message.slice(0, 500) : String(cause));
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
