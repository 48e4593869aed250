/** One server of a pool, as the pool calls it: no retry and no slot of its own. */
import type { BaseMessage } from "@langchain/core/messages";
import { classifyModelError } from "./classifyError.js";
import { invokeWithDeadline } from "./deadline.js";
import { loadOncePer, type ModelCallOptions } from "./modelCandidate.js";
import { invokeOllamaChat, ollamaCallSettings } from "./ollamaChat.js";
import { askServerSlots, createOpenAiCompatibleChat } from "./openaiCompatible.js";
import type { ServerAddress } from "./serverAddress.js";
import type { ServerEntry } from "./serverList.js";
import type { ModelSettings } from "./settings.js";
import type { PoolProvider } from "./spec.js";
import { topLogprobsAsked } from "./tokenLogprobs.js";

export interface PoolMember {
  readonly provider: PoolProvider;
  readonly model: string;
  readonly key: string;
  readonly shown: string;
  slots(): Promise<number>;
  invoke(messages: BaseMessage[], options: ModelCallOptions): Promise<BaseMessage>;
}

/** How long an answer of a server about its slots is kept (5 minutes), per server. */
const SLOTS_KEPT_MS = 300_000;
const askedSlots = new Map<string, { at: number; slots: Promise<number | undefined> }>();

function serverSlots(address: ServerAddress, settings: ModelSettings): Promise<number | undefined> {
  const kept = askedSlots.get(address.key);
  if (kept !== undefined && Date.now() - kept.at < SLOTS_KEPT_MS) return kept.slots;
  const slots = askServerSlots(address, settings.env);
  askedSlots.set(address.key, { at: Date.now(), slots });
  return slots;
}

function memberContext(entry: ServerEntry, provider: string, model: string, timeoutMs: number) {
  return { provider, model, baseUrl: entry.address.shown, timeoutMs };
}

function ollamaMember(entry: ServerEntry, model: string, settings: ModelSettings): PoolMember {
  const { address } = entry;
  return {
    provider: "ollama",
    model,
    key: address.key,
    shown: address.shown,
    slots: () => Promise.resolve(entry.slots ?? settings.maxInFlight),
    async invoke(messages, options) {
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      const context = memberContext(entry, "ollama", model, timeoutMs);
      const server: ModelSettings = {
        ...settings,
        baseUrl: address.url,
        shownBaseUrl: address.shown,
        authorization: address.authorization,
      };
      const callSettings = ollamaCallSettings(server, messages, options, context);
      return invokeOllamaChat(model, callSettings, messages, options, context);
    },
  };
}

function openAiCompatibleMember(
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
      return entry.slots ?? (await serverSlots(address, settings)) ?? settings.maxInFlight;
    },
    async invoke(messages, options) {
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      const context = memberContext(entry, "openai-compatible", model, timeoutMs);
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

export function poolMember(
  entry: ServerEntry,
  judge: { provider: PoolProvider; model: string },
  settings: ModelSettings,
): PoolMember {
  const provider = entry.provider ?? judge.provider;
  const model = entry.model ?? judge.model;
  return provider === "ollama"
    ? ollamaMember(entry, model, settings)
    : openAiCompatibleMember(entry, model, settings);
}
