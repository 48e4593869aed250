/**
 * The errors of the model layer: typed failures of a chat-model call (`transient` says whether
 * trying the same model again may help), and model specs or options that cannot be used.
 * classifyError.ts turns whatever a provider threw into the typed call failures.
 */
import { EvalgateError, errorGuard } from "../errors.js";
import { boundedText, MESSAGE_LIMIT, redactSecretText } from "../redact.js";
import {
  describeTarget,
  describeUnavailable,
  type ModelErrorContext,
  type UnavailableReason,
  unavailableHint,
} from "./errorText.js";
import { safeCause } from "./safeCause.js";

export type { ModelErrorContext, UnavailableReason } from "./errorText.js";

/**
 * Base of every model-call failure. Its message is redacted (no credential, authorization value,
 * key or token) and at most MESSAGE_LIMIT characters; its cause is kept only as safe (safeCause.ts).
 */
export abstract class ModelCallError extends EvalgateError {
  /** Whether calling the same model again may succeed. */
  abstract readonly transient: boolean;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly baseUrl: string | undefined;

  constructor(code: string, message: string, context: ModelErrorContext, cause?: unknown) {
    super(code, boundedText(message, MESSAGE_LIMIT), {
      cause: cause === undefined ? undefined : safeCause(cause),
    });
    this.name = new.target.name;
    this.provider = context.provider;
    this.model = context.model;
    this.baseUrl = context.baseUrl === undefined ? undefined : redactSecretText(context.baseUrl);
  }
}

/** The model did not finish answering within the timeout. */
export class ModelTimeoutError extends ModelCallError {
  override readonly code = "MODEL_TIMEOUT";
  readonly transient = true;
  constructor(
    readonly timeoutMs: number,
    context: ModelErrorContext,
    cause?: unknown,
  ) {
    super(
      "MODEL_TIMEOUT",
      `${describeTarget(context)} did not answer within ${timeoutMs} ms`,
      context,
      cause,
    );
  }
}

/** The server refused for now (HTTP 429); `retryAfterMs` when it said how long to wait. */
export class ModelRateLimitError extends ModelCallError {
  override readonly code = "MODEL_RATE_LIMITED";
  readonly transient = true;
  readonly status = 429;
  constructor(
    readonly retryAfterMs: number | undefined,
    detail: string,
    context: ModelErrorContext,
    cause?: unknown,
  ) {
    const wait = retryAfterMs === undefined ? "" : ` (retry after ${retryAfterMs} ms)`;
    super(
      "MODEL_RATE_LIMITED",
      `${describeTarget(context)} is rate limited${wait}: ${detail}`,
      context,
      cause,
    );
  }
}

/** The model could not be reached or could not serve: network, 5xx, model missing. */
export class ModelUnavailableError extends ModelCallError {
  override readonly code = "MODEL_UNAVAILABLE";
  readonly transient: boolean;
  /** What to run to fix it, when we know (`ollama serve`, `ollama pull <model>`). */
  readonly hint: string | undefined;
  readonly status: number | undefined;

