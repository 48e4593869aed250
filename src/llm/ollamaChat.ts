/**
 * ChatOllama for one call: built with the deadline/cancellation fetch (see ollamaFetch.ts), so a
 * timeout or a dropped connection is a typed error instead of an empty answer. Building it per
 * call is cheap (no I/O) and keeps one call's cancellation away from concurrent calls: ChatOllama
 * aborts every stream of its client when one call's signal fires.
 */
import { ChatOllama } from "@langchain/ollama";
import { createOllamaFetch } from "./ollamaFetch.js";
import type { ModelSettings } from "./settings.js";

export function createOllamaChat(
  model: string,
  settings: ModelSettings,
  signal?: AbortSignal,
): ChatOllama {
  return new ChatOllama({
    model,
    baseUrl: settings.baseUrl,
    temperature: settings.temperature,
    seed: settings.seed,
    numCtx: settings.numCtx,
    keepAlive: settings.keepAlive,
    format: settings.format,
    fetch: createOllamaFetch({
      baseUrl: settings.shownBaseUrl,
      timeoutMs: settings.timeoutMs,
      signal,
      ...(settings.authorization === undefined ? {} : { authorization: settings.authorization }),
    }),
  });
}

/** The parameters an Ollama call is made with, for traces (undefined ones left out). */
export function ollamaParameters(model: string, settings: ModelSettings): Record<string, unknown> {
  const parameters: Record<string, unknown> = {
    provider: "ollama",
    model,
    baseUrl: settings.shownBaseUrl,
    temperature: settings.temperature,
    seed: settings.seed,
    numCtx: settings.numCtx,
    keepAlive: settings.keepAlive,
    format: settings.format,
    timeoutMs: settings.timeoutMs,
  };
  return Object.fromEntries(Object.entries(parameters).filter(([, value]) => value !== undefined));
}
