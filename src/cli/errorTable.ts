/**
 * How a failed command ends: exit 2 and one redacted line ending with the error's code, the key to
 * docs/errors.md.
 */

import { sep } from "node:path";
import { CatalogError } from "../criteria/errors.js";
import { formatBytes } from "../engine/contentBudget.js";
import { ContentTooLargeError, isEvaluationModelError } from "../engine/errors.js";
import { type EvalgateError, isEvalgateError, withErrorCode } from "../errors.js";
import { isModelAbortedError, isModelCallError, MODEL_CALL_ERROR_CODES } from "../llm/errors.js";
import { redactSecretText } from "../redact.js";
import { RubricConfigError } from "../rubrics/errors.js";
import { displayPath, EXIT_ERROR } from "./context.js";
import { explainModelFailure, type ModelTarget } from "./modelCheck.js";

/** The one line printed on stderr after `evalgate: `, without its code and trailing newline. */
type Message = (error: EvalgateError, cwd: string, target?: ModelTarget) => string;

const CANCELLED_MESSAGE = "cancelled: the evaluation was interrupted before it finished";

/** The error's own message: it already says what and where. */
const plain: Message = (error) => error.message;
/** The product word a family's messages leave out, then the message: `invalid TOON: t.toon:4: …`. */
const about =
  (word: string): Message =>
  (error) =>
    `${word}: ${error.message}`;

/** A model error explained with its target; one without the model's fields is its message. */
const model: Message = (error, _cwd, target) =>
  isModelCallError(error) || (isEvaluationModelError(error) && isModelCallError(error.modelError))
    ? explainModelFailure(error, target).message
    : error.message;

const catalog: Message = (error, cwd) =>
  `cannot use the catalog: ${
    error instanceof CatalogError
      ? CatalogError.format(error.detail, { ...error, source: displayPath(error.source, cwd) })
      : error.message
  }`;

/** A blueprint's error, its file relative to the working folder. */
const blueprint: Message = (error, cwd) => {
  const inside = `${cwd}${sep}`;
  const message = error.message.startsWith(inside)
    ? error.message.slice(inside.length)
    : error.message;
  return `cannot use the blueprint: ${message}`;
};

/** A rubric file's error, its path relative to the working folder. */
const rubricFile: Message = (error, cwd) =>
  error instanceof RubricConfigError
    ? `${displayPath(error.source, cwd)}: ${error.detail}`
    : error.message;

/** The pipeline's refusal of text over the budget, with the option that raises it. */
const contentBudget: Message = (error) =>
  error instanceof ContentTooLargeError
    ? `${error.what} is ${formatBytes(error.sizeBytes)}, over the content budget of ${formatBytes(error.budgetBytes)} that fits the judge's context window (raise it with --max-content-bytes, or split the content)`
    : error.message;

/**
 * The codes whose line is not the error's own message (which names what and where): a product
 * word before it, or an explanation. A line never shows an error's class name.
 */
const WORDED: ReadonlyArray<readonly [Message, readonly string[]]> = [
  // A catalog that cannot be used: nothing was decided, whichever command met it.
  [catalog, ["CATALOG_INVALID", "CATALOG_NOT_FOUND"]],
  [about("invalid TOON"), ["TOON_INVALID"]],
  [blueprint, ["BLUEPRINT_INVALID"]],
  [rubricFile, ["RUBRIC_CONFIG_INVALID"]],
  // Judge prompts: their messages start with the criterion or template (`criterion 'c2': …`).
  [
    about("cannot build the judge prompt"),
    [
      "JUDGE_FAILED",
      "JUDGE_PROMPT_INVALID",
      "PROMPT_TEMPLATE_INVALID",
      "PROMPT_PLACEHOLDER_UNKNOWN",
      "METHOD_NOT_JUDGED",
    ],
  ],
  // The judge model (a cancelled call exits 130 only when the command itself was cancelled).
  [
    model,
    [
      ...MODEL_CALL_ERROR_CODES.filter((code) => code !== "MODEL_CALL_CANCELLED"),
      "EVALUATION_MODEL_FAILED",
    ],
  ],
  [() => CANCELLED_MESSAGE, ["MODEL_CALL_CANCELLED"]],
  [about("cannot evaluate"), ["EVALUATION_FAILED"]],
  [contentBudget, ["CONTENT_TOO_LARGE"]],
  // Scoring: `criterion 'c1': unknown level …` (a reviewer's correction names itself).
  [
    about("cannot score"),
    [
      "SCORING_FAILED",
      "SCALE_INVALID",
      "RESULT_INCONSISTENT",
      "CRITERION_RESULTS_MISMATCH",
      "LEVEL_UNKNOWN",
    ],
  ],
  [about("cannot use the dependency map"), ["DEPENDENCY_MAP_INVALID"]],
];

/** The line of each code that is not its message alone. */
export const ERROR_MESSAGES: Readonly<Record<string, Message>> = Object.fromEntries(
  WORDED.flatMap(([message, codes]) => codes.map((code) => [code, message] as const)),
);

/** An AbortError from outside, or a model error that only says the call was cancelled. */
function isCancellation(error: unknown): boolean {
  if (isModelAbortedError(error)) return true;
  if (isEvaluationModelError(error)) return isModelAbortedError(error.modelError);
  return error instanceof Error && error.name === "AbortError";
}

function messageOf(error: unknown, cwd: string, target?: ModelTarget): string {
  if (isCancellation(error)) return withErrorCode(CANCELLED_MESSAGE, "MODEL_CALL_CANCELLED");
  if (isEvalgateError(error)) {
    const message = ERROR_MESSAGES[error.code] ?? plain;
    return withErrorCode(message(error, cwd, target), error.code);
  }
  // Not evalgate's, so a bug: said as one, never by its class name (TypeError, SqliteError).
  return `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

/** Exit code and one redacted line; a cancellation is one message whatever carried it. */
export function commandError(
  error: unknown,
  cwd: string,
  target?: ModelTarget,
): { exitCode: number; message: string } {
  const line = messageOf(error, cwd, target).replace(/\s*\n\s*/g, " ");
  return { exitCode: EXIT_ERROR, message: redactSecretText(line) };
}
