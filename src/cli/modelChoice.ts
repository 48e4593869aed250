/**
 * With no model named: Ollama when it has the default model, else the embedded model; one line says
 * which.
 */
import { checkOllama } from "../llm/checkOllama.js";
import { embeddedModelFile, formatSize, modelCacheDir } from "../llm/embedded/defaultModel.js";
import { parseServerList } from "../llm/serverList.js";
import {
  defaultModelSpec,
  defaultOllamaBaseUrl,
  formatModelSpec,
  type ModelEnv,
  type ProviderName,
  parseModelSpec,
} from "../llm/spec.js";
import type { TextOutput } from "./context.js";
import { createDownloadBar } from "./progress.js";

/** The judge a command will call: its spec and, for Ollama, the server. */
export interface ModelTarget {
  /** `provider:model`, as the engine receives it. */
  spec: string;
  provider: ProviderName;
  model: string;
  /** The Ollama server (OLLAMA_BASE_URL or the default), for `ollama:` models. */
  baseUrl: string | undefined;
  /** Where `baseUrl` was set (`--model`, EVALGATE_MODEL or OLLAMA_BASE_URL), named if refused. */
  serverSetting?: string;
  /** True when neither --model nor EVALGATE_MODEL named a model: the command chooses. */
  chosen?: boolean;
  /** The per-call deadline to use when the command is given none (a `llama-cpp:` model's). */
  defaultTimeoutMs?: number;
}

interface ChooseModelOptions {
  env: ModelEnv;
  stderr: TextOutput;
  signal?: AbortSignal | undefined;
}

/** Per-call deadline on the embedded runtime (any GGUF file), unless the command is given one. */
const EMBEDDED_TIMEOUT_MS = 300_000;

/** `flag`: where the spec was written (`--model`, `--judge`). */
export function resolveModelTarget(
  spec: string | undefined,
  env: ModelEnv,
  flag = "--model",
): ModelTarget {
  const parsed = parseModelSpec(spec ?? defaultModelSpec(env));
  const chosen = spec === undefined && !env.EVALGATE_MODEL?.trim();
  const where = spec === undefined ? "EVALGATE_MODEL" : flag;
  // A server list after @ that cannot be used is refused now, naming where it was written.
  if (parsed.servers !== undefined) parseServerList(parsed.servers, where);
  return {
    spec: formatModelSpec(parsed),
    provider: parsed.provider,
    model: parsed.model,
    baseUrl:
      parsed.provider === "ollama" ? (parsed.servers ?? defaultOllamaBaseUrl(env)) : undefined,
    serverSetting: parsed.servers === undefined ? "OLLAMA_BASE_URL" : where,
    ...(chosen ? { chosen } : {}),
    ...(parsed.provider === "llama-cpp" ? { defaultTimeoutMs: EMBEDDED_TIMEOUT_MS } : {}),
  };
}

/** Loads a local model file now (runtime and file), throwing its clear error if it cannot. */
export async function loadLocalModel(path: string, env: ModelEnv): Promise<void> {
  const [{ createLlamaCppChat }, { resolveModelSettings }] = await Promise.all([
    import("../llm/embedded/chatLlamaCpp.js"),
    import("../llm/settings.js"),
  ]);
  await createLlamaCppChat(path, resolveModelSettings({ env }));
}

/** The embedded model: downloaded (or found in the cache), verified and loaded. */
async function useEmbeddedModel(why: string, options: ChooseModelOptions): Promise<ModelTarget> {
  const file = embeddedModelFile(options.env);
  const size = file.sizeBytes === undefined ? "size unknown" : formatSize(file.sizeBytes);
  options.stderr.write(`${why}; using the embedded model ${file.name} (${size})\n`);
  const { ensureModelFile } = await import("../llm/embedded/modelDownload.js");
  const bar = createDownloadBar(options.stderr, file);
  const found = await ensureModelFile(file, {
    cacheDir: modelCacheDir(options.env),
    onDownloadStart: bar.start,
    onProgress: bar.update,
    onWait: bar.waiting,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  }).then(
    (result) => {
      bar.finish(true);
      return result;
    },
    (error: unknown) => {
      bar.finish(false);
      throw error;
    },
  );
  await loadLocalModel(found.path, options.env);
  const spec = `llama-cpp:${found.path}`;
  const target = resolveModelTarget(spec, options.env);
  return { ...target, spec, chosen: true };
}

/** checkOllama's options for a target: the setting its server list came from. */
export function checkSettingOf(target: ModelTarget): { setting?: string } {
  return target.serverSetting === undefined ? {} : { setting: target.serverSetting };
}

export async function chooseModel(
  target: ModelTarget,
  options: ChooseModelOptions,
): Promise<ModelTarget> {
  if (!target.chosen || target.baseUrl === undefined) return target;
  const status = await checkOllama(target.baseUrl, target.model, checkSettingOf(target));
  if (status.reachable && status.modelPresent) {
    options.stderr.write(`using Ollama at ${status.baseUrl} (model ${target.model})\n`);
    return target;
  }
  const why = status.reachable
    ? `Ollama at ${status.baseUrl} does not have the model ${target.model} (\`ollama pull ${target.model}\`)`
    : `Ollama is not running at ${status.baseUrl}`;
  return useEmbeddedModel(why, options);
}
