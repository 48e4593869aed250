/**
 * A LangChain chat model that answers from a script, for testing code that calls a judge without a
 * real model. It is a real `BaseChatModel`: it works with `.invoke`, `.withRetry()`,
 * `.withConfig({...})` (bound call options such as `format` are recorded), inside
 * `RunnableSequence`, and as a model given to `createChatModel` / `invokeJudge`.
 *
 * Script: a list of steps consumed one per call, in order. A step is
 * - a string: the answer;
 * - an Error: thrown by that call (to exercise retries and fallbacks);
 * - a function `(messages, callNumber) => string`: computes the answer;
 * - `{ reply, delayMs?, hold? }`: one of the above, answered after a delay, or (`hold: true`) held
 *   at the gate until the test calls `release()`; the call's AbortSignal cancels either wait.
 * When the script is used up, `responder` answers; without one, the call throws
 * ScriptExhaustedError (a test that calls more often than it planned fails loudly).
 *
 * The injection guard's prompts are answered as users' models answer them (the guard is on by
 * default): its own call gets "no injection" (CLEAN_GUARD_ANSWER) at once — no script step, no
 * delay, no hold — and is recorded in `guardCalls`, not `calls`; a judging call that carries its
 * question (grouped and batch mode) gets that answer as the screening line before the scripted
 * one (guardAnswers.ts). `guard` scripts another answer for the guard (a string, a responder, an
 * Error that fails its call), or `"script"` lets the script and responder answer its prompts
 * like any other call, untouched.
 *
 * Every call is recorded in `calls`: the messages as plain `{ role, content }` and the call
 * options (bound ones included; the AbortSignal only as `hadSignal`). Answers carry
 * `usage_metadata` (word counts: input = words of all messages, output = words of the answer)
 * and `response_metadata.model_name`.
 *
 * Concurrency is proven by counting, not by clocks: `inFlight` / `maxInFlight` count the calls
 * inside the model at once, `held` those waiting at the gate (`hold: true` in the fields holds
 * every call), `aborted` those whose signal cut a wait short, and `waitFor(condition)` resolves as
 * soon as a condition on these counts holds.
 *
 * Example:
 *   const model = new ScriptedChatModel({ script: [new Error("boom"), judgeAnswer({ score: 0.9 })] });
 *   const answer = await model.withRetry({ stopAfterAttempt: 2 }).invoke("Rate this");
 *   model.calls.length; // 2
 */
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, ChatMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import {
  asksScreening,
  CLEAN_GUARD_ANSWER,
  isGuardCall,
  withScreeningLine,
} from "./guardAnswers.js";

/** A message as the scripted model saw it. */
export interface RecordedMessage {
  role: string;
  content: string;
}

export interface RecordedCall {
  messages: RecordedMessage[];
  /** Call options (bound and per call), without the AbortSignal. */
  options: Record<string, unknown>;
  hadSignal: boolean;
}

export type ScriptedResponder = (
  messages: RecordedMessage[],
  callNumber: number,
) => string | Promise<string>;

export type ScriptedReply = string | Error | ScriptedResponder;
export type ScriptStep = ScriptedReply | { reply: ScriptedReply; delayMs?: number; hold?: boolean };

export interface ScriptedChatModelCallOptions extends BaseChatModelCallOptions {
  /** Ollama-style output format, accepted (and recorded) like ChatOllama accepts it. */
  format?: string | Record<string, unknown>;
}

export interface ScriptedChatModelFields extends BaseChatModelParams {
  script?: readonly ScriptStep[];
  /** Answers every call once the script is used up. */
  responder?: ScriptedResponder;
  /** Reported as `response_metadata.model_name` (default "scripted-judge"). */
  model?: string;
  /** Delay before every answer, in ms (a step's own delayMs replaces it). */
  delayMs?: number;
  /** Hold every call at the gate until `release()` (a step's own `hold` replaces it). */
  hold?: boolean;
  /**
   * The injection guard's answer (default CLEAN_GUARD_ANSWER), or "script": its prompts are
   * answered by the script and responder like any other call.
   */
  guard?: ScriptedReply | "script";
}

