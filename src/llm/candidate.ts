/**
 * The models of a judge's list: an Ollama model (through ChatOllama with the deadline fetch), a
 * model of another provider (its package loaded on first call), the embedded model, or a chat
 * model the caller built. Every call to a model server waits for a slot of that server's ceiling
 * on calls in flight (serverCeilings.ts), retries and fallbacks included.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { createCallLane } from "./callCeiling.js";
import { classifyModelError } from "./classifyError.js";
import { type ChatCallOptions, invokeWithDeadline } from "./deadline.js";
import { llamaCppCandidate } from "./embeddedCandidate.js";
import { ModelAbortedError, ModelSpecError } from "./errors.js";
import { contextOf, loadOnce, type ModelCandidate, slotWait } from "./modelCandidate.js";
import { invokeOllamaChat, ollamaCallSettings, ollamaParameters } from "./ollamaChat.js";
import { loadProviderChatModel } from "./providers.js";
import { serverKeyOf, shownServerUrl } from "./serverAddress.js";
import { parseServerList, type ServerEntry } from "./serverList.js";
import { poolCandidate } from "./serverPool.js";
import { callInSlot, type ServerSlots } from "./serverState.js";
import type { ModelSettings } from "./settings.js";
import type { ModelSpec } from "./spec.js";

export type { ModelCallOptions, ModelCandidate } from "./modelCandidate.js";

/** An Ollama model, called through ChatOllama with the deadline fetch, within the server's ceiling. */
export function ollamaCandidate(spec: ModelSpec, settings: ModelSettings): ModelCandidate {
  const context = contextOf({
    provider: "ollama",
    model: spec.model,
    baseUrl: settings.shownBaseUrl,
    timeoutMs: settings.timeoutMs,
  });
  const slots: ServerSlots = {
    key: serverKeyOf(settings.baseUrl),
    maxInFlight: settings.maxInFlight,
  };
  const ownLane = createCallLane(`ollama:${spec.model}`);
  return {
    spec: `ollama:${spec.model}`,
    provider: "ollama",
    model: spec.model,
    baseUrl: settings.shownBaseUrl,
    parameters: ollamaParameters(spec.model, settings),
    async call(messages, options = {}) {
      const { signal } = options;
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      const callContext = { ...context, timeoutMs };
      if (signal?.aborted) throw new ModelAbortedError(callContext, signal.reason);
      // A prompt too long for the window is refused before it waits for a slot.
      const callSettings = ollamaCallSettings(settings, messages, options, callContext);
      const wait = slotWait(callContext, settings, signal);
      return callInSlot(slots, options.lane ?? ownLane, wait, () =>
        invokeOllamaChat(spec.model, callSettings, messages, options, callContext),
      );
    },
  };
}

/**
 * The servers of an Ollama or OpenAI-compatible model: those its spec names after `@`, else
 * those of the settings (for an OpenAI-compatible model only when the options gave them: it has
 * no default server).
 */
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

/**
 * An Ollama model on one server (the ceiling of that server), or a pool: several servers, or any
 * OpenAI-compatible one (serverPool.ts).
 */
function serverModelCandidate(
  spec: ModelSpec & { provider: "ollama" | "openai-compatible" },
  settings: ModelSettings,
): ModelCandidate {
  const servers = serversOf(spec, settings);
  const [only] = servers;
  const judge = { provider: spec.provider, model: spec.model };
  if (servers.length > 1 || only === undefined || spec.provider !== "ollama") {
    return poolCandidate(judge, servers, settings);
  }
  if (only.provider !== undefined && only.provider !== "ollama") {
    return poolCandidate(judge, servers, settings);
  }
  const { address } = only;
  return ollamaCandidate(
    { provider: "ollama", model: only.model ?? spec.model },
    {
      ...settings,
      baseUrl: address.url,
      shownBaseUrl: address.shown,
      authorization: address.authorization,
      maxInFlight: only.slots ?? settings.maxInFlight,
    },
  );
}

/** A model of another provider, its package imported on first use. */
export function providerCandidate(spec: ModelSpec, settings: ModelSettings): ModelCandidate {
  if (spec.provider === "ollama" || spec.provider === "openai-compatible") {
    return serverModelCandidate({ ...spec, provider: spec.provider }, settings);
  }
  if (spec.provider === "llama-cpp") return llamaCppCandidate(spec, settings);
  const providerSpec = { provider: spec.provider, model: spec.model };
  const context = contextOf({ ...providerSpec, timeoutMs: settings.timeoutMs });
  const chatModel = loadOnce(() => loadProviderChatModel(providerSpec, settings));
  return {
    spec: `${spec.provider}:${spec.model}`,
    provider: spec.provider,
    model: spec.model,
    baseUrl: undefined,
    parameters: {
      provider: spec.provider,
      model: spec.model,
      temperature: settings.temperature,
      timeoutMs: settings.timeoutMs,
    },
    async call(messages, options = {}) {
      const chat = await chatModel().catch((error: unknown) => {
        throw classifyModelError(error, context);
      });
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      return invokeWithDeadline(chat, messages, {
        timeoutMs,
        signal: options.signal,
        forwardSignal: true,
        bound: {},
        context: { ...context, timeoutMs },
      });
    },
  };
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
 * A chat model the caller built, used as is. `format`, when set, is bound as a call option.
 * ChatOllama instances get no signal in their call options (see ollamaCandidate); the call is
 * still raced against the deadline and the caller's signal. A model that names its server
 * (`baseUrl`, as ChatOllama does) shares that server's ceiling on calls in flight.
 */
export function suppliedCandidate(chat: BaseChatModel, settings: ModelSettings): ModelCandidate {
  const provider = chat._llmType();
  const model = stringField(chat, "model") ?? stringField(chat, "modelName") ?? provider;
  const configuredUrl = stringField(chat, "baseUrl");
  const baseUrl = configuredUrl === undefined ? undefined : shownServerUrl(configuredUrl);
  const context = contextOf({ provider, model, baseUrl, timeoutMs: settings.timeoutMs });
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
      const callContext = { ...context, timeoutMs };
      const invoke = () =>
        invokeWithDeadline(chat, messages, {
          timeoutMs,
          signal: options.signal,
          forwardSignal: provider !== "ollama",
          bound: options.format === undefined ? bound : { ...bound, format: options.format },
          context: callContext,
        });
      if (slots === undefined) return invoke();
      const wait = slotWait(callContext, settings, options.signal);
      return callInSlot(slots, options.lane ?? ownLane, wait, invoke);
    },
  };
}
