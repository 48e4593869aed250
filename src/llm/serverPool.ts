/**
 * A judge pool: one model over several servers. Each call takes a slot of the least busy server
 * (else the first to free one). A server at fault, or whose answer cannot be used, is taken out
 * and the call moves on at once, outside the retry count; a call is on one server at a time.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { acquireAny, type CallLane, createCallLane, type ReleaseSlot } from "./callCeiling.js";
import { classifyModelError } from "./classifyError.js";
import {
  isModelAbortedError,
  isModelResponseError,
  ModelAbortedError,
  type ModelCallError,
  type ModelErrorContext,
  ModelResponseError,
  ModelUnavailableError,
} from "./errors.js";
import type { ModelCallOptions, ModelCandidate, PoolMember, PoolShare } from "./modelCandidate.js";
import { ollamaMember } from "./ollamaChat.js";
import { openAiCompatibleMember } from "./openaiCompatible.js";
import type { ServerEntry } from "./serverList.js";
import {
  bringBack,
  isServerFault,
  outOfPool,
  serverCeiling,
  slotWait,
  takeOut,
} from "./serverState.js";
import type { ModelSettings } from "./settings.js";
import type { PoolProvider } from "./spec.js";

/** Evaluations planning or judging on each pool now, by the pool's servers (their keys). */
const evaluationsOn = new Map<string, number>();

class ServerPool {
  #turn = 0;

  constructor(
    readonly members: readonly PoolMember[],
    private readonly settings: ModelSettings,
    private readonly context: ModelErrorContext,
  ) {}

  async slots(): Promise<number> {
    const each = await Promise.all(this.members.map((m) => m.slots()));
    return each.reduce((sum, n) => sum + n, 0);
  }

  share(): PoolShare {
    return shareSlots(
      this.members.map((m) => m.key),
      this.slots(),
    );
  }

  async call(
    messages: BaseMessage[],
    options: ModelCallOptions,
    lane: CallLane,
  ): Promise<{ message: BaseMessage; member: PoolMember; failedOver: string[] }> {
    const tried = new Set<PoolMember>();
    const failedOver: string[] = [];
    let lastError: ModelCallError | undefined;
    for (;;) {
      const held = await this.acquire(tried, options, lane);
      if (held === undefined) {
        throw (
          lastError ??
          new ModelUnavailableError("unknown", "no server of the pool could be tried", this.context)
        );
      }
      const { member, release } = held;
      let failure: ModelCallError;
      try {
        const message = await member.invoke(messages, options);
        const unusable = this.unusable(message, member, options);
        // The last server's answer, usable or not, is the caller's to judge.
        if (unusable === undefined || this.isLastUntried(member, tried)) {
          if (unusable === undefined) bringBack(member.key);
          return { message, member, failedOver };
        }
        failure = unusable;
      } catch (thrown) {
        const error = classifyModelError(thrown, { ...this.context, baseUrl: member.shown });
        if (options.signal?.aborted)
          throw new ModelAbortedError(this.context, options.signal.reason);
        // A body the server sent that is no answer (an HTML page, a cut line) is as unusable.
        const moves = isServerFault(error) || isModelResponseError(error);
        if (isModelAbortedError(error) || !moves) throw error;
        failure = error;
      } finally {
        release();
      }
      takeOut(member.key, failure, this.settings.serverCooldownMs);
      tried.add(member);
      lastError = failure;
      failedOver.push(`${member.shown}: ${failure.message}`);
    }
  }

  private unusable(
    message: BaseMessage,
    member: PoolMember,
    options: ModelCallOptions,
  ): ModelCallError | undefined {
    const text = message.text;
    const context = { ...this.context, baseUrl: member.shown };
    if (text.trim() === "") return new ModelResponseError("the answer is empty", context);
    if (options.usable !== undefined && !options.usable(text)) {
      return new ModelResponseError("the answer could not be used", context);
    }
    return undefined;
  }

  private isLastUntried(member: PoolMember, tried: ReadonlySet<PoolMember>): boolean {
    return this.members.every((m) => m === member || tried.has(m));
  }

