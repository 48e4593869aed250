/**
 * The models of a judge's list: an Ollama model, a pool of servers, a model of another provider
 * (its package loaded on first call), the embedded model, or a chat model the caller built. Every
 * call to a server (or to the embedded model) waits for a slot of its ceiling on calls in flight.
 */
import { resolve } from "node:path";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { createCallLane } from "./callCeiling.js";
import { classifyModelError, messageOf } from "./classifyError.js";
import { type ChatCallOptions, invokeWithDeadline } from "./deadline.js";
import { createLlamaCppChat } from "./embedded/chatLlamaCpp.js";
import { runtimeSettings } from "./embedded/llamaRuntime.js";
import {
  ModelAbortedError,
  type ModelCallError,
  type ModelErrorContext,
  ModelRequestError,
  ModelSpecError,
} from "./errors.js";
import { loadOnce, type ModelCandidate, slotWait } from "./modelCandidate.js";
import { ollamaCallSettings, ollamaParameters } from "./ollamaChat.js";
import { poolMember } from "./poolMember.js";
import { loadProviderChatModel } from "./providers.js";
import { serverKeyOf, shownServerUrl } from "./serverAddress.js";
import { parseServerList, type ServerEntry } from "./serverList.js";
import { poolCandidate } from "./serverPool.js";
import { callInSlot, type ServerSlots } from "./serverState.js";
import type { ModelSettings } from "./settings.js";
import type { ModelSpec } from "./spec.js";

/** One Ollama server, its calls waiting for a slot of its ceiling. */
function ollamaCandidate(
  entry: ServerEntry,
  model: string,
  settings: ModelSettings,
): ModelCandidate {
  const member = poolMember(entry, { provider: "ollama", model }, settings);
  const slots: ServerSlots = { key: member.key, maxInFlight: entry.slots ?? settings.maxInFlight };
  const ownLane = createCallLane(`ollama:${model}`);
  return {
    spec: `ollama:${model}`,
    provider: "ollama",
    model,
    baseUrl: member.shown,
    parameters: ollamaParameters(model, { ...settings, shownBaseUrl: member.shown }),
    async call(messages, options = {}) {
      const { signal } = options;
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      const context = { provider: "ollama", model, baseUrl: member.shown, timeoutMs };
      if (signal?.aborted) throw new ModelAbortedError(context, signal.reason);
      // A prompt too long for the window is refused before it waits for a slot.
      ollamaCallSettings(settings, messages, options, context);
      const wait = slotWait(context, { ...settings, maxInFlight: slots.maxInFlight }, signal);
      return callInSlot(slots, options.lane ?? ownLane, wait, () =>
        member.invoke(messages, { ...options, timeoutMs }),
      );
    },
  };
}

/** The servers after the spec's `@`, else the settings' (an OpenAI-compatible model has no default). */
function serversOf(spec: ModelSpec, settings: ModelSettings): readonly ServerEntry[] {
  if (spec.servers !== undefined) return parseServerList(spec.servers, "model spec");
  if (spec.provider === "openai-compatible" && !settings.serversGiven) {
    throw new ModelSpecError(
      `${spec.provider}:${spec.model}`,
      "an OpenAI-compatible model needs its server: write openai-compatible:<model>@http://host:8000/v1, or give the baseUrl or servers option",
    );
  }
  return settings.servers;
}

function serverModelCandidate(
  spec: ModelSpec & { provider: "ollama" | "openai-compatible" },
  settings: ModelSettings,
): ModelCandidate {
  const servers = serversOf(spec, settings);
  const [only] = servers;
  const judge = { provider: spec.provider, model: spec.model };
  const oneOllama = servers.length === 1 && spec.provider === "ollama";
  if (only === undefined || !oneOllama || (only.provider ?? "ollama") !== "ollama") {
    return poolCandidate(judge, servers, settings);
  }
  return ollamaCandidate(only, only.model ?? spec.model, settings);
}

/**
 * A chat model loaded on first call (a failed load is tried again by the next call); with `slots`,
 * its calls wait for a slot of that ceiling.
 */
