import type { BaseMessageLike } from "@langchain/core/messages";
import { appendTraceJsonl, buildTrace } from "../judge/trace.js";
import { probabilityWeightedScore, type ScoreScale } from "../judge/weightedScore.js";
import type { JudgeModel } from "../llm/chatModel.js";
import { isModelCallError } from "../llm/errors.js";
import { invokeJudge } from "../llm/invoke.js";
import { TOP_LOGPROBS } from "../llm/tokenLogprobs.js";
import type { Trace } from "../scoring/result.js";
import type { ScoreWeighting } from "../scoring/scoreMethod.js";
import type { JudgeCallCache } from "./judgeCache.js";

export interface JudgeCall {
  purpose: Trace["purpose"];
  criterionIds: readonly string[];
  system: string;
  user: string;
  /** Earlier turns (a repair round sends the first answer back). */
  history?: readonly BaseMessageLike[];
  /** Structured output for this call (a JSON Schema as Ollama's `format`). */
  format?: Record<string, unknown>;
  /** Label ids of the reviewer corrections the prompt carries as few-shot examples. */
  examples?: readonly string[];
  /**
   * Whether an answer can be used (it parses): a pool of servers moves a call answered otherwise
   * to another server.
   */
  usable?: (text: string) => boolean;
  /**
   * Probability-weighted scores: the answer's one score is on this scale; the tokens'
   * log-probabilities are asked for and the score's distribution read from them.
   */
  weightOnScale?: ScoreScale;
}

/** A call's answer, with what weighting its score gave when that was asked. */
export interface JudgeCallAnswer {
  text: string;
  scoreWeighting?: ScoreWeighting;
}

/** The call's parameters as traced, with the few-shot examples it carried. */
function parametersOf(
  parameters: Readonly<Record<string, unknown>>,
  call: JudgeCall,
): Record<string, unknown> {
  if (call.examples === undefined || call.examples.length === 0) return { ...parameters };
  return { ...parameters, fewShotExamples: [...call.examples] };
}

/**
 * One evaluation's access to the judge model: every call goes through here and is traced — exact
 * prompts, raw response, model, parameters, usage, latency, hashes — whether it succeeds or fails.
 */
export class JudgeSession {
  readonly traces: Trace[] = [];
  /** Trace lines are appended one after another, never interleaved. */
  private writes: Promise<void> = Promise.resolve();

  /** `judge` undefined: an evaluation without a judge, which makes no model call. */
  constructor(
    private readonly judge: JudgeModel | undefined,
    private readonly options: {
      traceFile?: string;
      signal?: AbortSignal;
      cache?: JudgeCallCache;
      /** The catalog's registry version (`id@version`), recorded in every trace when set. */
      registryVersion?: string;
    },
    /** A panel member's session records into the panel's first session. */
    private readonly parent?: JudgeSession,
  ) {}

  /** The sessions of the other members of a panel, made by forJudge. */
  private readonly members: JudgeSession[] = [];

  /**
   * A session for another judge (a panel member, with its own cache when there is one) whose
   * calls are traced with this session's.
   */
  forJudge(judge: JudgeModel, cache?: JudgeCallCache): JudgeSession {
    const member = new JudgeSession(judge, { ...this.options, cache }, this);
    this.members.push(member);
    return member;
  }

  /** The cache's answer to this call, when it keeps one that `usable` accepts (no model call). */
  recall(call: JudgeCall, usable: (answer: string) => boolean): Promise<string | undefined> {
    return this.options.cache?.recall(call, usable) ?? Promise.resolve(undefined);
  }

  /**
   * Keeps a usable answer to this call in the cache (when there is one): at once, or — while the
   * injection guard has not answered (holdCacheWrites) — once it found nothing.
   */
  async remember(call: JudgeCall, answer: string): Promise<void> {
    const cache = this.options.cache;
    if (cache === undefined) return;
    const held = this.root.heldWrites;
    if (held !== undefined) held.push(() => cache.remember(call, answer));
    else await cache.remember(call, answer);
  }

  /** The session whose traces and held cache writes a panel member's go to. */
  private get root(): JudgeSession {
    return this.parent?.root ?? this;
  }

  /** Cache writes waiting for the injection guard's answer; undefined when none are held. */
  private heldWrites: Array<() => Promise<void>> | undefined;

  /** From now on, cache writes wait until releaseCacheWrites (or are dropped by bypassCache). */
  holdCacheWrites(): void {
    this.root.heldWrites ??= [];
  }

