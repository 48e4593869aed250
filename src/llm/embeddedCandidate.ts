/**
 * A local GGUF file on the embedded runtime (`llama-cpp:<file.gguf>`), loaded on first call; the
 * call's `format` becomes its grammar. A runtime or file that cannot load is not retried. Its
 * calls in flight are capped at the runtime's sequences (EVALGATE_LLAMA_SEQUENCES, default 2),
 * with the same fair queue as a server's: the model is one per process, whoever calls it.
 */
import { resolve } from "node:path";
import { createCallLane } from "./callCeiling.js";
import { messageOf } from "./classifyError.js";
import { invokeWithDeadline } from "./deadline.js";
import { createLlamaCppChat } from "./embedded/chatLlamaCpp.js";
import { runtimeSettings } from "./embedded/llamaRuntime.js";
import { ModelRequestError } from "./errors.js";
import { contextOf, loadOnce, type ModelCandidate, slotWait } from "./modelCandidate.js";
import { callInSlot } from "./serverState.js";
import type { ModelSettings } from "./settings.js";
import type { ModelSpec } from "./spec.js";

export function llamaCppCandidate(spec: ModelSpec, settings: ModelSettings): ModelCandidate {
  const context = contextOf({
    provider: "llama-cpp",
    model: spec.model,
    timeoutMs: settings.timeoutMs,
  });
  const ownLane = createCallLane(`llama-cpp:${spec.model}`);
  const chatModel = loadOnce(() => createLlamaCppChat(spec.model, settings));
  return {
    spec: `llama-cpp:${spec.model}`,
    provider: "llama-cpp",
    model: spec.model,
    baseUrl: undefined,
    parameters: {
      provider: "llama-cpp",
      model: spec.model,
      temperature: settings.temperature,
      seed: settings.seed,
      timeoutMs: settings.timeoutMs,
    },
    async call(messages, options = {}) {
      const chat = await chatModel().catch((error: unknown) => {
        throw new ModelRequestError(undefined, messageOf(error), context, error);
      });
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      const callContext = { ...context, timeoutMs };
      // Loaded, so the runtime settings were read without error.
      const slots = {
        key: `llama-cpp:${resolve(spec.model)}`,
        maxInFlight: runtimeSettings(settings.env).sequences,
      };
      const wait = slotWait(
        callContext,
        { maxInFlight: slots.maxInFlight, maxQueueWaitMs: settings.maxQueueWaitMs },
        options.signal,
      );
      return callInSlot(slots, options.lane ?? ownLane, wait, () =>
        invokeWithDeadline(chat, messages, {
          timeoutMs,
          signal: options.signal,
          forwardSignal: true,
          bound: {
            ...(options.format === undefined ? {} : { format: options.format }),
            ...(options.logprobs === undefined ? {} : { logprobs: options.logprobs }),
          },
          context: callContext,
        }),
      );
    },
  };
}
