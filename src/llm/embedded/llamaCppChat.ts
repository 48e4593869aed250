/**
 * The chat model of a `llama-cpp:<file.gguf>` spec, with the runtime loaded and the file checked,
 * so a machine or a file that cannot be used fails before the first prompt.
 */
import type { ModelSettings } from "../settings.js";
import { ChatLlamaCpp } from "./chatLlamaCpp.js";
import { runtimeSettings } from "./llamaRuntime.js";

/** The most tokens one judge answer may have on the embedded model (EVALGATE_LLAMA_MAX_TOKENS). */
const DEFAULT_MAX_TOKENS = 1024;

export async function createLlamaCppChat(
  modelPath: string,
  settings: ModelSettings,
): Promise<ChatLlamaCpp> {
  const maxTokens = Number(settings.env.EVALGATE_LLAMA_MAX_TOKENS ?? DEFAULT_MAX_TOKENS);
  const chat = new ChatLlamaCpp({
    modelPath,
    runtime: runtimeSettings(settings.env),
    temperature: settings.temperature,
    ...(settings.seed === undefined ? {} : { seed: settings.seed }),
    maxTokens: Number.isInteger(maxTokens) && maxTokens > 0 ? maxTokens : DEFAULT_MAX_TOKENS,
  });
  await chat.load();
  return chat;
}
