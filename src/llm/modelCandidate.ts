/** One model of a judge's list (the primary or a fallback): what a call takes and gives. */
import type { BaseMessage } from "@langchain/core/messages";
import type { CallLane } from "./callCeiling.js";
import type { OllamaFormat } from "./settings.js";

export interface ModelCallOptions {
  signal?: AbortSignal;
  /** Ollama's `format` for this call, in place of the model's; other providers ignore it. */
  format?: OllamaFormat;
  /** Alternatives per position of the answer tokens' log-probabilities; ignored where none come. */
  logprobs?: number;
  timeoutMs?: number;
  /** Whether the caller can use an answer: a pool moves a call with an unusable one elsewhere. */
  usable?: (text: string) => boolean;
  /** Whose turn the call waits for at its server's ceiling (default: the model's own lane). */
  lane?: CallLane;
  /** Told which server of a pool answered, and those the call was moved away from. */
  onServer?: (report: ServerReport) => void;
}

/** Which server of a pool answered a call, and the ones that failed it first. */
export interface ServerReport {
  spec: string;
  server: string;
  failedOver: string[];
}

export interface PoolShare {
  total: Promise<number>;
  mine: Promise<number>;
  leave(): void;
}

/** One server of a pool, as the pool calls it: no retry and no slot of its own. */
export interface PoolMember {
  readonly provider: "ollama" | "openai-compatible";
  readonly model: string;
  readonly key: string;
  readonly shown: string;
  slots(): Promise<number>;
  invoke(messages: BaseMessage[], options: ModelCallOptions): Promise<BaseMessage>;
}

export interface ModelCandidate {
  readonly spec: string;
  readonly provider: string;
  readonly model: string;
  readonly baseUrl: string | undefined;
  /** What the call is made with (temperature, seed, format, timeout…), for traces. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** A pool's calls at once across its servers; undefined for one server. */
  readonly slots?: () => Promise<number>;
  /** A pool's slots as one evaluation plans with them, shared with the other evaluations on it. */
  readonly share?: () => PoolShare;
  call(messages: BaseMessage[], options?: ModelCallOptions): Promise<BaseMessage>;
}

/** `load()` once, its promise shared by the calls; a failed load is tried again by the next call. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  const get = loadOncePer(() => undefined, load);
  return () => get(undefined);
}

/** `load(arg)` once per `keyOf(arg)`, its promise shared; a failed load is tried again next time. */
export function loadOncePer<A, T>(
  keyOf: (arg: A) => unknown,
  load: (arg: A) => Promise<T>,
): (arg: A) => Promise<T> {
  const loading = new Map<unknown, Promise<T>>();
  return (arg) => {
    const key = keyOf(arg);
    let pending = loading.get(key);
    if (pending === undefined) {
      pending = load(arg);
      loading.set(key, pending);
      pending.catch(() => loading.delete(key));
    }
    return pending;
  };
}
