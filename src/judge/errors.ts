import { EvalgateError, errorGuard } from "../errors.js";

export interface JudgeErrorLocation {
  criterionId?: string;
  /** Which template or input: "override", "decodePrompt", "content", "rubric items", … */
  source?: string;
  line?: number;
  column?: number;
}

/** `criterion 'c2' › override › line 3, column 7`. */
function formatJudgeLocation({ criterionId, source, line, column }: JudgeErrorLocation): string {
  const parts = [
    criterionId === undefined ? undefined : `criterion '${criterionId}'`,
    source,
    line === undefined
      ? undefined
      : `line ${line}${column === undefined ? "" : `, column ${column}`}`,
  ].filter((part) => part !== undefined);
  return parts.length > 0 ? parts.join(" › ") : "judge";
}

const JUDGE_ERROR_CODES = [
  "JUDGE_FAILED",
  "JUDGE_PROMPT_INVALID",
  "PROMPT_PLACEHOLDER_UNKNOWN",
  "PROMPT_TEMPLATE_INVALID",
  "METHOD_NOT_JUDGED",
] as const;
export type JudgeErrorCode = (typeof JUDGE_ERROR_CODES)[number];

/** An error building or reading judge prompts; `code` says what (docs/errors.md). */
export class JudgeError extends EvalgateError<JudgeErrorCode> {
  readonly location: JudgeErrorLocation;
  /** What is wrong, without the location. */
  readonly detail: string;

  constructor(
    detail: string,
    location: JudgeErrorLocation = {},
    options: { code?: JudgeErrorCode } = {},
  ) {
    const code = options.code ?? "JUDGE_FAILED";
    super(code, `${formatJudgeLocation(location)}: ${detail}`);
    this.location = location;
    this.detail = detail;
  }
}

export class PromptTemplateError extends JudgeError {
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
      { code: "PROMPT_PLACEHOLDER_UNKNOWN" },
    );
    this.placeholder = placeholder;
    this.knownPlaceholders = knownPlaceholders;
  }
}

/** A criterion whose method is deterministic (function, schema) was handed to the LLM judge. */
export class UnjudgedMethodError extends JudgeError {
  readonly method: string;

  constructor(method: string, location: JudgeErrorLocation) {
    super(`method '${method}' is scored deterministically, not by the LLM judge`, location, {
      code: "METHOD_NOT_JUDGED",
    });
    this.method = method;
  }
}

export function promptInvalid(detail: string, location: JudgeErrorLocation = {}): JudgeError {
  return new JudgeError(detail, location, { code: "JUDGE_PROMPT_INVALID" });
}

export const isJudgeError = errorGuard<JudgeError>(...JUDGE_ERROR_CODES);
export const isDecodeTemplateError = errorGuard<JudgeError>("PROMPT_TEMPLATE_INVALID");
