/**
 * OpenAI-compatible model servers (vLLM, llama.cpp server, LM Studio, …): spoken to through
 * ChatOpenAI from @langchain/openai, loaded on first use (a ProviderUnavailableError naming
 * `npm install @langchain/openai` when it is missing). The base URL is the server's, never
 * OpenAI's: nothing of the OpenAI environment (OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_ORG_ID,
 * OPENAI_PROJECT_ID, a LangSmith gateway) is sent to it. Its key is OPENAI_COMPATIBLE_API_KEY
 * (sent as a bearer token); credentials in the URL (`http://user:pass@host:8000/v1`) are sent as
 * `Authorization: Basic` instead. Structured output is not asked for (servers differ in what they
 * accept): the prompt states the answer format and every answer is parsed fail-closed.
 *
 * llama.cpp's server says how many requests it serves at once (`GET /props` → `total_slots`);
 * that is the server's ceiling when the configuration names none. vLLM says nothing: configured.
 *
 * Token log-probabilities (probability-weighted scores) are a setting of the ChatOpenAI instance,
 * not of a call: a call that asks for them goes to a second instance made with `logprobs: true,
 * topLogprobs: N`, so the default path's requests stay as they were.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { z } from "zod";
import { rememberSecret } from "../redact.js";
import { readUntrustedJson } from "../untrusted/json.js";
import { chatModelClass } from "./providers.js";
import { readBoundedText } from "./responseBody.js";
import type { ServerAddress } from "./serverAddress.js";
import { MAX_IN_FLIGHT_LIMIT } from "./serverState.js";
import type { ModelEnv } from "./spec.js";
import { topLogprobsAsked } from "./tokenLogprobs.js";

export const OPENAI_COMPATIBLE_PACKAGE = "@langchain/openai";
/** The environment variable holding an OpenAI-compatible server's API key. */
export const OPENAI_COMPATIBLE_API_KEY_ENV = "OPENAI_COMPATIBLE_API_KEY";
/** Sent as the key when none is set (the client needs one; a server without keys ignores it). */
const NO_KEY = "no-key";
/** How long asking a server for its slots may take. */
const SLOTS_QUERY_TIMEOUT_MS = 2_000;
/** The most of a `/props` answer read. */
const MAX_PROPS_BYTES = 256 * 1024;

/** The key set for OpenAI-compatible servers, if any. */
export function openAiCompatibleKey(env: ModelEnv): string | undefined {
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

/**
 * The chat model for one server and model: no retries of its own (the pool and ours retry), not
 * streamed; with `logprobs`, every answer carries its tokens' log-probabilities with that many
 * alternatives (1 to MAX_TOP_LOGPROBS) in `response_metadata.logprobs.content`.
 */
export async function createOpenAiCompatibleChat(
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

/** Where llama.cpp's server answers `/props`: its root, the URL without a trailing `/v1`. */
export function propsUrl(address: ServerAddress): string {
  return `${address.url.replace(/\/v1$/i, "")}/props`;
}

/**
 * The requests the server serves at once, when it says (llama.cpp: `total_slots` of `GET
 * /props`); undefined when it does not answer that within two seconds (vLLM, LM Studio, …).
 */
export async function askServerSlots(
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
