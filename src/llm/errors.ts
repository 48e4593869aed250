/**
 * Typed failures of a chat-model call, and the classification of whatever a provider threw
 * (fetch errors, HTTP statuses, SDK errors, aborts) into them. `transient` says whether trying the
 * same model again may help; the retry loop and the fallback list act on it.
 */

import { quoteBody, redactCredentials, redactUrl } from "./redact.js";

/** Where a call went: which provider, model and server. */
export interface ModelErrorContext {
  provider?: string;
  model?: string;
  baseUrl?: string;
  /** The timeout in force, used when an abort turns out to be a timeout. */
  timeoutMs?: number;
}

function describeTarget(context: ModelErrorContext): string {
  const name =
    context.provider && context.model
      ? `${context.provider}:${context.model}`
      : (context.model ?? context.provider ?? "chat model");
  return context.baseUrl ? `${name} at ${context.baseUrl}` : name;
}

/**
 * The cause as kept on a model error: as is, unless its message names a URL with credentials
 * (a fetch error quoting the request URL); then an Error with the credentials taken out.
 */
function withoutCredentials(cause: unknown): unknown {
  if (!(cause instanceof Error) || redactCredentials(cause.message) === cause.message) return cause;
  const safe = new Error(redactCredentials(cause.message));
  safe.name = cause.name;
  return safe;
}

/** Base of every model-call failure (credentials in URLs are never part of it). */
export abstract class ModelCallError extends Error {
  /** Whether calling the same model again may succeed. */
  abstract readonly transient: boolean;
  readonly provider: string | undefined;
  readonly model: string | undefined;
  readonly baseUrl: string | undefined;

  constructor(message: string, context: ModelErrorContext, cause?: unknown) {
    super(
      redactCredentials(message),
      cause === undefined ? undefined : { cause: withoutCredentials(cause) },
    );
    this.name = new.target.name;
    this.provider = context.provider;
    this.model = context.model;
    this.baseUrl = context.baseUrl === undefined ? undefined : redactUrl(context.baseUrl);
  }
}

/** The model did not finish answering within the timeout. */
export class ModelTimeoutError extends ModelCallError {
  readonly transient = true;
  constructor(
    readonly timeoutMs: number,
    context: ModelErrorContext,
    cause?: unknown,
  ) {
    super(`${describeTarget(context)} did not answer within ${timeoutMs} ms`, context, cause);
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
    super(`${describeTarget(context)} is rate limited${wait}: ${detail}`, context, cause);
  }
}

export type UnavailableReason =
  | "connection-refused"
  | "connection-reset"
  | "unreachable"
  | "server-error"
  | "incomplete-response"
  | "model-not-found"
  | "unknown";

/** The model could not be reached or could not serve: network, 5xx, model missing. */
export class ModelUnavailableError extends ModelCallError {
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
    const what: Record<UnavailableReason, string> = {
      "connection-refused": "refused the connection",
      "connection-reset": "dropped the connection",
      unreachable: "is not reachable",
      "server-error": `failed with a server error${options.status ? ` (HTTP ${options.status})` : ""}`,
      "incomplete-response": "ended its answer before it was complete",
      "model-not-found": "does not have this model",
      unknown: "failed",
    };
    const suffix = hint ? ` — run \`${hint}\`` : "";
    super(`${describeTarget(context)} ${what[reason]}: ${detail}${suffix}`, context, options.cause);
    this.status = options.status;
    this.hint = hint;
    this.transient = reason !== "model-not-found";
  }
}

function unavailableHint(
  reason: UnavailableReason,
  context: ModelErrorContext,
): string | undefined {
  if (context.provider !== "ollama") return undefined;
  if (reason === "model-not-found" && context.model) return `ollama pull ${context.model}`;
  if (reason === "connection-refused" || reason === "unreachable") return "ollama serve";
  return undefined;
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
    super(`${describeTarget(context)} rejected the request${code}: ${detail}`, context, cause);
  }
}

/** The provider refused the content (safety / content filter). */
export class ModelContentPolicyError extends ModelCallError {
  readonly transient = false;
  constructor(detail: string, context: ModelErrorContext, cause?: unknown) {
    super(`${describeTarget(context)} refused by content policy: ${detail}`, context, cause);
  }
}

/** The call succeeded but the answer is unusable (empty). Retried once. */
export class ModelResponseError extends ModelCallError {
  readonly transient = true;
  constructor(detail: string, context: ModelErrorContext, cause?: unknown) {
    super(`${describeTarget(context)} gave an unusable answer: ${detail}`, context, cause);
  }
}

/** The caller cancelled the call (its AbortSignal fired). Never retried, never falls back. */
export class ModelAbortedError extends ModelCallError {
  readonly transient = false;
  constructor(context: ModelErrorContext, cause?: unknown) {
    super(`call to ${describeTarget(context)} was cancelled by the caller`, context, cause);
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
      `provider "${context.provider}" needs ${packageName}: ${detail} — run \`npm install ${packageName}\``,
      context,
      cause,
    );
  }
}

/** A model spec string that cannot be parsed (`provider:model`). */
export class ModelSpecError extends Error {
  constructor(
    readonly spec: string,
    message: string,
  ) {
    super(`model spec "${spec}": ${message}`);
    this.name = new.target.name;
  }
}

