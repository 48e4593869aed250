/**
 * OpenAI-compatible servers (vLLM, llama.cpp server, LM Studio) through ChatOpenAI. Nothing of the
 * OpenAI environment is sent: the key is OPENAI_COMPATIBLE_API_KEY, URL credentials go as Basic.
 * Log-probabilities are a setting of the instance, so calls asking for them use a second one.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { z } from "zod";
import { rememberSecret } from "../redact.js";
import { readUntrustedJson } from "../untrusted/json.js";
import { classifyModelError, invokeWithDeadline } from "./classifyError.js";
import { loadOncePer, type PoolMember } from "./modelCandidate.js";
import { readBoundedText } from "./ollamaFetch.js";
import { chatModelClass } from "./providers.js";
import { MAX_IN_FLIGHT_LIMIT, type ServerAddress, type ServerEntry } from "./serverList.js";
import type { ModelSettings } from "./settings.js";
import type { ModelEnv } from "./spec.js";
import { topLogprobsAsked } from "./tokenLogprobs.js";

const OPENAI_COMPATIBLE_PACKAGE = "@langchain/openai";
const OPENAI_COMPATIBLE_API_KEY_ENV = "OPENAI_COMPATIBLE_API_KEY";
/** Sent as the key when none is set (the client needs one; a server without keys ignores it). */
const NO_KEY = "no-key";
const SLOTS_QUERY_TIMEOUT_MS = 2_000;
const MAX_PROPS_BYTES = 256 * 1024;

function openAiCompatibleKey(env: ModelEnv): string | undefined {
  const key = env[OPENAI_COMPATIBLE_API_KEY_ENV]?.trim();
  if (!key) return undefined;
  // Whatever a server echoes of it is redacted, in any shape.
  rememberSecret(key);
  return key;
}

/** fetch with the server's basic credentials in place of the client's bearer key. */
function fetchWithCredentials(address: ServerAddress): typeof fetch | undefined {
  const { authorization } = address;
  if (authorization === undefined) return undefined;
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set("authorization", authorization.headerValue());
    return fetch(input, { ...init, headers });
  };
}

/** The chat model for one server: no retries of its own (the pool and ours retry), not streamed. */
async function createOpenAiCompatibleChat(
  model: string,
  address: ServerAddress,
  settings: { temperature: number; env: ModelEnv },
  logprobs?: number,
): Promise<BaseChatModel> {
  const ChatOpenAI = await chatModelClass(
    "openai-compatible",
    OPENAI_COMPATIBLE_PACKAGE,
    "ChatOpenAI",
    model,
  );
  const fetchFunction = fetchWithCredentials(address);
  return new ChatOpenAI({
    model,
    temperature: settings.temperature,
    maxRetries: 0,
    streaming: false,
    ...(logprobs === undefined ? {} : { logprobs: true, topLogprobs: topLogprobsAsked(logprobs) }),
    apiKey: openAiCompatibleKey(settings.env) ?? NO_KEY,
    configuration: {
      baseURL: address.url,
      organization: null,
      project: null,
      maxRetries: 0,
      ...(fetchFunction === undefined ? {} : { fetch: fetchFunction }),
    },
  });
}

const PropsSchema = z.looseObject({
  total_slots: z.number().int().min(1).max(MAX_IN_FLIGHT_LIMIT),
});

function propsUrl(address: ServerAddress): string {
  return `${address.url.replace(/\/v1$/i, "")}/props`;
}

/** The server's slots when it says (llama.cpp's `/props` within two seconds); else undefined. */
async function askServerSlots(
  address: ServerAddress,
  env: ModelEnv,
  fetchFunction: typeof fetch = fetch,
): Promise<number | undefined> {
  const key = openAiCompatibleKey(env);
  const authorization =
    address.authorization?.headerValue() ?? (key === undefined ? undefined : `Bearer ${key}`);
  try {
    const response = await fetchFunction(propsUrl(address), {
      signal: AbortSignal.timeout(SLOTS_QUERY_TIMEOUT_MS),
      ...(authorization === undefined ? {} : { headers: { authorization } }),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return undefined;
    }
    const text = await readBoundedText(response, MAX_PROPS_BYTES);
    const read = readUntrustedJson(text);
    const parsed = PropsSchema.safeParse(read.ok ? read.value : undefined);
    return parsed.success ? parsed.data.total_slots : undefined;
  } catch {
    return undefined;
  }
}

/** How long an answer of a server about its slots is kept (5 minutes), per server. */
const SLOTS_KEPT_MS = 300_000;
const askedSlots = new Map<string, { at: number; slots: Promise<number | undefined> }>();

export function openAiCompatibleMember(
  entry: ServerEntry,
  model: string,
  settings: ModelSettings,
): PoolMember {
  const { address } = entry;
  // One chat model per number of alternatives asked (none: the default path's), made on first use.
  const chatFor = loadOncePer(
    (logprobs: number | undefined) => logprobs,
    (logprobs) => createOpenAiCompatibleChat(model, address, settings, logprobs),
  );
  return {
    provider: "openai-compatible",
    model,
    key: address.key,
    shown: address.shown,
    async slots() {
      if (entry.slots !== undefined) return entry.slots;
      let kept = askedSlots.get(address.key);
      if (kept === undefined || Date.now() - kept.at >= SLOTS_KEPT_MS) {
        kept = { at: Date.now(), slots: askServerSlots(address, settings.env) };
        askedSlots.set(address.key, kept);
      }
      return (await kept.slots) ?? settings.maxInFlight;
    },
    async invoke(messages, options) {
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      const context = { provider: "openai-compatible", model, baseUrl: address.shown, timeoutMs };
      const logprobs =
        options.logprobs === undefined ? undefined : topLogprobsAsked(options.logprobs);
      const chat = await chatFor(logprobs).catch((error: unknown) => {
        throw classifyModelError(error, context);
      });
      return invokeWithDeadline(chat, messages, {
        timeoutMs,
        signal: options.signal,
        forwardSignal: true,
        bound: settings.seed === undefined ? {} : { seed: settings.seed },
        context,
      });
    },
  };
}
