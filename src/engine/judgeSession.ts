import type { BaseMessageLike } from "@langchain/core/messages";
import { appendTraceJsonl, buildTrace } from "../judge/trace.js";
import { probabilityWeightedScore, type ScoreScale } from "../judge/weightedScore.js";
import { type CallLane, createCallLane } from "../llm/callCeiling.js";
import {
  type ChatModelOptions,
  createChatModel,
  type JudgeModel,
  type ModelSource,
  withLane,
  withTimeout,
} from "../llm/chatModel.js";
import { isModelCallError } from "../llm/errors.js";
import { invokeJudge } from "../llm/invoke.js";
import { TOP_LOGPROBS } from "../llm/tokenLogprobs.js";
import type { ScoreWeighting, Trace } from "../scoring/result.js";
import type { JudgeCallCache, JudgeCall as KeyedCall } from "./judgeCache.js";

export function isJudgeModel(model: unknown): model is JudgeModel {
  return typeof model === "object" && model !== null && "candidates" in model && "retry" in model;
}

/** The judge, its calls queued in `lane` so the process's evaluations take turns for a server. */
export function resolveJudgeModel(
  model: ModelSource | JudgeModel | undefined,
  options: ChatModelOptions = {},
  lane: CallLane = createCallLane(),
): JudgeModel {
  if (isJudgeModel(model)) {
    const timed = options.timeoutMs === undefined ? model : withTimeout(model, options.timeoutMs);
    return withLane(timed, lane);
  }
  return withLane(createChatModel(model, options), lane);
}

export interface JudgeCall extends KeyedCall {
  purpose: Trace["purpose"];
  criterionIds: readonly string[];
  /** Label ids of the reviewer corrections the prompt carries as few-shot examples. */
  examples?: readonly string[];
  /** Whether an answer parses: a pool moves a call answered otherwise to another server. */
  usable?: (text: string) => boolean;
  /** Probability-weighted scores: the scale the answer's one score is weighted on. */
  weightOnScale?: ScoreScale;
}

export interface JudgeCallAnswer {
  text: string;
  scoreWeighting?: ScoreWeighting;
}

function parametersOf(
  parameters: Readonly<Record<string, unknown>>,
  call: JudgeCall,
): Record<string, unknown> {
  if (call.examples === undefined || call.examples.length === 0) return { ...parameters };
  return { ...parameters, fewShotExamples: [...call.examples] };
}

/** One evaluation's access to the judge model: every call, failed or not, is traced here. */
export class JudgeSession {
  readonly traces: Trace[] = [];
  private writes: Promise<void> = Promise.resolve();

  /** `judge` undefined: an evaluation without a judge, which makes no model call. */
  constructor(
    private readonly judge: JudgeModel | undefined,
    private readonly options: {
      traceFile?: string;
      signal?: AbortSignal;
      cache?: JudgeCallCache;
      registryVersion?: string;
    },
    /** A panel member's session records into the panel's first session. */
    private readonly parent?: JudgeSession,
  ) {}

  private readonly members: JudgeSession[] = [];

  /** A panel member's session, traced with this one's. */
  forJudge(judge: JudgeModel, cache?: JudgeCallCache): JudgeSession {
    const member = new JudgeSession(judge, { ...this.options, cache }, this);
    this.members.push(member);
    return member;
  }

  recall(call: JudgeCall, usable: (answer: string) => boolean): Promise<string | undefined> {
    return this.options.cache?.recall(call, usable) ?? Promise.resolve(undefined);
  }

  /** Writes at once, or — while holdCacheWrites holds — once the guard found nothing. */
  async remember(call: JudgeCall, answer: string): Promise<void> {
    const cache = this.options.cache;
    if (cache === undefined) return;
    const held = this.root.heldWrites;
    if (held !== undefined) held.push(() => cache.remember(call, answer));
    else await cache.remember(call, answer);
  }

  private get root(): JudgeSession {
    return this.parent?.root ?? this;
  }

  private heldWrites: Array<() => Promise<void>> | undefined;

  holdCacheWrites(): void {
    this.root.heldWrites ??= [];
  }

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

  get cacheProblems(): readonly string[] {
    return [
      ...(this.options.cache?.problems ?? []),
      ...this.members.flatMap((m) => m.cacheProblems),
    ];
  }

  /** This evaluation's part of its pool's slots; undefined off a pool. Call leave() when done. */
  shareOfPool(): { total: Promise<number>; mine: Promise<number>; leave(): void } | undefined {
    return this.judge?.candidates[0]?.share?.();
  }

  get hasJudge(): boolean {
    return this.judge !== undefined;
  }

  get modelSpec(): string {
    if (this.judge === undefined) return "none";
    return this.judge.candidates[0]?.spec ?? "unknown";
  }

  /** The raw answer; throws the typed ModelCallError on failure. */
  async call(call: JudgeCall): Promise<string> {
    return (await this.callForAnswer(call)).text;
  }

  async callForAnswer(call: JudgeCall): Promise<JudgeCallAnswer> {
    const messages: BaseMessageLike[] = [
      ["system", call.system],
      ...(call.history ?? []),
      ["human", call.user],
    ];
    const history = call.history ?? [];
    const asked = {
      purpose: call.purpose,
      criterionIds: call.criterionIds,
      systemPrompt: call.system,
      userPrompt: history.length === 0 ? call.user : `${JSON.stringify(history)}\n\n${call.user}`,
    };
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
          ...asked,
          model: answer.spec,
          parameters: parametersOf(answer.parameters, call),
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
            ...asked,
            model: error.model === undefined ? this.modelSpec : `${error.provider}:${error.model}`,
            parameters: parametersOf({}, call),
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

  async flush(): Promise<void> {
    await this.writes;
  }
}