/** A spec naming a provider we do not know. */
export class UnknownProviderError extends ModelSpecError {
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

const CONTENT_POLICY_PATTERN =
  /content[\s_-]?(policy|filter|management)|safety (system|settings|filter)|responsible ai policy|blocked due to safety/i;
const RATE_LIMIT_PATTERN = /rate[\s_-]?limit|too many requests/i;
const MODEL_NOT_FOUND_PATTERN = /model\b.*\b(not found|does not exist|not exist)|try pulling it/i;
const INCOMPLETE_STREAM_PATTERN = /did not receive done or success response/i;

const REFUSED_CODES = new Set(["ECONNREFUSED"]);
const RESET_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "ECONNABORTED",
]);
const UNREACHABLE_CODES = new Set([
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  if (isRecord(error) && typeof error.message === "string") return error.message;
  return String(error);
}

/** The `code` of the error or of one of its causes (undici puts the socket error in `cause`). */
function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && isRecord(current); depth += 1) {
    if (typeof current.code === "string") return current.code;
    current = current.cause;
  }
  return undefined;
}

/** HTTP status carried by SDK errors: `status` (OpenAI, Anthropic), `status_code` (ollama-js)… */
function statusOf(error: unknown): number | undefined {
  if (!isRecord(error)) return undefined;
  for (const key of ["status", "status_code", "statusCode"]) {
    const value = error[key];
    if (typeof value === "number" && value >= 100 && value <= 599) return value;
  }
  if (isRecord(error.response)) return statusOf(error.response);
  return undefined;
}

function headerOf(error: unknown, name: string): string | undefined {
  if (!isRecord(error)) return undefined;
  const headers = error.headers ?? (isRecord(error.response) ? error.response.headers : undefined);
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  if (isRecord(headers)) {
    const value = headers[name] ?? headers[name.toLowerCase()];
    return typeof value === "string" ? value : undefined;
  }
  return undefined;
}

/**
 * Milliseconds to wait from a `Retry-After` value (seconds or an HTTP date) or a
 * `retry-after-ms` value; undefined when absent or unreadable.
 */
export function parseRetryAfter(
  retryAfter: string | null | undefined,
  retryAfterMs?: string | null,
  now: number = Date.now(),
): number | undefined {
  if (retryAfterMs) {
    const ms = Number(retryAfterMs);
    if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  }
  if (!retryAfter) return undefined;
  const trimmed = retryAfter.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The typed error for an HTTP error status answered by a model server. */
export function errorFromStatus(
  status: number,
  body: string,
  context: ModelErrorContext,
  retryAfterMs?: number,
  cause?: unknown,
): ModelCallError {
  // A server may answer an error with a whole page: only its start is quoted.
  const detail = quoteBody(body);
  if (status === 429) return new ModelRateLimitError(retryAfterMs, detail, context, cause);
  if (status >= 500) {
    return new ModelUnavailableError("server-error", detail, context, { status, cause });
  }
  if (status === 404 && MODEL_NOT_FOUND_PATTERN.test(detail)) {
    return new ModelUnavailableError("model-not-found", detail, context, { status, cause });
  }
  if (CONTENT_POLICY_PATTERN.test(detail))
    return new ModelContentPolicyError(detail, context, cause);
  return new ModelRequestError(status, detail, context, cause);
}

function isAbortLike(error: unknown, name: "TimeoutError" | "AbortError"): boolean {
  return isRecord(error) && error.name === name;
}

/**
 * Turns anything a chat-model call threw into one of the typed errors above. Typed errors pass
 * through unchanged; `context` fills in where the call went.
 */
export function classifyModelError(
  error: unknown,
  context: ModelErrorContext = {},
): ModelCallError {
  if (error instanceof ModelCallError) return error;
  const detail = messageOf(error);

  if (isAbortLike(error, "TimeoutError")) {
    return new ModelTimeoutError(context.timeoutMs ?? 0, context, error);
  }
  if (isAbortLike(error, "AbortError") || (isRecord(error) && error.name === "ModelAbortError")) {
    return new ModelAbortedError(context, error);
  }

  const status = statusOf(error);
  if (status !== undefined && status >= 400) {
    const retryAfterMs = parseRetryAfter(
      headerOf(error, "retry-after"),
      headerOf(error, "retry-after-ms"),
    );
    return errorFromStatus(status, detail, context, retryAfterMs, error);
  }

  const code = networkCode(error);
  if (code !== undefined) {
    if (REFUSED_CODES.has(code)) {
      return new ModelUnavailableError("connection-refused", detail, context, { cause: error });
    }
    if (RESET_CODES.has(code)) {
      return new ModelUnavailableError("connection-reset", detail, context, { cause: error });
    }
    if (UNREACHABLE_CODES.has(code)) {
      return new ModelUnavailableError("unreachable", detail, context, { cause: error });
    }
  }
  if (error instanceof TypeError && (detail === "fetch failed" || detail === "terminated")) {
    return new ModelUnavailableError("connection-reset", detail, context, { cause: error });
  }
  if (INCOMPLETE_STREAM_PATTERN.test(detail)) {
    return new ModelUnavailableError("incomplete-response", detail, context, { cause: error });
  }
  if (CONTENT_POLICY_PATTERN.test(detail))
    return new ModelContentPolicyError(detail, context, error);
  if (RATE_LIMIT_PATTERN.test(detail))
    return new ModelRateLimitError(undefined, detail, context, error);
  if (MODEL_NOT_FOUND_PATTERN.test(detail)) {
    return new ModelUnavailableError("model-not-found", detail, context, { cause: error });
  }
  // A programming error (bad argument, unsupported message type) will fail the same way again.
  if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) {
    return new ModelRequestError(undefined, detail, context, error);
  }
  return new ModelUnavailableError("unknown", detail, context, { cause: error });
}

/** Whether retrying the same model may help: network, 5xx, 429, timeouts, empty answers. */
export function isTransient(error: unknown): boolean {
  return classifyModelError(error).transient;
}
