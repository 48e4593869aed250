/**
 * Is the judge model there? Before a command evaluates with an `ollama:` model it asks the Ollama
 * server (GET /api/tags) whether it runs and has the model pulled, and stops with one message that
 * names the server tried and what to run. A model that fails during the run
 * (EvaluationModelError) is explained the same way.
 */

import { type EvaluationModelError, isEvaluationModelError } from "../engine/errors.js";
import { checkOllama } from "../llm/checkOllama.js";
import { isModelUnavailableError, type ModelCallError } from "../llm/errors.js";
import {
  defaultModelSpec,
  defaultOllamaBaseUrl,
  formatModelSpec,
  type ModelEnv,
  parseModelSpec,
} from "../llm/spec.js";
import { redactSecretText as redactUrl } from "../redact.js";
import type { CliContext, TextOutput } from "./context.js";
import { ModelNotReadyError } from "./errors.js";
import { chooseModel, loadLocalModel, type ModelTarget } from "./modelChoice.js";

export type { ModelTarget } from "./modelChoice.js";

/**
 * The model a command uses: `--model` when given, else `ollama:<EVALGATE_MODEL or the default>`.
 * Throws ModelSpecError / UnknownProviderError for a spec that cannot be parsed.
 */
export function resolveModelTarget(spec: string | undefined, env: ModelEnv): ModelTarget {
  const parsed = parseModelSpec(spec ?? defaultModelSpec(env));
  const chosen = spec === undefined && !env.EVALGATE_MODEL?.trim();
  return {
    spec: formatModelSpec(parsed),
    provider: parsed.provider,
    model: parsed.model,
    baseUrl:
      parsed.provider === "ollama" ? (parsed.servers ?? defaultOllamaBaseUrl(env)) : undefined,
    ...(chosen ? { chosen } : {}),
  };
}

function unreachableMessage(baseUrl: string, why: string | undefined): string {
  const detail = why === undefined || why === "" ? "" : ` (${why})`;
  return (
    `Ollama is not reachable at ${baseUrl}${detail}: start it with \`ollama serve\`, ` +
    "or set OLLAMA_BASE_URL to the address of a running Ollama server"
  );
}

function notPulledMessage(model: string, baseUrl: string, pulled: readonly string[] | undefined) {
  const known =
    pulled === undefined
      ? ""
      : pulled.length === 0
        ? " (no model is pulled there yet)"
        : ` (pulled there: ${pulled.join(", ")})`;
  return (
    `model "${model}" is not pulled on the Ollama server at ${baseUrl}${known}: ` +
    `run \`ollama pull ${model}\`, or set EVALGATE_MODEL (or --model ollama:<name>) to a pulled model`
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

export interface EnsureModelReadyOptions {
  /** How long to wait for the Ollama server (default 3000 ms). */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /**
   * The command's environment and stderr: with them, a target nobody named is chosen (Ollama,
   * else the embedded model, with one line saying which) and a `llama-cpp:` file is loaded.
   */
  env?: ModelEnv;
  stderr?: TextOutput;
  signal?: AbortSignal;
}

/**
 * The model the command will use, checked: with `options.env` and `options.stderr`, a model
 * nobody named is chosen (modelChoice.ts) and a `llama-cpp:` file is loaded. For an `ollama:`
 * model: checks that the server answers and has the model; throws ModelNotReadyError naming the
 * base URL and what to run when not. Other providers are not checked here (their failures
 * surface as EvaluationModelError during the run).
 */
export async function ensureModelReady(
  target: ModelTarget,
  options: EnsureModelReadyOptions = {},
): Promise<ModelTarget> {
  const { env, stderr } = options;
  if (env !== undefined && stderr !== undefined) {
    if (target.chosen === true) return chooseModel(target, { ...options, env, stderr });
    if (target.provider === "llama-cpp") {
      await loadLocalModel(target.model, env);
      return target;
    }
  }
  await checkOllamaTarget(target, options);
  return target;
}

/**
 * The model a command will call — a target, or a spec resolved (--model, else EVALGATE_MODEL,
 * else the default) — checked the one way every command checks it (ensureModelReady with the
 * command's environment: a model nobody named is chosen, Ollama else the embedded one).
 */
export function readyModel(
  model: string | undefined | ModelTarget,
  context: Pick<CliContext, "env" | "stderr" | "signal">,
): Promise<ModelTarget> {
  const target = typeof model === "object" ? model : resolveModelTarget(model, context.env);
  return ensureModelReady(target, {
    env: context.env,
    stderr: context.stderr,
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
}

async function checkOllamaTarget(target: ModelTarget, options: EnsureModelReadyOptions) {
  if (target.provider !== "ollama" || target.baseUrl === undefined) return;
  const status = await checkOllama(target.baseUrl, target.model, options);
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
      notPulledMessage(target.model, status.baseUrl, status.models),
    );
  }
}

/**
 * Turns a model failure during a run into the same kind of message as the check before it: Ollama
 * down → `ollama serve` / OLLAMA_BASE_URL, model missing → `ollama pull`, anything else → what the
 * model error says.
 */
export function explainModelFailure(
  error: EvaluationModelError | ModelCallError,
  target?: ModelTarget,
): ModelNotReadyError {
  const modelError = isEvaluationModelError(error) ? error.modelError : error;
  const model = modelError.model ?? target?.model ?? "the model";
  const given = modelError.baseUrl ?? target?.baseUrl;
  const baseUrl = given === undefined ? undefined : redactUrl(given);
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