/** The script had no step left and no responder was given. */
export class ScriptExhaustedError extends Error {
  constructor(
    readonly model: string,
    readonly callNumber: number,
  ) {
    super(`ScriptedChatModel "${model}": call ${callNumber} has no scripted answer left`);
    this.name = "ScriptExhaustedError";
  }
}

const ROLE_BY_TYPE: Record<string, string> = {
  human: "user",
  ai: "assistant",
  system: "system",
  tool: "tool",
  function: "function",
};

function toRecorded(message: BaseMessage): RecordedMessage {
  const type = message.getType();
  const role = ChatMessage.isInstance(message) ? message.role : (ROLE_BY_TYPE[type] ?? type);
  return { role, content: message.text };
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

/** A call waiting at the gate; `go` lets it answer. */
interface HeldCall {
  go: () => void;
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export class ScriptedChatModel extends BaseChatModel<ScriptedChatModelCallOptions> {
  readonly model: string;
  readonly calls: RecordedCall[] = [];
  /** The injection guard's own calls, answered by `guard` (not in `calls`). */
  readonly guardCalls: RecordedCall[] = [];
  private readonly script: ScriptStep[];
  private readonly guard: ScriptedReply | "script";
  private readonly responder: ScriptedResponder | undefined;
  private readonly delayMs: number;
  private readonly holdAll: boolean;
  private readonly gate: HeldCall[] = [];
  private readonly watchers = new Set<() => void>();
  /** Calls inside the model now (entered, not yet answered or failed). */
  inFlight = 0;
  /** The most calls that were ever inside the model at once. */
  maxInFlight = 0;
  /** Calls whose AbortSignal cut their delay or their wait at the gate short. */
  aborted = 0;

  static override lc_name(): string {
    return "ScriptedChatModel";
  }

  constructor(fields: ScriptedChatModelFields = {}) {
    super(fields);
    this.script = [...(fields.script ?? [])];
    this.responder = fields.responder;
    this.model = fields.model ?? "scripted-judge";
    this.delayMs = fields.delayMs ?? 0;
    this.holdAll = fields.hold ?? false;
    this.guard = fields.guard ?? CLEAN_GUARD_ANSWER;
  }

  /** Calls waiting at the gate now. */
  get held(): number {
    return this.gate.length;
  }

  /** Lets the `count` longest-held calls answer (all of them by default). */
  release(count = Number.POSITIVE_INFINITY): void {
    let left = count;
    while (left > 0 && this.gate.length > 0) {
      this.gate.shift()?.go();
      left -= 1;
    }
  }

  /** Resolves as soon as `condition` holds; checked now and after every change of the counts. */
  waitFor(condition: (model: this) => boolean): Promise<void> {
    if (condition(this)) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!condition(this)) return;
        this.watchers.delete(check);
        resolve();
      };
      this.watchers.add(check);
    });
  }

  private changed(): void {
    for (const check of [...this.watchers]) check();
  }

  private holdAtGate(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const held: HeldCall = {
        go: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      const onAbort = () => {
        const at = this.gate.indexOf(held);
        if (at >= 0) this.gate.splice(at, 1);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.gate.push(held);
      this.changed();
    });
  }

  /** Waits as the step asks; counts a wait that the signal cut short. */
  private async waitAsAsked(
    delayMs: number,
    hold: boolean,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    try {
      if (delayMs > 0) await wait(delayMs, signal);
      if (hold) await this.holdAtGate(signal);
    } catch (reason) {
      this.aborted += 1;
      throw reason;
    }
  }

  _llmType(): string {
    return "scripted";
  }

  override invocationParams(options?: this["ParsedCallOptions"]): Record<string, unknown> {
    return options?.format === undefined
      ? { model: this.model }
      : { model: this.model, format: options.format };
  }

  /** Scripted steps not yet consumed. */
  get remaining(): number {
    return this.script.length;
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const { signal, ...rest } = options;
    const recorded = messages.map(toRecorded);
    const call = { messages: recorded, options: { ...rest }, hadSignal: signal !== undefined };
    if (this.guard !== "script" && isGuardCall(recorded)) {
      this.guardCalls.push(call);
      return this.result(
        recorded,
        await this.guardText(this.guard, recorded, this.guardCalls.length),
      );
    }
    this.calls.push(call);
    const callNumber = this.calls.length;
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    this.changed();
    try {
      return await this.answer(recorded, callNumber, signal);
    } finally {
      this.inFlight -= 1;
      this.changed();
    }
  }

  private async answer(
    recorded: RecordedMessage[],
    callNumber: number,
    signal: AbortSignal | undefined,
  ): Promise<ChatResult> {
    const step = this.script.shift();
    let reply: ScriptedReply;
    let delayMs = this.delayMs;
    let hold = this.holdAll;
    if (step === undefined) {
      if (!this.responder) throw new ScriptExhaustedError(this.model, callNumber);
      reply = this.responder;
    } else if (typeof step === "object" && !(step instanceof Error)) {
      reply = step.reply;
      delayMs = step.delayMs ?? 0;
      hold = step.hold ?? false;
    } else {
      reply = step;
    }

    await this.waitAsAsked(delayMs, hold, signal);
    if (reply instanceof Error) throw reply;
    const text = typeof reply === "function" ? await reply(recorded, callNumber) : reply;
    if (this.guard === "script" || !asksScreening(recorded)) return this.result(recorded, text);
    // The guard's question rode in this call: a guard that fails leaves no screening line.
    const screening =
      this.guard instanceof Error
        ? undefined
        : await this.guardText(this.guard, recorded, callNumber);
    return this.result(
      recorded,
      screening === undefined ? text : withScreeningLine(text, screening),
    );
  }

  /** The guard's answer to `recorded` (an Error is thrown: the guard's call fails). */
  private async guardText(
    guard: ScriptedReply,
    recorded: RecordedMessage[],
    callNumber: number,
  ): Promise<string> {
    if (guard instanceof Error) throw guard;
    return typeof guard === "function" ? await guard(recorded, callNumber) : guard;
  }

  /** The model's answer as LangChain's result, with word counts as usage. */
  private result(recorded: RecordedMessage[], text: string): ChatResult {
    const inputTokens = recorded.reduce((sum, message) => sum + countWords(message.content), 0);
    const outputTokens = countWords(text);
    const message = new AIMessage({
      content: text,
      usage_metadata: {
        input_tokens: inputTokens,
        output_tokens: outputTokens,
        total_tokens: inputTokens + outputTokens,
      },
      response_metadata: {
        model_name: this.model,
        model_provider: "scripted",
        finish_reason: "stop",
      },
    });
    return {
      generations: [{ text, message }],
      llmOutput: {
        tokenUsage: {
          promptTokens: inputTokens,
          completionTokens: outputTokens,
          totalTokens: inputTokens + outputTokens,
        },
      },
    };
  }
}

/** The JSON judge contract (score, hits, misses, reasoning). */
export interface JudgeAnswerFields {
  score?: number;
  hits?: string[];
  misses?: string[];
  reasoning?: string;
  [extra: string]: unknown;
}

/**
 * A judge answer as JSON text: `judgeAnswer({ score: 0.4 })`. Unset fields get plausible
 * defaults; extra fields (e.g. `level`, `evidence`) are kept.
 */
export function judgeAnswer(fields: JudgeAnswerFields = {}): string {
  return JSON.stringify({
    score: 0.8,
    hits: ["Addresses the criterion"],
    misses: [],
    reasoning: "The content meets the criterion with minor gaps.",
    ...fields,
  });
}

/** Any value as a JSON answer (for custom answer shapes). */
export function jsonAnswer(value: unknown): string {
  return JSON.stringify(value);
}
