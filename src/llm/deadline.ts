/**
 * Invoking a LangChain chat model with a deadline and the caller's cancellation, every failure
 * turned into a typed ModelCallError.
 */
import type {
  BaseChatModel,
  BaseChatModelCallOptions,
} from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import { classifyModelError } from "./classifyError.js";
import { ModelAbortedError, type ModelErrorContext, ModelTimeoutError } from "./errors.js";
import type { OllamaFormat } from "./settings.js";

/** Rejects as soon as `signal` fires, abandoning (but not leaking a rejection of) `pending`. */
function raceAbort<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  pending.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Call options bound for one call: Ollama's `format`, an OpenAI-compatible server's `seed`, the
 * embedded model's `logprobs` (top N).
 */
export type ChatCallOptions = Partial<BaseChatModelCallOptions> & {
  format?: OllamaFormat;
  seed?: number;
  logprobs?: number;
};

/**
 * Invokes a LangChain chat model with a deadline. The signal is forwarded to the model (so SDKs
 * can cancel their request) unless `forwardSignal` is false, and the call is raced against it.
 */
export async function invokeWithDeadline(
  chat: BaseChatModel,
  messages: BaseMessage[],
  options: {
    timeoutMs: number;
    signal: AbortSignal | undefined;
    forwardSignal: boolean;
    bound: ChatCallOptions;
    context: ModelErrorContext;
  },
): Promise<BaseMessage> {
  const { context, signal, timeoutMs } = options;
  if (signal?.aborted) throw new ModelAbortedError(context, signal.reason);
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const runnable = Object.keys(options.bound).length > 0 ? chat.withConfig(options.bound) : chat;
  try {
    const pending = runnable.invoke(messages, options.forwardSignal ? { signal: combined } : {});
    return await raceAbort(pending, combined);
  } catch (error) {
    if (signal?.aborted) throw new ModelAbortedError(context, signal.reason);
    if (timeout.aborted) throw new ModelTimeoutError(timeoutMs, context, error);
    throw classifyModelError(error, context);
  }
}
