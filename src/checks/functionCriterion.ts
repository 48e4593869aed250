import type { Criterion, FunctionMethod } from "../criteria/model.js";
import { describeValue, errorMessageOf, isPointFunctionError } from "../pointFunctions/contract.js";
import type { CriterionOutcome } from "../scoring/result.js";
import { criterionMethodMismatch } from "./errors.js";
import { evaluated, notEvaluated, yesNoOutcome } from "./outcomes.js";
import type { FunctionRegistry, ResolvedFunction } from "./registry.js";

function argsEvidence(args: unknown): string[] {
  return args === undefined ? [] : [`args: ${JSON.stringify(args) ?? String(args)}`];
}

function interpretResult(method: FunctionMethod, result: unknown): CriterionOutcome {
  const name = method.name;
  const evidence = argsEvidence(method.args);
  const levels = method.levels;
  const failed = (message: string) => notEvaluated(`${message}.`, message, evidence);

  if (typeof result === "boolean") {
    return yesNoOutcome(result, levels, `Function '${name}' evaluated to ${result}.`, evidence);
  }

  if (typeof result === "number") {
    if (!Number.isFinite(result)) {
      return failed(`Function '${name}' returned ${result}, not a number from 0 to 1`);
    }
    const score = Math.min(1, Math.max(0, result));
    return evaluated(
      score,
      score,
      `Function '${name}' evaluated to ${Number(score.toFixed(4))}.`,
      evidence,
    );
  }

  if (typeof result === "string") {
    const level = levels?.find((candidate) => candidate.id === result);
    if (level === undefined) {
      return failed(
        levels === undefined
          ? `Function '${name}' returned the level id '${result}', but the criterion defines no levels`
          : `Function '${name}' returned the unknown level id '${result}'; valid level ids: ${levels.map((l) => l.id).join(", ")}`,
      );
    }
    return evaluated(
      level.score,
      level.id,
      `Function '${name}' evaluated to level '${level.id}'.`,
      evidence,
      level,
    );
  }

  // An error means the check could not be made: neither a failing score nor a pass.
  if (isPointFunctionError(result)) {
    return notEvaluated(
      `Function '${name}' could not evaluate: ${result.error}`,
      result.error,
      evidence,
    );
  }

  return failed(
    `Function '${name}' returned ${describeValue(result)}; ` +
      "expected a boolean, a number from 0 to 1, a level id or { error }",
  );
}

/** A function that cannot be resolved, reports `{ error }` or throws leaves the criterion not evaluated. */
export async function runFunctionCriterion(
  criterion: Criterion,
  content: unknown,
  registry: FunctionRegistry,
): Promise<CriterionOutcome> {
  const method = criterion.method;
  if (method.kind !== "function") {
    throw criterionMethodMismatch(criterion.id, "function", method.kind);
  }
  const evidence = argsEvidence(method.args);

  let resolved: ResolvedFunction;
  try {
    resolved = await registry.resolve(method.name);
  } catch (error) {
    const message = errorMessageOf(error);
    return notEvaluated(
      `Function '${method.name}' could not be resolved: ${message}`,
      message,
      evidence,
    );
  }

  let result: unknown;
  try {
    result = await resolved.invoke(content, method.args);
  } catch (error) {
    const message = `Function '${method.name}' threw: ${errorMessageOf(error)}`;
    return notEvaluated(`${message}.`, message, evidence, "error");
  }
  return interpretResult(method, result);
}
