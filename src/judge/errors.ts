import { EvalgateError, errorGuard } from "../errors.js";

/** Where a judge problem is: the criterion, the template and the place inside it, when known. */
export interface JudgeErrorLocation {
  criterionId?: string;
  /** Which template or input: "override", "decodePrompt", "content", "rubric items", … */
  source?: string;
  line?: number;
  column?: number;
}

/** `criterion 'c2' › override › line 3, column 7` (the parts that are known). */
export function formatJudgeLocation(location: JudgeErrorLocation): string {
  const parts: string[] = [];
  if (location.criterionId !== undefined) parts.push(`criterion '${location.criterionId}'`);
  if (location.source !== undefined) parts.push(location.source);
  if (location.line !== undefined) {
    parts.push(
      location.column === undefined
        ? `line ${location.line}`
        : `line ${location.line}, column ${location.column}`,
    );
  }
  return parts.length > 0 ? parts.join(" › ") : "judge";
}

/** Base class of the errors raised while building or reading judge prompts. */
export class JudgeError extends EvalgateError {
  override name = "JudgeError";
  readonly location: JudgeErrorLocation;
  /** What is wrong, without the location. */
  readonly detail: string;

  constructor(detail: string, location: JudgeErrorLocation = {}) {
    super("JUDGE_FAILED", `${formatJudgeLocation(location)}: ${detail}`);
    this.location = location;
    this.detail = detail;
  }
}

/** A prompt cannot be built: a criterion the LLM does not judge, unusable content, bad items. */
export class JudgePromptError extends JudgeError {
  override name = "JudgePromptError";
  override readonly code = "JUDGE_PROMPT_INVALID";
}

/** A template uses a placeholder that has no value. */
export class PromptTemplateError extends JudgeError {
  override name = "PromptTemplateError";
  override readonly code = "PROMPT_PLACEHOLDER_UNKNOWN";
  readonly placeholder: string;
  readonly knownPlaceholders: readonly string[];

  constructor(
    placeholder: string,
    knownPlaceholders: readonly string[],
    location: JudgeErrorLocation,
  ) {
    super(
      `unknown placeholder {{${placeholder}}}; known placeholders: ${knownPlaceholders
        .map((p) => `{{${p}}}`)
        .join(", ")}`,
      location,
    );
    this.placeholder = placeholder;
    this.knownPlaceholders = knownPlaceholders;
  }
}

/**
 * A decode prompt template cannot be rendered: a syntax error, a tag or member that templates may
 * not use, a render that takes too long or writes too much. The location names the line.
 */
export class DecodeTemplateError extends JudgeError {
  override name = "DecodeTemplateError";
  override readonly code = "PROMPT_TEMPLATE_INVALID";
}

/** A criterion whose method is deterministic (function, schema) was handed to the LLM judge. */
export class UnjudgedMethodError extends JudgeError {
  override name = "UnjudgedMethodError";
  override readonly code = "METHOD_NOT_JUDGED";
  readonly method: string;

  constructor(method: string, location: JudgeErrorLocation) {
    super(`method '${method}' is scored deterministically, not by the LLM judge`, location);
    this.method = method;
  }
}

/** The codes of the judge's errors, one per class. */
export const JUDGE_ERROR_CODES = [
  "JUDGE_FAILED",
  "JUDGE_PROMPT_INVALID",
  "PROMPT_PLACEHOLDER_UNKNOWN",
  "PROMPT_TEMPLATE_INVALID",
  "METHOD_NOT_JUDGED",
] as const;

export const isJudgeError = errorGuard<JudgeError>(...JUDGE_ERROR_CODES);
export const isJudgePromptError = errorGuard<JudgePromptError>("JUDGE_PROMPT_INVALID");
export const isPromptTemplateError = errorGuard<PromptTemplateError>("PROMPT_PLACEHOLDER_UNKNOWN");
export const isDecodeTemplateError = errorGuard<DecodeTemplateError>("PROMPT_TEMPLATE_INVALID");
export const isUnjudgedMethodError = errorGuard<UnjudgedMethodError>("METHOD_NOT_JUDGED");