  /** Writes what was held, in order, and writes at once from now on. */
  async releaseCacheWrites(): Promise<void> {
    const root = this.root;
    const held = root.heldWrites ?? [];
    root.heldWrites = undefined;
    for (const write of held) await write();
  }

  /** The content was flagged: nothing of this evaluation is read from or written to the cache. */
  bypassCache(): void {
    const root = this.root;
    if (root.heldWrites !== undefined) root.heldWrites = [];
    this.options.cache?.disable();
    for (const member of this.members) member.bypassCache();
  }

  /** What went wrong with the cache (it is then bypassed), for the result's warnings. */
  get cacheProblems(): readonly string[] {
    return [
      ...(this.options.cache?.problems ?? []),
      ...this.members.flatMap((m) => m.cacheProblems),
    ];
  }

  /**
   * This evaluation's part of its pool's slots (divided among the evaluations on the pool now);
   * undefined for one server or a supplied chat model. Call leave() when judging is over.
   */
  shareOfPool(): { total: Promise<number>; mine: Promise<number>; leave(): void } | undefined {
    return this.judge?.candidates[0]?.share?.();
  }

  /** Whether there is a judge to call. */
  get hasJudge(): boolean {
    return this.judge !== undefined;
  }

  /** The primary model's spec, for the result when no call was made. */
  get modelSpec(): string {
    if (this.judge === undefined) return "none";
    return this.judge.candidates[0]?.spec ?? "unknown";
  }

  /** Calls the model and returns the raw answer; throws the typed ModelCallError on failure. */
  async call(call: JudgeCall): Promise<string> {
    return (await this.callForAnswer(call)).text;
  }

  /**
   * Calls the model; with `weightOnScale`, the answer's score weighted by its tokens'
   * probabilities (or why the plain score stands), also kept in the call's trace.
   */
  async callForAnswer(call: JudgeCall): Promise<JudgeCallAnswer> {
    const messages: BaseMessageLike[] = [
      ["system", call.system],
      ...(call.history ?? []),
      ["human", call.user],
    ];
    const userPrompt =
      call.history === undefined || call.history.length === 0
        ? call.user
        : `${JSON.stringify(call.history)}\n\n${call.user}`;
    const started = performance.now();
    if (this.judge === undefined) throw new Error("internal: a judge call without a judge");
    try {
      const weighting = call.weightOnScale;
      const answer = await invokeJudge(this.judge, messages, {
        signal: this.options.signal,
        format: call.format,
        ...(call.usable === undefined ? {} : { usable: call.usable }),
        ...(weighting === undefined ? {} : { logprobs: TOP_LOGPROBS }),
      });
      const scoreWeighting =
        weighting === undefined ? undefined : probabilityWeightedScore(answer.logprobs, weighting);
      this.record(
        buildTrace({
          purpose: call.purpose,
          criterionIds: call.criterionIds,
          model: answer.spec,
          parameters: parametersOf(answer.parameters, call),
          systemPrompt: call.system,
          userPrompt,
          rawResponse: answer.text,
          usage: answer.usage,
          latencyMs: answer.latencyMs,
          ...(scoreWeighting === undefined ? {} : { scoreWeighting }),
        }),
      );
      return { text: answer.text, ...(scoreWeighting === undefined ? {} : { scoreWeighting }) };
    } catch (error) {
      if (isModelCallError(error)) {
        this.record(
          buildTrace({
            purpose: call.purpose,
            criterionIds: call.criterionIds,
            model: error.model === undefined ? this.modelSpec : `${error.provider}:${error.model}`,
            parameters: parametersOf({}, call),
            systemPrompt: call.system,
            userPrompt,
            rawResponse: "",
            latencyMs: Math.round(performance.now() - started),
            error: `${error.name}: ${error.message}`,
          }),
        );
      }
      throw error;
    }
  }

  private record(made: Trace): void {
    const { registryVersion } = this.options;
    const trace = registryVersion === undefined ? made : { ...made, registryVersion };
    if (this.parent !== undefined) {
      this.parent.record(trace);
      return;
    }
    this.traces.push(trace);
    const file = this.options.traceFile;
    if (file !== undefined) this.writes = this.writes.then(() => appendTraceJsonl(file, trace));
  }

  /** Waits for the trace file to be written. */
  async flush(): Promise<void> {
    await this.writes;
  }
}
