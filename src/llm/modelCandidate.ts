/**
 * One model of a judge's list (the primary or a fallback): what a call to it takes and gives, and
 * the wait for a slot of its server's ceiling on calls in flight (serverCeilings.ts).
 */
import type { BaseMessage } from "@langchain/core/messages";
import type { CallLane, SlotWait } from "./callCeiling.js";
import { ModelAbortedError, type ModelErrorContext, ModelUnavailableError } from "./errors.js";
import type { OllamaFormat } from "./settings.js";

export interface ModelCallOptions {
  /** The caller's cancellation; the call then fails with ModelAbortedError. */
  signal?: AbortSignal;
  /**
   * Structured output for this call (Ollama's `format`: "json" or a JSON Schema), in place of the
   * model's own setting. Providers without such an option ignore it (the prompt still asks).
   */
  format?: OllamaFormat;
  /**
   * Ask for the answer tokens' log-probabilities with this many alternatives per position
   * (probability-weighted scores). Ollama and OpenAI-compatible servers are asked; the embedded
   * runtime computes them by one more evaluation of the answer's tokens; other providers ignore
   * it, and the answer then carries none.
   */
  logprobs?: number;
  /** The deadline of this call, in place of the model's own (the caller's timeout). */
  timeoutMs?: number;
  /**
   * Whether an answer's text is one the caller can use (a judge: it parses). A pool of servers
   * moves a call whose answer is not (or is empty) to another server and takes the server that
   * gave it out for a while; with no other server left, the answer is returned as it is.
   */
  usable?: (text: string) => boolean;
  /**
   * Whose turn the call waits for at its server's ceiling: the calls of one lane (one evaluation)
   * go in order, lanes take turns. Default: the model's own lane.
   */
  lane?: CallLane;
  /**
   * Told which server answered, when the model is a pool of servers, and the servers the call
   * was moved away from (each with why).
   */
  onServer?: (report: ServerReport) => void;
}

/** Which server of a pool answered a call, and the ones that failed it first. */
export interface ServerReport {
  /** The `provider:model` of the pool that answered. */
  spec: string;
  server: string;
  failedOver: string[];
}

export interface ModelCandidate {
  /** `provider:model` (for a supplied chat model: its LLM type and model name). */
  readonly spec: string;
  readonly provider: string;
  readonly model: string;
  /** The server, where the provider has one we configure (Ollama). */
  readonly baseUrl: string | undefined;
  /** What the call is made with (temperature, seed, format, timeout…), for traces. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /**
   * The calls it takes at once across its servers, when it is a pool (the slots of every server,
   * some asked of the server); undefined for one server and a supplied chat model.
   */
  readonly slots?: () => Promise<number>;
  /**
   * A pool's slots as one evaluation should plan with them: the evaluations on the same servers
   * share them (leave() when the evaluation is done with them).
   */
  readonly share?: () => {
    total: Promise<number>;
    mine: Promise<number>;
    leave(): void;
  };
  /** One call, no retry. Rejects with a ModelCallError. */
  call(messages: BaseMessage[], options?: ModelCallOptions): Promise<BaseMessage>;
}

export function contextOf(candidate: {
  provider: string;
  model: string;
  baseUrl?: string;
  timeoutMs: number;
}): ModelErrorContext {
  return {
    provider: candidate.provider,
    model: candidate.model,
    baseUrl: candidate.baseUrl,
    timeoutMs: candidate.timeoutMs,
  };
}

/**
 * How a call waits for a slot: it leaves the queue when the caller's signal fires
 * (ModelAbortedError) and gives up after `maxQueueWaitMs` (ModelUnavailableError "busy", not
 * retried, its message saying what the ceiling is).
 */
export function slotWait(
  context: ModelErrorContext,
  limits: { maxInFlight: number; maxQueueWaitMs: number },
  signal: AbortSignal | undefined,
  ceiling = `at most ${limits.maxInFlight} calls are in flight to it at once (maxInFlight, EVALGATE_MAX_IN_FLIGHT)`,
): SlotWait {
  return {
    ...(signal === undefined ? {} : { signal }),
    maxWaitMs: limits.maxQueueWaitMs,
    onAbort: (reason) => new ModelAbortedError(context, reason),
    onWaitTooLong: (waitedMs, ahead) =>
      new ModelUnavailableError(
        "busy",
        `waited ${waitedMs} ms behind ${ahead} queued calls; ${ceiling}`,
        context,
      ),
  };
}

/** `load()` once, its promise shared by the calls; a failed load is tried again by the next call. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
