/**
 * The judge model checked before a command runs, and a model failing during the run explained the
 * same way.
 */

import { type EvaluationModelError, isEvaluationModelError } from "../engine/errors.js";
import { checkOllama } from "../llm/checkOllama.js";
import { isModelUnavailableError, type ModelCallError } from "../llm/errors.js";
import { redactSecretText } from "../redact.js";
import type { CliContext } from "./context.js";
import { ModelNotReadyError } from "./errors.js";
import {
  checkSettingOf,
  chooseModel,
  loadLocalModel,
  type ModelTarget,
  resolveModelTarget,
} from "./modelChoice.js";

export type { ModelTarget } from "./modelChoice.js";

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
