/** Options of createChatModel, validated, and the resolved settings every provider reads. */
import { z } from "zod";
import { ModelOptionsError } from "./errors.js";
import {
  MAX_IN_FLIGHT_LIMIT,
  MAX_POOL_SERVERS,
  parseServerInputs,
  parseServerList,
  type ServerEntry,
  type ServerInput,
  ServerObjectSchema,
} from "./serverList.js";
import {
  DEFAULT_MAX_IN_FLIGHT,
  DEFAULT_MAX_QUEUE_WAIT_MS,
  DEFAULT_SERVER_COOLDOWN_MS,
} from "./serverState.js";
import { DEFAULT_OLLAMA_BASE_URL, type ModelEnv } from "./spec.js";

/** The longest any timer of a call waits: a day (Node's timers cannot wait 2^31 ms). */
export const MAX_WAIT_MS = 86_400_000;

/** Ollama's `format`: "json" for any JSON object, or a JSON Schema the answer must follow. */
const FormatSchema = z.union([z.literal("json"), z.record(z.string(), z.unknown())]);
export type OllamaFormat = z.infer<typeof FormatSchema>;

const OptionsSchema = z.object({
  /** Near-deterministic judging by default. */
  temperature: z.number().min(0).max(2).default(0.1),
  /** The sampling seed; null sends none. Default: EVALGATE_SEED, else DEFAULT_SEED. */
  seed: z.number().int().nullable().optional(),
  numCtx: z.number().int().positive().optional(),
  /** One evaluation never reloads the model. */
  keepAlive: z.union([z.string().min(1), z.number()]).default("30m"),
  format: FormatSchema.optional(),
  timeoutMs: z.number().int().positive().max(MAX_WAIT_MS).default(60_000),
  maxRetries: z.number().int().min(0).default(2),
  retryBaseDelayMs: z.number().min(0).max(MAX_WAIT_MS).default(500),
  retryMaxDelayMs: z.number().min(0).max(MAX_WAIT_MS).default(8_000),
  maxRetryAfterMs: z.number().min(0).max(MAX_WAIT_MS).default(30_000),
  /** The model server, or several separated by commas (a pool); see serverList.ts. */
  baseUrl: z
    .string()
    .min(1)
    .max(MAX_POOL_SERVERS * 2_100)
    .optional(),
  /** The servers of a pool, each a URL, a `provider:model@url` spec or `{ url, slots?, … }`. */
  servers: z
    .array(z.union([z.string().min(1).max(4_096), ServerObjectSchema]))
    .min(1)
    .max(MAX_POOL_SERVERS)
    .optional(),
  /** How long a pool's server that failed is taken out (default 30 s; doubled while it fails). */
  serverCooldownMs: z.number().int().min(0).max(3_600_000).default(DEFAULT_SERVER_COOLDOWN_MS),
  /**
   * The most calls in flight to the model server, across every evaluation of the process.
   * Default: EVALGATE_MAX_IN_FLIGHT, else 4 (Ollama's usual parallel slots).
   */
  maxInFlight: z.number().int().min(1).max(MAX_IN_FLIGHT_LIMIT).optional(),
  /** The longest a call waits for a free slot before it fails (default 10 minutes, at most a day). */
  maxQueueWaitMs: z.number().positive().max(MAX_WAIT_MS).default(DEFAULT_MAX_QUEUE_WAIT_MS),
});

export type ModelSettingsInput = Omit<z.input<typeof OptionsSchema>, "servers"> & {
  servers?: readonly ServerInput[];
  env?: ModelEnv;
};

/** The resolved settings: `baseUrl`, `shownBaseUrl` and `authorization` name the first server. */
export type ModelSettings = ReturnType<typeof resolveModelSettings>;

/** The same prompt gets the same answer where the provider takes a seed. */
const DEFAULT_SEED = 42;

export function resolveModelSettings(input: ModelSettingsInput = {}) {
  const { env: envInput, ...rest } = input;
  const parsed = OptionsSchema.safeParse(rest);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ModelOptionsError(issue?.path.join(".") || "?", issue?.message ?? "invalid value");
  }
  const { servers: givenServers, baseUrl: givenUrl, seed, maxInFlight, ...options } = parsed.data;
  const env: ModelEnv = envInput ?? process.env;
  const servers = resolveServers(parsed.data, env);
  const [first] = servers;
  if (first === undefined) throw new ModelOptionsError("servers", "no server is listed");
  const server = first.address;
  return {
    ...options,
    servers,
    /** Whether the servers come from the options (not from OLLAMA_BASE_URL or the default). */
    serversGiven: givenServers !== undefined || givenUrl !== undefined,
    seed: seed === undefined ? seedFromEnv(env) : (seed ?? undefined),
    baseUrl: server.url,
    shownBaseUrl: server.shown,
    authorization: server.authorization,
    maxInFlight: maxInFlight ?? maxInFlightFromEnv(env),
    env,
  };
}

function resolveServers(
  options: { servers?: readonly ServerInput[]; baseUrl?: string },
  env: ModelEnv,
): ServerEntry[] {
  if (options.servers !== undefined) return parseServerInputs(options.servers);
  if (options.baseUrl !== undefined) return parseServerList(options.baseUrl, "baseUrl");
  const fromEnv = env.OLLAMA_BASE_URL?.trim();
  return parseServerList(
    fromEnv || DEFAULT_OLLAMA_BASE_URL,
    fromEnv ? "OLLAMA_BASE_URL" : "baseUrl",
  );
}

function maxInFlightFromEnv(env: ModelEnv): number {
  const value = env.EVALGATE_MAX_IN_FLIGHT?.trim();
  if (value === undefined || value === "") return DEFAULT_MAX_IN_FLIGHT;
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_IN_FLIGHT_LIMIT)) {
    throw new ModelOptionsError(
      "EVALGATE_MAX_IN_FLIGHT",
      `expected a whole number from 1 to ${MAX_IN_FLIGHT_LIMIT}, got "${value.slice(0, 40)}"`,
    );
  }
  return limit;
}

function seedFromEnv(env: ModelEnv): number | undefined {
  const value = env.EVALGATE_SEED?.trim();
  if (value === undefined || value === "") return DEFAULT_SEED;
  if (/^(none|off)$/i.test(value)) return undefined;
  const seed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(seed)) {
    throw new ModelOptionsError("EVALGATE_SEED", "expected a whole number, or none");
  }
  return seed;
}
