/**
 * The models of a judge's list: an Ollama model, a pool of servers, a model of another provider
 * (its package loaded on first call), the embedded model, or a chat model the caller built. Every
 * call to a server (or to the embedded model) waits for a slot of its ceiling on calls in flight.
 */
import { resolve } from "node:path";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { createCallLane } from "./callCeiling.js";
import {
  type ChatCallOptions,
  classifyModelError,
  invokeWithDeadline,
  messageOf,
} from "./classifyError.js";
import { createLlamaCppChat } from "./embedded/chatLlamaCpp.js";
import { runtimeSettings } from "./embedded/llamaRuntime.js";
import {
  ModelAbortedError,
  type ModelErrorContext,
  ModelRequestError,
  ModelSpecError,
} from "./errors.js";
import { loadOnce, type ModelCallOptions, type ModelCandidate } from "./modelCandidate.js";
import { contextWindowFor, ollamaMember, ollamaParameters } from "./ollamaChat.js";
import { loadProviderChatModel } from "./providers.js";
import { parseServerList, type ServerEntry, serverKeyOf, shownServerUrl } from "./serverList.js";
import { poolCandidate } from "./serverPool.js";
import { callInSlot, type ServerSlots } from "./serverState.js";
import type { ModelSettings } from "./settings.js";
import type { ModelSpec } from "./spec.js";

type CallOptions = ModelCallOptions & { timeoutMs: number };
type Context = ModelErrorContext & { timeoutMs: number };

/**
 * A candidate whose call is `prepare`d (checks, a load) before it waits for a slot of `server()`'s
 * ceiling (none: it does not wait); a cancelled call is refused before both.
 */
function slottedCandidate(
  about: Omit<ModelCandidate, "spec" | "call">,
  settings: ModelSettings,
  prepare: (
    messages: BaseMessage[],
    options: CallOptions,
    context: Context,
  ) => (() => Promise<BaseMessage>) | Promise<() => Promise<BaseMessage>>,
  server?: () => ServerSlots | undefined,
): ModelCandidate {
  const spec = `${about.provider}:${about.model}`;
  const ownLane = createCallLane(spec);
  return {
    ...about,
    spec,
    async call(messages, given = {}) {
      const options = { ...given, timeoutMs: given.timeoutMs ?? settings.timeoutMs };
      const { provider, model, baseUrl } = about;
      const context = { provider, model, baseUrl, timeoutMs: options.timeoutMs };
      if (options.signal?.aborted) throw new ModelAbortedError(context, options.signal.reason);
      const invoke = await prepare(messages, options, context);
      const slots = server?.();
      if (slots === undefined) return invoke();
      const wait = { context, maxQueueWaitMs: settings.maxQueueWaitMs, signal: options.signal };
      return callInSlot(slots, options.lane ?? ownLane, wait, invoke);
    },
  };
}

/** One Ollama server, its calls waiting for a slot of its ceiling. */
function ollamaCandidate(
  entry: ServerEntry,
  model: string,
  settings: ModelSettings,
): ModelCandidate {
  const member = ollamaMember(entry, model, settings);
  const slots = { key: member.key, maxInFlight: entry.slots ?? settings.maxInFlight };
  const about = {
    provider: "ollama",
    model,
    baseUrl: member.shown,
    parameters: ollamaParameters(model, { ...settings, shownBaseUrl: member.shown }),
  };
  return slottedCandidate(
    about,
    settings,
    (messages, options, context) => {
      // A prompt too long for the window is refused before it waits for a slot.
      contextWindowFor(messages, settings.numCtx, context);
      return () => member.invoke(messages, options);
    },
    () => slots,
  );
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

function deadlineCall(
  chat: BaseChatModel,
  messages: BaseMessage[],
  options: CallOptions,
  context: Context,
  forwardSignal: boolean,
  bound: ChatCallOptions,
): () => Promise<BaseMessage> {
  const { timeoutMs, signal } = options;
  return () =>
    invokeWithDeadline(chat, messages, { timeoutMs, signal, forwardSignal, bound, context });
}

export function providerCandidate(spec: ModelSpec, settings: ModelSettings): ModelCandidate {
  const { provider, model } = spec;
  if (provider === "ollama" || provider === "openai-compatible") {
    const servers = serversOf(spec, settings);
    const [only] = servers;
    if (
      servers.length === 1 &&
      provider === "ollama" &&
      (only?.provider ?? "ollama") === "ollama"
    ) {
      return ollamaCandidate(only as ServerEntry, only?.model ?? model, settings);
    }
    return poolCandidate({ provider, model }, servers, settings);
  }
  // A local GGUF file; the call's `format` becomes its grammar; a file that cannot load is not
  // retried; one model per process, its calls capped at the runtime's sequences.
  const embedded = provider === "llama-cpp";
  // Loaded on first call; a failed load is tried again by the next call.
  const chatModel = loadOnce(() =>
    embedded
      ? createLlamaCppChat(model, settings)
      : loadProviderChatModel({ ...spec, provider }, settings),
  );
  const about = {
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
  };
  return slottedCandidate(
    about,
    settings,
    async (messages, options, context) => {
      const chat = await chatModel().catch((error: unknown) => {
        throw embedded
          ? new ModelRequestError(undefined, messageOf(error), context, error)
          : classifyModelError(error, context);
      });
      const { format, logprobs } = options;
      const bound: ChatCallOptions = embedded
        ? {
            ...(format === undefined ? {} : { format }),
            ...(logprobs === undefined ? {} : { logprobs }),
          }
        : {};
      return deadlineCall(chat, messages, options, context, true, bound);
    },
    // Loaded, so the runtime's settings were read without error.
    () =>
      embedded
        ? {
            key: `llama-cpp:${resolve(model)}`,
            maxInFlight: runtimeSettings(settings.env).sequences,
          }
        : undefined,
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
  const bound: ChatCallOptions = settings.format === undefined ? {} : { format: settings.format };
  const about = {
    provider,
    model,
    baseUrl: configuredUrl === undefined ? undefined : shownServerUrl(configuredUrl),
    parameters: {
      ...invocationParameters(chat),
      provider,
      model,
      ...bound,
      timeoutMs: settings.timeoutMs,
    },
  };
  const slots =
    configuredUrl === undefined
      ? undefined
      : { key: serverKeyOf(configuredUrl), maxInFlight: settings.maxInFlight };
  return slottedCandidate(
    about,
    settings,
    (messages, options, context) =>
      deadlineCall(chat, messages, options, context, provider !== "ollama", {
        ...bound,
        ...(options.format === undefined ? {} : { format: options.format }),
      }),
    () => slots,
  );
}