  constructor(
    readonly reason: UnavailableReason,
    detail: string,
    context: ModelErrorContext,
    options: { status?: number; cause?: unknown } = {},
  ) {
    const hint = unavailableHint(reason, context);
    super(
      "MODEL_UNAVAILABLE",
      describeUnavailable(reason, detail, context, { status: options.status, hint }),
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
  override readonly code = "MODEL_REQUEST_REJECTED";
  readonly transient = false;
  constructor(
    readonly status: number | undefined,
    detail: string,
    context: ModelErrorContext,
    cause?: unknown,
  ) {
    const code = status === undefined ? "" : ` (HTTP ${status})`;
    super(
      "MODEL_REQUEST_REJECTED",
      `${describeTarget(context)} rejected the request${code}: ${detail}`,
      context,
      cause,
    );
  }
}

/** The provider refused the content (safety / content filter). */
export class ModelContentPolicyError extends ModelCallError {
  override readonly code = "MODEL_CONTENT_POLICY";
  readonly transient = false;
  constructor(detail: string, context: ModelErrorContext, cause?: unknown) {
    super(
      "MODEL_CONTENT_POLICY",
      `${describeTarget(context)} refused by content policy: ${detail}`,
      context,
      cause,
    );
  }
}

/** The call succeeded but the answer is unusable (empty). Retried once. */
export class ModelResponseError extends ModelCallError {
  override readonly code = "MODEL_RESPONSE_UNUSABLE";
  readonly transient = true;
  constructor(detail: string, context: ModelErrorContext, cause?: unknown) {
    super(
      "MODEL_RESPONSE_UNUSABLE",
      `${describeTarget(context)} gave an unusable answer: ${detail}`,
      context,
      cause,
    );
  }
}

/** The caller cancelled the call (its AbortSignal fired). Never retried, never falls back. */
export class ModelAbortedError extends ModelCallError {
  override readonly code = "MODEL_CALL_CANCELLED";
  readonly transient = false;
  constructor(context: ModelErrorContext, cause?: unknown) {
    super(
      "MODEL_CALL_CANCELLED",
      `call to ${describeTarget(context)} was cancelled by the caller`,
      context,
      cause,
    );
  }
}

/** The provider's LangChain package is not installed (or failed to load). */
export class ProviderUnavailableError extends ModelCallError {
  override readonly code = "PROVIDER_UNAVAILABLE";
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
    this.name = new.target.name;
    this.spec = shown;
  }
}

/** A spec naming a provider we do not know. */
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
/** An option of createChatModel with a value it cannot use. */
export class ModelOptionsError extends EvalgateError {
  constructor(
    readonly option: string,
    message: string,
  ) {
    super("MODEL_OPTIONS_INVALID", `createChatModel option "${option}": ${message}`);
    this.name = "ModelOptionsError";
  }
}

/** The codes of the failed model calls, one per class. */
const MODEL_CALL_ERROR_CODES = [
  "MODEL_TIMEOUT",
  "MODEL_RATE_LIMITED",
  "MODEL_UNAVAILABLE",
  "MODEL_REQUEST_REJECTED",
  "MODEL_CONTENT_POLICY",
  "MODEL_RESPONSE_UNUSABLE",
  "MODEL_CALL_CANCELLED",
  "PROVIDER_UNAVAILABLE",
] as const;

/** The codes of the model layer's errors, one per class. */
export const LLM_ERROR_CODES = [
  ...MODEL_CALL_ERROR_CODES,
  "MODEL_SPEC_INVALID",
  "MODEL_PROVIDER_UNKNOWN",
  "MODEL_OPTIONS_INVALID",
] as const;

export const isModelCallError = errorGuard<ModelCallError>(...MODEL_CALL_ERROR_CODES);
export const isModelTimeoutError = errorGuard<ModelTimeoutError>("MODEL_TIMEOUT");
export const isModelRateLimitError = errorGuard<ModelRateLimitError>("MODEL_RATE_LIMITED");
export const isModelUnavailableError = errorGuard<ModelUnavailableError>("MODEL_UNAVAILABLE");
export const isModelRequestError = errorGuard<ModelRequestError>("MODEL_REQUEST_REJECTED");
export const isModelContentPolicyError =
  errorGuard<ModelContentPolicyError>("MODEL_CONTENT_POLICY");
export const isModelResponseError = errorGuard<ModelResponseError>("MODEL_RESPONSE_UNUSABLE");
export const isModelAbortedError = errorGuard<ModelAbortedError>("MODEL_CALL_CANCELLED");
export const isProviderUnavailableError =
  errorGuard<ProviderUnavailableError>("PROVIDER_UNAVAILABLE");
export const isModelSpecError = errorGuard<ModelSpecError>(
  "MODEL_SPEC_INVALID",
  "MODEL_PROVIDER_UNKNOWN",
);
export const isUnknownProviderError = errorGuard<UnknownProviderError>("MODEL_PROVIDER_UNKNOWN");
export const isModelOptionsError = errorGuard<ModelOptionsError>("MODEL_OPTIONS_INVALID");
