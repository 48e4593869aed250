/**
 * The model layer's errors: typed failures of a call (`transient`: may trying again help?) and
 * specs or options that cannot be used. classifyError.ts types whatever a provider threw.
 */
import { EvalgateError, errorGuard } from "../errors.js";
import { boundedText, MESSAGE_LIMIT, redactSecretText } from "../redact.js";

export interface ModelErrorContext {
  provider?: string;
  model?: string;
  baseUrl?: string;
  /** The timeout in force, used when an abort turns out to be a timeout. */
  timeoutMs?: number;
}

/** `ollama:qwen2.5:7b at http://127.0.0.1:11434`, or as much of it as is known. */
function target(context: ModelErrorContext): string {
  const name =
    context.provider && context.model
      ? `${context.provider}:${context.model}`
      : (context.model ?? context.provider ?? "chat model");
  return context.baseUrl ? `${name} at ${context.baseUrl}` : name;
}

/** Why a model could not be reached or could not serve, and how its message says it. */
const UNAVAILABLE_TEXT = {
  "connection-refused": "refused the connection",
  "connection-reset": "dropped the connection",
  unreachable: "is not reachable",
  "server-error": "failed with a server error",
  "incomplete-response": "ended its answer before it was complete",
  "model-not-found": "does not have this model",
  busy: "had no free call slot",
  unknown: "failed",
} as const;
export type UnavailableReason = keyof typeof UNAVAILABLE_TEXT;

/**
 * Its message (`<target> <what>`, or `what` alone when `whole`) is redacted and bounded; its cause
 * is kept only as safe (safeCause, in EvalgateError).
 */
export abstract class ModelCallError extends EvalgateError {
  abstract readonly transient: boolean;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly baseUrl: string | undefined;

  constructor(
    code: string,
    what: string,
    context: ModelErrorContext,
    cause?: unknown,
    whole = false,
  ) {
    const message = whole ? what : `${target(context)} ${what}`;
    super(code, boundedText(message, MESSAGE_LIMIT), { cause });
    this.provider = context.provider;
    this.model = context.model;
    this.baseUrl = context.baseUrl === undefined ? undefined : redactSecretText(context.baseUrl);
  }
}

export class ModelTimeoutError extends ModelCallError {
  readonly transient = true;
  constructor(
    readonly timeoutMs: number,
    context: ModelErrorContext,
    cause?: unknown,
  ) {
    super("MODEL_TIMEOUT", `did not answer within ${timeoutMs} ms`, context, cause);
  }
}

/** The server refused for now (HTTP 429); `retryAfterMs` when it said how long to wait. */
export class ModelRateLimitError extends ModelCallError {
  readonly transient = true;
  readonly status = 429;
  constructor(
    readonly retryAfterMs: number | undefined,
    detail: string,
    context: ModelErrorContext,
    cause?: unknown,
  ) {
    const wait = retryAfterMs === undefined ? "" : ` (retry after ${retryAfterMs} ms)`;
    super("MODEL_RATE_LIMITED", `is rate limited${wait}: ${detail}`, context, cause);
  }
}

/** The model could not be reached or could not serve: network, 5xx, model missing. */
export class ModelUnavailableError extends ModelCallError {
  readonly transient: boolean;
  readonly hint: string | undefined;
  readonly status: number | undefined;

