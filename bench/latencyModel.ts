/**
 * LatencyChatModel: a LangChain chat model that answers like a judge (see latencyAnswers.ts) and
 * takes as long as a local LLM server would. Each request's service time is
 *
 *   fixedMs + promptTokens × perPromptTokenMs + outputTokens × perOutputTokenMs
 *
 * (tokens counted with gpt-tokenizer, o200k), and the server has N slots: at most N requests are
 * served at once, the rest wait in arrival order. Every call is recorded — arrival, slot start,
 * end, queue wait, modelled and measured service time, tokens — and answers carry
 * `usage_metadata`. With every delay 0 no timer is set at all, so the model costs only its own
 * prompt reading and answer writing, which is measured separately (`selfMs`).
 *
 * Benchmark infrastructure, not a test double for the project's tests.
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { type ComposedAnswer, composeAnswer, type PromptMessage } from "./latencyAnswers.js";
import { ServerSlots } from "./latencySlots.js";

/** How long a request takes on the modelled server. */
export interface LatencyProfile {
  fixedMs: number;
  perPromptTokenMs: number;
  perOutputTokenMs: number;
}

/** A 7B model on one local GPU: prompt reading is cheap, generation is what costs. */
export const LOCAL_7B_GPU: LatencyProfile = {
  fixedMs: 150,
  perPromptTokenMs: 0.2,
  perOutputTokenMs: 15,
};

/** No latency at all: the model answers as soon as it has written its answer. */
export const ZERO_LATENCY: LatencyProfile = {
  fixedMs: 0,
  perPromptTokenMs: 0,
  perOutputTokenMs: 0,
};

/** A profile with every delay divided by `divisor` (so a benchmark finishes quickly). */
export function scaleProfile(profile: LatencyProfile, divisor: number): LatencyProfile {
  return {
    fixedMs: profile.fixedMs / divisor,
    perPromptTokenMs: profile.perPromptTokenMs / divisor,
    perOutputTokenMs: profile.perOutputTokenMs / divisor,
  };
}

export function serviceTimeMs(
  profile: LatencyProfile,
  promptTokens: number,
  outputTokens: number,
): number {
  return (
    profile.fixedMs +
    promptTokens * profile.perPromptTokenMs +
    outputTokens * profile.perOutputTokenMs
  );
}

/** One request as the modelled server saw it; times in ms since the model's epoch. */
export interface LatencyCallRecord {
  index: number;
  purpose: ComposedAnswer["purpose"];
  /** Criterion ids (batch) or the criterion title (single prompt). */
  answered: string[];
  /** When `_generate` was entered. */
  arrivalMs: number;
  /** When the request joined the slot queue (after the model read the prompt). */
  enqueuedMs: number;
  /** When a slot started serving it. */
  startMs: number;
  endMs: number;
  queueWaitMs: number;
  /** The service time the profile asks for. */
  modelledServiceMs: number;
  /** end − start as measured (timers overshoot a little). */
  serviceMs: number;
  promptTokens: number;
  outputTokens: number;
}

export interface LatencyChatModelFields extends BaseChatModelParams, Partial<LatencyProfile> {
  /** Parallel server slots (default 4). */
  slots?: number;
  /** Reported as the model name (default "latency-7b"). */
  model?: string;
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const deadline = performance.now() + ms;
    let timer: NodeJS.Timeout;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    // Node may fire a timer up to a millisecond early; wait again for what is left.
    const arm = (left: number) => {
      timer = setTimeout(() => {
        const rest = deadline - performance.now();
        if (rest > 0.05) {
          arm(rest);
          return;
        }
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, left);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    arm(ms);
  });
}

const TOKEN_CACHE_LIMIT = 512;

export class LatencyChatModel extends BaseChatModel {
  readonly model: string;
  /** How long requests take (LangChain's BaseChatModel has its own `profile`). */
  readonly latency: LatencyProfile;
  readonly slots: ServerSlots;
  readonly records: LatencyCallRecord[] = [];
  /** Time spent inside the model reading prompts and writing answers (not modelled latency). */
  selfMs = 0;
  private epoch = performance.now();
  private readonly tokenCache = new Map<string, number>();

  static override lc_name(): string {
    return "LatencyChatModel";
  }

  constructor(fields: LatencyChatModelFields = {}) {
    super(fields);
    this.model = fields.model ?? "latency-7b";
    this.latency = {
      fixedMs: fields.fixedMs ?? LOCAL_7B_GPU.fixedMs,
      perPromptTokenMs: fields.perPromptTokenMs ?? LOCAL_7B_GPU.perPromptTokenMs,
      perOutputTokenMs: fields.perOutputTokenMs ?? LOCAL_7B_GPU.perOutputTokenMs,
    };
    this.slots = new ServerSlots(fields.slots ?? 4);
  }

  _llmType(): string {
    return "latency";
  }

  override invocationParams(): Record<string, unknown> {
    return { model: this.model, slots: this.slots.count, ...this.latency };
  }

  /** Forgets the recorded calls and restarts the clock (between benchmark runs). */
  reset(): void {
    this.records.length = 0;
    this.selfMs = 0;
    this.slots.maxBusy = 0;
    this.epoch = performance.now();
  }

  /** o200k tokens of a text; repeated prompts are counted once. */
  countTokens(text: string): number {
    const known = this.tokenCache.get(text);
    if (known !== undefined) return known;
    const count = encode(text).length;
    if (this.tokenCache.size >= TOKEN_CACHE_LIMIT) this.tokenCache.clear();
    this.tokenCache.set(text, count);
    return count;
  }

  private now(): number {
    return performance.now() - this.epoch;
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const entered = performance.now();
    const arrivalMs = this.now();
    const read: PromptMessage[] = messages.map((m) => ({ role: m.getType(), text: m.text }));
    const answer = composeAnswer(read);
    const promptTokens = read.reduce((sum, m) => sum + this.countTokens(m.text), 0);
    const outputTokens = this.countTokens(answer.text);
    const modelledServiceMs = serviceTimeMs(this.latency, promptTokens, outputTokens);
    this.selfMs += performance.now() - entered;

    const signal: BaseChatModelCallOptions["signal"] = options.signal;
    const enqueuedMs = this.now();
    await this.slots.acquire(signal);
    const startMs = this.now();
    try {
      if (modelledServiceMs > 0) await delay(modelledServiceMs, signal);
    } finally {
      this.slots.release();
    }
    const endMs = this.now();

    const built = performance.now();
    this.records.push({
      index: this.records.length,
      purpose: answer.purpose,
      answered: answer.answered,
      arrivalMs,
      enqueuedMs,
      startMs,
      endMs,
      queueWaitMs: startMs - enqueuedMs,
      modelledServiceMs,
      serviceMs: endMs - startMs,
      promptTokens,
      outputTokens,
    });
    const message = new AIMessage({
      content: answer.text,
      usage_metadata: {
        input_tokens: promptTokens,
        output_tokens: outputTokens,
        total_tokens: promptTokens + outputTokens,
      },
      response_metadata: {
        model_name: this.model,
        model_provider: "latency",
        finish_reason: "stop",
      },
    });
    this.selfMs += performance.now() - built;
    return {
      generations: [{ text: answer.text, message }],
      llmOutput: {
        tokenUsage: {
          promptTokens,
          completionTokens: outputTokens,
          totalTokens: promptTokens + outputTokens,
        },
      },
    };
  }
}