  private async acquire(
    tried: ReadonlySet<PoolMember>,
    options: ModelCallOptions,
    lane: CallLane,
  ): Promise<{ member: PoolMember; release: ReleaseSlot } | undefined> {
    const untried = this.members.filter((m) => !tried.has(m));
    if (untried.length === 0) return undefined;
    const isIn = (m: PoolMember) => outOfPool(m.key) === undefined;
    const candidates = untried.some(isIn) ? untried.filter(isIn) : [backSoonest(untried)];
    const limits = await Promise.all(candidates.map((m) => m.slots()));
    const ceilings = candidates.map((m, i) =>
      serverCeiling({ key: m.key, maxInFlight: limits[i] ?? 1 }),
    );
    const load = ceilings.map((c) => c.inFlight / c.limit);
    const start = this.#turn++ % candidates.length;
    const order = candidates
      .map((_, i) => (start + i) % candidates.length)
      .sort((a, b) => (load[a] ?? 0) - (load[b] ?? 0));
    const total = limits.reduce((sum, n) => sum + n, 0);
    const { index, release } = await acquireAny(
      ceilings,
      lane,
      slotWait(
        this.context,
        { maxInFlight: total, maxQueueWaitMs: this.settings.maxQueueWaitMs },
        options.signal,
        `its ${this.members.length} servers take at most ${total} calls at once (slots, maxInFlight, EVALGATE_MAX_IN_FLIGHT)`,
      ),
      order,
    );
    const member = candidates[index] as PoolMember;
    // Taken out while this call waited, and another server is in: wait there instead.
    if (!isIn(member) && untried.some((m) => m !== member && isIn(m))) {
      release();
      return this.acquire(tried, options, lane);
    }
    return { member, release };
  }
}

function shareSlots(keys: readonly string[], total: Promise<number>): PoolShare {
  const key = [...keys].sort().join(",");
  evaluationsOn.set(key, (evaluationsOn.get(key) ?? 0) + 1);
  let left = false;
  return {
    total,
    mine: total.then((n) => Math.max(1, Math.floor(n / (evaluationsOn.get(key) ?? 1)))),
    leave: () => {
      if (left) return;
      left = true;
      const now = (evaluationsOn.get(key) ?? 1) - 1;
      if (now <= 0) evaluationsOn.delete(key);
      else evaluationsOn.set(key, now);
    },
  };
}

function backSoonest(members: readonly PoolMember[]): PoolMember {
  const until = (m: PoolMember) => outOfPool(m.key)?.until ?? 0;
  return members.reduce((best, m) => (until(m) < until(best) ? m : best));
}

export function poolCandidate(
  judge: { provider: PoolProvider; model: string },
  entries: readonly ServerEntry[],
  settings: ModelSettings,
): ModelCandidate {
  const spec = `${judge.provider}:${judge.model}`;
  const members = entries.map((entry) => {
    const model = entry.model ?? judge.model;
    return (entry.provider ?? judge.provider) === "ollama"
      ? ollamaMember(entry, model, settings)
      : openAiCompatibleMember(entry, model, settings);
  });
  const shown = members.map((m) => m.shown).join(",");
  const context = { provider: judge.provider, model: judge.model, baseUrl: shown };
  const pool = new ServerPool(members, settings, context);
  const ownLane = createCallLane(spec);
  return {
    spec,
    provider: judge.provider,
    model: judge.model,
    baseUrl: shown,
    parameters: {
      provider: judge.provider,
      model: judge.model,
      baseUrl: shown,
      servers: members.length,
      temperature: settings.temperature,
      ...(settings.seed === undefined ? {} : { seed: settings.seed }),
      ...(settings.numCtx === undefined ? {} : { numCtx: settings.numCtx }),
      ...(settings.format === undefined ? {} : { format: settings.format }),
      timeoutMs: settings.timeoutMs,
    },
    slots: () => pool.slots(),
    share: () => pool.share(),
    async call(messages, options = {}) {
      const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
      if (options.signal?.aborted) {
        throw new ModelAbortedError({ ...context, timeoutMs }, options.signal.reason);
      }
      const format = options.format ?? settings.format;
      const callOptions = { ...options, timeoutMs, ...(format === undefined ? {} : { format }) };
      const answer = await pool.call(messages, callOptions, options.lane ?? ownLane);
      options.onServer?.({ spec, server: answer.member.shown, failedOver: answer.failedOver });
      return answer.message;
    },
  };
}
