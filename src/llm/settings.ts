/**
 * Options of createChatModel, validated, and the resolved settings every provider builder reads.
 */
import { z } from "zod";
import { ModelOptionsError } from "./errors.js";
import { defaultOllamaBaseUrl, type ModelEnv, normaliseBaseUrl } from "./spec.js";

/** Ollama's `format`: "json" for any JSON object, or a JSON Schema the answer must follow. */
export type OllamaFormat = "json" | Record<string, unknown>;

const OptionsSchema = z.object({
  temperature: z.number().min(0).max(2).optional(),
  /** The sampling seed; null sends none. Default: EVALGATE_SEED, else DEFAULT_SEED. */
  seed: z.number().int().nullable().optional(),
  numCtx: z.number().int().positive().optional(),
  keepAlive: z.union([z.string().min(1), z.number()]).optional(),
  format: z.union([z.literal("json"), z.record(z.string(), z.unknown())]).optional(),
  timeoutMs: z.number().positive().optional(),
  maxRetries: z.number().int().min(0).optional(),
  retryBaseDelayMs: z.number().min(0).optional(),
  retryMaxDelayMs: z.number().min(0).optional(),
  maxRetryAfterMs: z.number().min(0).optional(),
  baseUrl: z.url().optional(),
});

/** Numeric and format options of a model, as accepted by createChatModel. */
export type ModelSettingsInput = z.input<typeof OptionsSchema> & { env?: ModelEnv };

export interface ModelSettings {
  temperature: number;
  seed: number | undefined;
  numCtx: number | undefined;
  keepAlive: string | number | undefined;
  format: OllamaFormat | undefined;
  timeoutMs: number;
  maxRetries: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  maxRetryAfterMs: number;
  /** Ollama server, without a trailing slash. */
  baseUrl: string;
  env: ModelEnv;
}

/** Evaluations run at temperature 0.1: near-deterministic judging. */
export const DEFAULT_TEMPERATURE = 0.1;
/**
 * Every judge call is made with this sampling seed where the provider takes one (Ollama's `seed`),
 * so the same prompt gets the same answer: EVALGATE_SEED or the `seed` option change it.
 */
export const DEFAULT_SEED = 42;
/** Ollama keeps the model loaded this long after a call, so one evaluation never reloads it. */
export const DEFAULT_KEEP_ALIVE = "30m";
/** Every model call times out after 60 seconds unless told otherwise. */
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;
export const DEFAULT_RETRY_MAX_DELAY_MS = 8_000;
export const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;

export function resolveModelSettings(input: ModelSettingsInput = {}): ModelSettings {
  const { env: envInput, ...rest } = input;
  const parsed = OptionsSchema.safeParse(rest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ModelOptionsError(issue?.path.join(".") || "?", issue?.message ?? "invalid value");
  }
  const options = parsed.data;
  const env: ModelEnv = envInput ?? process.env;
  return {
    temperature: options.temperature ?? DEFAULT_TEMPERATURE,
    seed: options.seed === undefined ? seedFromEnv(env) : (options.seed ?? undefined),
    numCtx: options.numCtx,
    keepAlive: options.keepAlive ?? DEFAULT_KEEP_ALIVE,
    format: options.format,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
    retryBaseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
    retryMaxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_MAX_DELAY_MS,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS,
    baseUrl: options.baseUrl ? normaliseBaseUrl(options.baseUrl) : defaultOllamaBaseUrl(env),
    env,
  };
}

/**
 * The seed EVALGATE_SEED asks for: a whole number, or "none" / "off" for no seed; DEFAULT_SEED when
 * it is not set.
 */
export function seedFromEnv(env: ModelEnv): number | undefined {
  const value = env.EVALGATE_SEED?.trim();
  if (value === undefined || value === "") return DEFAULT_SEED;
  if (/^(none|off)$/i.test(value)) return undefined;
  const seed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(seed)) {
    throw new ModelOptionsError("EVALGATE_SEED", "expected a whole number, or none");
  }
  return seed;
}
