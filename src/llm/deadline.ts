/** Invoking a LangChain chat model with a deadline and cancellation, failures typed. */
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

/** Options bound for one call: Ollama's `format`, a server's `seed`, the embedded `logprobs`. */
export type ChatCallOptions = Partial<BaseChatModelCallOptions> & {
  format?: OllamaFormat;
  seed?: number;
  logprobs?: number;
};

/** The signal is forwarded unless `forwardSignal` is false; the call is raced against it. */
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
