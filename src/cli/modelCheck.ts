/**
 * The judge model checked before a command runs, and a model failing during the run explained the
 * same way.
 */
import { type EvaluationModelError, isEvaluationModelError } from "../engine/errors.js";
import { checkOllama } from "../llm/checkOllama.js";
import { embeddedModelFile, formatSize, modelCacheDir } from "../llm/embedded/defaultModel.js";
import { isModelUnavailableError, type ModelCallError } from "../llm/errors.js";
import { parseServerList } from "../llm/serverList.js";
import {
  defaultModelSpec,
  defaultOllamaBaseUrl,
  formatModelSpec,
  type ModelEnv,
  type ProviderName,
  parseModelSpec,
} from "../llm/spec.js";
import { redactSecretText } from "../redact.js";
import type { CliContext, TextOutput } from "./context.js";
import { ModelNotReadyError } from "./errors.js";
import { createDownloadBar } from "./progress.js";

function unreachableMessage(baseUrl: string, why: string | undefined): string {
  const detail = why === undefined || why === "" ? "" : ` (${why})`;
  return (
    `Ollama is not reachable at ${baseUrl}${detail}: start it with \`ollama serve\`, ` +
    "or set OLLAMA_BASE_URL to the address of a running Ollama server"
  );
}

/** Which model the command checks, and how its user names another (evaluate's judge by default). */
export interface ModelRole {
  /** "model", "candidate model", "judge model". */
  what: string;
  /** What to do instead of pulling it, ending the message. */
  instead: string;
}

const JUDGE_ROLE: ModelRole = {
  what: "model",
  instead: "set EVALGATE_MODEL (or --model ollama:<name>) to a pulled model",
};

function notPulledMessage(
  model: string,
  baseUrl: string,
  pulled: readonly string[] | undefined,
  role: ModelRole = JUDGE_ROLE,
) {
  const known =
    pulled === undefined
      ? ""
      : pulled.length === 0
        ? " (no model is pulled there yet)"
        : ` (pulled there: ${pulled.join(", ")})`;
  return (
    `${role.what} "${model}" is not pulled on the Ollama server at ${baseUrl}${known}: ` +
    `run \`ollama pull ${model}\`, or ${role.instead}`
  );
}

/** The reason checkOllama gives in parentheses after the URL (the network error), if any. */
function reasonOf(problem: string | undefined, baseUrl: string): string | undefined {
  if (problem === undefined) return undefined;
  const after = problem.indexOf(`${baseUrl} (`);
  if (after === -1) return undefined;
  const start = after + baseUrl.length + 2;
  const end = problem.lastIndexOf(")");
  return end > start ? problem.slice(start, end) : undefined;
}

/**
 * The model a command will call, checked before anything runs: a model nobody named is chosen, a
 * `llama-cpp:` file loaded, an `ollama:` server asked for the model. Others fail during the run.
 */
export async function readyModel(
  model: string | undefined | ModelTarget,
  context: Pick<CliContext, "env" | "stderr" | "signal">,
  role?: ModelRole,
): Promise<ModelTarget> {
  const target = typeof model === "object" ? model : resolveModelTarget(model, context.env);
  if (target.chosen === true) return chooseModel(target, context);
  if (target.provider === "llama-cpp") await loadLocalModel(target.model, context.env);
  else await checkOllamaTarget(target, role);
  return target;
}

async function checkOllamaTarget(target: ModelTarget, role: ModelRole | undefined) {
  if (target.provider !== "ollama" || target.baseUrl === undefined) return;
  const status = await checkOllama(target.baseUrl, target.model, checkSettingOf(target));
  // A pool: what is wrong with each of its servers.
  if (!status.modelPresent && status.baseUrl.includes(",")) {
    throw new ModelNotReadyError(
      status.reachable ? "model-not-pulled" : "ollama-unreachable",
      target,
      `no server of ${status.baseUrl} is ready for ${(role ?? JUDGE_ROLE).what} "${target.model}": ${status.problem}`,
    );
  }
  if (status.accessDenied === true && status.problem !== undefined) {
    throw new ModelNotReadyError("ollama-unreachable", target, status.problem);
  }
  if (!status.reachable) {
    throw new ModelNotReadyError(
      "ollama-unreachable",
      target,
      unreachableMessage(status.baseUrl, reasonOf(status.problem, status.baseUrl)),
    );
  }
  if (!status.modelPresent) {
    throw new ModelNotReadyError(
      "model-not-pulled",
      target,
      notPulledMessage(target.model, status.baseUrl, status.models, role),
    );
  }
}

/** A model failure during a run, explained as the check before it would have. */
export function explainModelFailure(
  error: EvaluationModelError | ModelCallError,
  target?: ModelTarget,
): ModelNotReadyError {
  const modelError = isEvaluationModelError(error) ? error.modelError : error;
  const model = modelError.model ?? target?.model ?? "the model";
  const given = modelError.baseUrl ?? target?.baseUrl;
  const baseUrl = given === undefined ? undefined : redactSecretText(given);
  const isOllama = (modelError.provider ?? target?.provider) === "ollama";
  const where = { model, baseUrl };
  if (isModelUnavailableError(modelError) && isOllama && baseUrl !== undefined) {
    if (modelError.reason === "model-not-found") {
      return new ModelNotReadyError(
        "model-not-pulled",
        where,
        notPulledMessage(model, baseUrl, undefined),
        { cause: error },
      );
    }
    if (modelError.reason === "connection-refused" || modelError.reason === "unreachable") {
      return new ModelNotReadyError(
        "ollama-unreachable",
        where,
        unreachableMessage(baseUrl, undefined),
        { cause: error },
      );
    }
  }
  return new ModelNotReadyError("model-failed", where, error.message, { cause: error });
}

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