function loadedCandidate(
  spec: ModelSpec,
  settings: ModelSettings,
  load: () => Promise<BaseChatModel>,
  loadError: (error: unknown, context: ModelErrorContext) => ModelCallError,
  slots?: () => ServerSlots,
): ModelCandidate {
  const { provider, model } = spec;
  const chatModel = loadOnce(load);
  const ownLane = createCallLane(`${provider}:${model}`);
  const embedded = provider === "llama-cpp";
  return {
    spec: `${provider}:${model}`,
    provider,
    model,
    baseUrl: undefined,
    parameters: {
      provider,
      model,
      temperature: settings.temperature,
      ...(embedded ? { seed: settings.seed } : {}),
      timeoutMs: settings.timeoutMs,
    },
    async call(messages, options = {}) {
      const chat = await chatModel().catch((error: unknown) => {
        throw loadError(error, { provider, model, timeoutMs: settings.timeoutMs });
      });
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      const context = { provider, model, timeoutMs };
      const bound: ChatCallOptions = embedded
        ? {
            ...(options.format === undefined ? {} : { format: options.format }),
            ...(options.logprobs === undefined ? {} : { logprobs: options.logprobs }),
          }
        : {};
      const invoke = () =>
        invokeWithDeadline(chat, messages, {
          timeoutMs,
          signal: options.signal,
          forwardSignal: true,
          bound,
          context,
        });
      if (slots === undefined) return invoke();
      // Loaded, so the slots' settings were read without error.
      const server = slots();
      const wait = slotWait(
        context,
        { maxInFlight: server.maxInFlight, maxQueueWaitMs: settings.maxQueueWaitMs },
        options.signal,
      );
      return callInSlot(server, options.lane ?? ownLane, wait, invoke);
    },
  };
}

export function providerCandidate(spec: ModelSpec, settings: ModelSettings): ModelCandidate {
  const { provider } = spec;
  if (provider === "ollama" || provider === "openai-compatible") {
    return serverModelCandidate({ ...spec, provider }, settings);
  }
  if (provider === "llama-cpp") {
    // A local GGUF file; the call's `format` becomes its grammar; a file that cannot load is not
    // retried; one model per process, its calls capped at the runtime's sequences.
    return loadedCandidate(
      spec,
      settings,
      () => createLlamaCppChat(spec.model, settings),
      (error, context) => new ModelRequestError(undefined, messageOf(error), context, error),
      () => ({
        key: `llama-cpp:${resolve(spec.model)}`,
        maxInFlight: runtimeSettings(settings.env).sequences,
      }),
    );
  }
  return loadedCandidate(
    spec,
    settings,
    () => loadProviderChatModel({ ...spec, provider }, settings),
    (error, context) => classifyModelError(error, context),
  );
}

function stringField(value: object, key: string): string | undefined {
  const field: unknown = (value as Record<string, unknown>)[key];
  return typeof field === "string" && field !== "" ? field : undefined;
}

function invocationParameters(chat: BaseChatModel): Record<string, unknown> {
  try {
    const params: unknown = chat.invocationParams();
    return typeof params === "object" && params !== null ? { ...params } : {};
  } catch {
    return {};
  }
}

/**
 * A chat model the caller built, used as is (`format` bound as a call option). ChatOllama gets no
 * signal in its call options (it would answer partial text); the call is still raced against the
 * deadline and the signal. A model naming its `baseUrl` shares that server's ceiling.
 */
export function suppliedCandidate(chat: BaseChatModel, settings: ModelSettings): ModelCandidate {
  const provider = chat._llmType();
  const model = stringField(chat, "model") ?? stringField(chat, "modelName") ?? provider;
  const configuredUrl = stringField(chat, "baseUrl");
  const baseUrl = configuredUrl === undefined ? undefined : shownServerUrl(configuredUrl);
  const bound: ChatCallOptions = settings.format === undefined ? {} : { format: settings.format };
  const slots: ServerSlots | undefined =
    configuredUrl === undefined
      ? undefined
      : { key: serverKeyOf(configuredUrl), maxInFlight: settings.maxInFlight };
  const ownLane = createCallLane(`${provider}:${model}`);
  return {
    spec: `${provider}:${model}`,
    provider,
    model,
    baseUrl,
    parameters: {
      ...invocationParameters(chat),
      provider,
      model,
      ...bound,
      timeoutMs: settings.timeoutMs,
    },
    call(messages, options = {}) {
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      const context = { provider, model, baseUrl, timeoutMs };
      const invoke = () =>
        invokeWithDeadline(chat, messages, {
          timeoutMs,
          signal: options.signal,
          forwardSignal: provider !== "ollama",
          bound: options.format === undefined ? bound : { ...bound, format: options.format },
          context,
        });
      if (slots === undefined) return invoke();
      const wait = slotWait(context, settings, options.signal);
      return callInSlot(slots, options.lane ?? ownLane, wait, invoke);
    },
  };
}
