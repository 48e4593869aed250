/**
 * The judge-call cache: answers kept under a SHA-256 of everything that decides them (models with
 * their answer-shaping parameters, purpose, rendered prompts, history, format), so an unchanged or
 * interrupted evaluation asks only what is not yet answered. Only usable answers are written.
 */
import { createHash } from "node:crypto";
import type { BaseMessageLike } from "@langchain/core/messages";
import type { JudgeModel } from "../llm/chatModel.js";

/** What of a judge call decides its answer. */
export interface JudgeCall {
  purpose: string;
  system: string;
  user: string;
  /** Earlier turns (a repair round sends the first answer back). */
  history?: readonly BaseMessageLike[];
  /** Structured output: a JSON Schema as Ollama's `format`. */
  format?: Record<string, unknown>;
}

/** The version of the key's layout: a change to it makes every earlier entry unreachable. */
const KEY_VERSION = "judge-cache/1";

/** Call parameters that do not change what the model answers. */
const PARAMETERS_OUTSIDE_THE_KEY = new Set([
  "timeoutMs",
  "keepAlive",
  "baseUrl",
  "maxRetries",
  "servers",
]);

export interface JudgeCacheEntry {
  key: string;
  /** The raw answer text, parsed again (fail closed) when it is used. */
  answer: string;
  /** The primary model's `provider:model`. */
  model: string;
  purpose: string;
  /** ISO-8601 UTC. */
  createdAt: string;
}

/** Where answers are kept: in memory, or beside the checkpoints (SQLite or PostgreSQL). */
export interface JudgeCacheStore {
  /** The answer under `key`, unless it was written before `notBefore` (ISO-8601 UTC). */
  get(key: string, notBefore: string | undefined): Promise<string | undefined>;
  put(entry: JudgeCacheEntry): Promise<void>;
}

/** `false` turns the cache off; options turn it on. */
export type JudgeCacheSetting =
  | false
  | {
      /** Entries older than this are not used (default: no age limit). */
      ttlSeconds?: number;
      /** Default: one in this process's memory. */
      store?: JudgeCacheStore;
    };

/**
 * Answers in this process's memory, for library use without a database: at most `maxEntries`
 * (default 10,000), the least recently used dropped first, so a long-lived process stays bounded.
 */
export class MemoryJudgeCacheStore implements JudgeCacheStore {
  private readonly entries = new Map<string, JudgeCacheEntry>();

  constructor(private readonly maxEntries = 10_000) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`maxEntries must be a whole number of at least 1, not ${maxEntries}`);
    }
  }

  async get(key: string, notBefore: string | undefined): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (notBefore !== undefined && entry.createdAt < notBefore) return undefined;
    // Used now: it moves to the end of the order the oldest are dropped from.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.answer;
  }

  async put(entry: JudgeCacheEntry): Promise<void> {
    this.entries.delete(entry.key);
    this.entries.set(entry.key, entry);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

let processStore: MemoryJudgeCacheStore | undefined;

/** JSON with object keys sorted, functions and undefined left out: the same value, the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === "function" || typeof item === "symbol") return undefined;
    if (typeof item === "bigint") return item.toString();
    if (item === null || typeof item !== "object" || Array.isArray(item)) return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort()) {
      sorted[key] = (item as Record<string, unknown>)[key];
    }
    return sorted;
  });
}

function modelsOf(judge: JudgeModel): unknown[] {
  return judge.candidates.map((candidate) => ({
    spec: candidate.spec,
    parameters: Object.fromEntries(
      Object.entries(candidate.parameters).filter(
        ([name, value]) => !PARAMETERS_OUTSIDE_THE_KEY.has(name) && value !== undefined,
      ),
    ),
  }));
}

export function judgeCallKey(judge: JudgeModel, call: JudgeCall): string {
  const decided = {
    version: KEY_VERSION,
    models: modelsOf(judge),
    purpose: call.purpose,
    system: call.system,
    history: call.history ?? [],
    user: call.user,
    format: call.format ?? null,
  };
  return createHash("sha256").update(canonicalJson(decided)).digest("hex");
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** One evaluation's view of the cache; a store that fails is a warning, not an error. */
export class JudgeCallCache {
  readonly problems: string[] = [];
  private enabled = true;

  constructor(
    private readonly store: JudgeCacheStore,
    private readonly judge: JudgeModel,
    private readonly options: { ttlSeconds?: number; now?: () => Date } = {},
  ) {}

  /** Stops reading and writing (the content was flagged: its answers are never kept). */
  disable(): void {
    this.enabled = false;
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  /** The kept answer to this call, when there is one and `usable` accepts it. */
  async recall(call: JudgeCall, usable: (answer: string) => boolean): Promise<string | undefined> {
    if (!this.enabled) return undefined;
    try {
      const { ttlSeconds } = this.options;
      const notBefore =
        ttlSeconds === undefined
          ? undefined
          : new Date(this.now().getTime() - ttlSeconds * 1000).toISOString();
      const answer = await this.store.get(judgeCallKey(this.judge, call), notBefore);
      return answer !== undefined && usable(answer) ? answer : undefined;
    } catch (error) {
      this.problems.push(`judge cache: could not read (${messageOf(error)}); asking the model`);
      return undefined;
    }
  }

  /** Keeps a usable answer to this call (written before the evaluation goes on). */
  async remember(call: JudgeCall, answer: string): Promise<void> {
    if (!this.enabled) return;
    try {
      await this.store.put({
        key: judgeCallKey(this.judge, call),
        answer,
        model: this.judge.candidates[0]?.spec ?? "unknown",
        purpose: call.purpose,
        createdAt: this.now().toISOString(),
      });
    } catch (error) {
      this.problems.push(`judge cache: could not write (${messageOf(error)})`);
    }
  }
}

export function judgeCallCacheFor(
  setting: JudgeCacheSetting | undefined,
  judge: JudgeModel,
  now?: () => Date,
): JudgeCallCache | undefined {
  if (setting === undefined || setting === false) return undefined;
  processStore ??= new MemoryJudgeCacheStore();
  const store = setting.store ?? processStore;
  return new JudgeCallCache(store, judge, { ttlSeconds: setting.ttlSeconds, now });
}