  constructor(
    readonly reason: UnavailableReason,
    detail: string,
    context: ModelErrorContext,
    options: { status?: number; cause?: unknown } = {},
  ) {
    const ollama = context.provider === "ollama";
    const hint =
      ollama && reason === "model-not-found" && context.model
        ? `ollama pull ${context.model}`
        : ollama && (reason === "connection-refused" || reason === "unreachable")
          ? "ollama serve"
          : undefined;
    const status = reason === "server-error" && options.status ? ` (HTTP ${options.status})` : "";
    super(
      "MODEL_UNAVAILABLE",
      `${UNAVAILABLE_TEXT[reason]}${status}: ${detail}${hint ? ` — run \`${hint}\`` : ""}`,
      context,
      options.cause,
    );
    this.status = options.status;
    this.hint = hint;
    // A model that is not there stays missing; a server that stayed busy for the whole wait
    // would keep the retry waiting again.
    this.transient = reason !== "model-not-found" && reason !== "busy";
  }
}

/** The request itself was rejected (HTTP 4xx other than 404-model and 429): retrying won't help. */
export class ModelRequestError extends ModelCallError {
  readonly transient = false;
  constructor(
    readonly status: number | undefined,
    detail: string,
    context: ModelErrorContext,
    cause?: unknown,
  ) {
    const code = status === undefined ? "" : ` (HTTP ${status})`;
    super("MODEL_REQUEST_REJECTED", `rejected the request${code}: ${detail}`, context, cause);
  }
}

/** The provider refused the content (safety / content filter). */
export class ModelContentPolicyError extends ModelCallError {
  readonly transient = false;
  constructor(detail: string, context: ModelErrorContext, cause?: unknown) {
    super("MODEL_CONTENT_POLICY", `refused by content policy: ${detail}`, context, cause);
  }
}

/** The call succeeded but the answer is unusable (empty). Retried once. */
export class ModelResponseError extends ModelCallError {
  readonly transient = true;
  constructor(detail: string, context: ModelErrorContext, cause?: unknown) {
    super("MODEL_RESPONSE_UNUSABLE", `gave an unusable answer: ${detail}`, context, cause);
  }
}

/** The caller cancelled the call (its AbortSignal fired). Never retried, never falls back. */
export class ModelAbortedError extends ModelCallError {
  readonly transient = false;
  constructor(context: ModelErrorContext, cause?: unknown) {
    super(
      "MODEL_CALL_CANCELLED",
      `call to ${target(context)} was cancelled by the caller`,
      context,
      cause,
      true,
    );
  }
}

/** The provider's LangChain package is not installed (or failed to load). */
export class ProviderUnavailableError extends ModelCallError {
  readonly transient = false;
  constructor(
    readonly packageName: string,
    detail: string,
    context: ModelErrorContext,
    cause?: unknown,
  ) {
    super(
      "PROVIDER_UNAVAILABLE",
      `provider "${context.provider}" needs ${packageName}: ${detail} — run \`npm install ${packageName}\``,
      context,
      cause,
      true,
    );
  }
}

/**
 * A model spec string that cannot be parsed (`provider:model`). The spec is shown redacted: one
 * that names its servers may carry their credentials (`…@http://user:pass@host`).
 */
export class ModelSpecError extends EvalgateError {
  readonly spec: string;
  constructor(spec: string, message: string) {
    const shown = boundedText(spec, 500);
    super("MODEL_SPEC_INVALID", `model spec "${shown}": ${message}`);
    this.spec = shown;
  }
}

export class UnknownProviderError extends ModelSpecError {
  override readonly code = "MODEL_PROVIDER_UNKNOWN";
  constructor(
    spec: string,
    readonly provider: string,
    readonly knownProviders: readonly string[],
  ) {
    super(
      spec,
      `unknown provider "${provider}"; known providers: ${knownProviders.join(", ")} ` +
        `(an Ollama model is written ollama:<model>)`,
    );
  }
}
export class ModelOptionsError extends EvalgateError {
  constructor(
    readonly option: string,
    message: string,
  ) {
    // An environment variable or a command-line flag is named as the user wrote it.
    const where = /^(?:[A-Z][A-Z0-9_]*|--[a-z-]+)$/.test(option)
      ? option
      : `createChatModel option "${option}"`;
    super("MODEL_OPTIONS_INVALID", `${where}: ${message}`);
  }
}

/** The codes of a model call that failed (ModelCallError). */
export const MODEL_CALL_ERROR_CODES = [
  "MODEL_TIMEOUT",
  "MODEL_RATE_LIMITED",
  "MODEL_UNAVAILABLE",
  "MODEL_REQUEST_REJECTED",
  "MODEL_CONTENT_POLICY",
  "MODEL_RESPONSE_UNUSABLE",
  "MODEL_CALL_CANCELLED",
  "PROVIDER_UNAVAILABLE",
] as const;

export const isModelCallError = errorGuard<ModelCallError>(...MODEL_CALL_ERROR_CODES);
export const isModelTimeoutError = errorGuard<ModelTimeoutError>("MODEL_TIMEOUT");
export const isModelRateLimitError = errorGuard<ModelRateLimitError>("MODEL_RATE_LIMITED");
export const isModelUnavailableError = errorGuard<ModelUnavailableError>("MODEL_UNAVAILABLE");
export const isModelContentPolicyError =
  errorGuard<ModelContentPolicyError>("MODEL_CONTENT_POLICY");
export const isModelResponseError = errorGuard<ModelResponseError>("MODEL_RESPONSE_UNUSABLE");
export const isModelAbortedError = errorGuard<ModelAbortedError>("MODEL_CALL_CANCELLED");
