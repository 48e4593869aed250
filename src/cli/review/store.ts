/**
 * The commands' store, resolved before it is opened: to say where they looked, and not create a
 * file only read.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ModelEnv } from "../../llm/spec.js";
import { createCheckpointer } from "../../orchestrator/checkpointer.js";
import type { PendingReview } from "../../orchestrator/pendingReview.js";
import type { RubricRegistry } from "../../rubrics/rubricRegistry.js";
import { openReviewStore } from "../../store/index.js";
import {
  type DatabaseLocation,
  DEFAULT_SQLITE_PATH,
  databaseLocation,
} from "../../store/location.js";
import type { ReviewStore } from "../../store/reviewStore.js";
import { displayPath, evalgateCommand } from "../context.js";
import { CliError, refuseUrlAsFile } from "../errors.js";

export type CheckpointStore = DatabaseLocation;

export function storeConnection(
  store: CheckpointStore,
): { sqlitePath: string } | { databaseUrl: string } {
  return store.kind === "sqlite" ? { sqlitePath: store.path } : { databaseUrl: store.url };
}

export async function withReviewStore<T>(
  store: CheckpointStore,
  work: (reviews: ReviewStore) => Promise<T>,
): Promise<T> {
  const reviews = await openReviewStore(storeConnection(store));
  try {
    return await work(reviews);
  } finally {
    await reviews.close();
  }
}

/** Works with the store's rubric registry, closed after (loaded only when a command needs it). */
export async function withRubricRegistry<T>(
  store: CheckpointStore,
  work: (registry: RubricRegistry) => Promise<T>,
): Promise<T> {
  const { RubricRegistry } = await import("../../rubrics/rubricRegistry.js");
  const registry = await RubricRegistry.open(storeConnection(store));
  try {
    return await work(registry);
  } finally {
    await registry.close();
  }
}

export interface StoreFlags {
  db?: string;
  databaseUrl?: string;
}

/**
 * The store for `--db` (a SQLite path, relative to `cwd`), else `--database-url`, else
 * DATABASE_URL, else the default. Both flags, or a URL that is not postgres://, are refused (the
 * URL is not repeated: it may hold a password).
 */
export function storeOfFlags(flags: StoreFlags, env: ModelEnv, cwd: string): CheckpointStore {
  refuseUrlAsFile(flags.db, { name: "--db", takes: "a SQLite file" });
  const url = flags.databaseUrl?.trim();
  if (url === undefined || url === "") {
    const { db } = flags;
    const store = databaseLocation({ ...(db?.trim() ? { sqlitePath: db } : {}), env, cwd });
    if (store.kind === "sqlite" && existsSync(store.path) && statSync(store.path).isDirectory()) {
      const shown = displayPath(store.path, cwd);
      throw new CliError(
        `--db ${shown} is a folder: give the SQLite file, such as ${join(shown, "checkpoints.sqlite")}`,
      );
    }
    return store;
  }
  if (flags.db !== undefined) {
    throw new CliError("give --db <file> or --database-url <url>, not both");
  }
  if (!/^postgres(ql)?:\/\/./i.test(url)) {
    throw new CliError("--database-url takes a postgres:// or postgresql:// URL");
  }
  return { kind: "postgres", url };
}

/** The store as messages name it: the SQLite path relative to `cwd`, or "PostgreSQL (host/db)". */
export function describeStore(store: CheckpointStore, cwd: string): string {
  if (store.kind === "sqlite") return displayPath(store.path, cwd);
  try {
    const url = new URL(store.url);
    return `PostgreSQL (${url.host}${url.pathname})`;
  } catch {
    return "PostgreSQL (DATABASE_URL)";
  }
}

export async function threadHasCheckpoint(
  store: CheckpointStore,
  threadId: string,
  at: { env: ModelEnv; cwd: string },
): Promise<boolean> {
  const checkpointer = await createCheckpointer({ ...storeConnection(store), ...at });
  try {
    const config = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
    return (await checkpointer.saver.getTuple(config)) !== undefined;
  } finally {
    await checkpointer.close();
  }
}

/** False when the store is a SQLite file that does not exist (so it holds no thread). */
export function storeExists(store: CheckpointStore): boolean {
  return store.kind === "postgres" || existsSync(store.path);
}

/** Refuses a thread of a SQLite file that does not exist (opening it would make one). */
export function refuseMissingStore(store: CheckpointStore, threadId: string, cwd: string): void {
  if (storeExists(store)) return;
  const where = describeStore(store, cwd);
  throw new CliError(`no thread "${threadId}": there is no checkpoint file at ${where}`);
}

/** The `--db` option to repeat in a hint, when the store is not the default one. */
export function dbHint(store: CheckpointStore, cwd: string): string {
  if (store.kind === "postgres") return "";
  const shown = displayPath(store.path, cwd);
  return shown === DEFAULT_SQLITE_PATH ? "" : ` --db ${quoteArg(shown)}`;
}

export function quoteArg(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

const DECISION_FORMS: Readonly<Record<string, string>> = {
  approve: "approve",
  revise: "revise --feedback <text>",
  edit: "edit --content-file <file>",
  retry: "retry",
};

/** `approve | revise --feedback <text> | …` for the actions the review offers. */
function decisionForms(review: Pick<PendingReview, "actions">): string {
  return review.actions.map((action) => DECISION_FORMS[action] ?? action).join(" | ");
}

/** Where the hints are for: the store, the working folder and the command's environment. */
export interface HintContext {
  store: CheckpointStore;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** `evalgate run --thread <id>` (with --db when the store is not the default), as the user runs it. */
export function runThreadCommand(threadId: string, at: HintContext): string {
  return `${evalgateCommand(at.env)} run --thread ${quoteArg(threadId)}${dbHint(at.store, at.cwd)}`;
}

/** `evalgate review --retry <id>` (with --db when the store is not the default): a failed thread. */
export function retryCommand(threadId: string, at: HintContext): string {
  return `${evalgateCommand(at.env)} review --retry ${quoteArg(threadId)}${dbHint(at.store, at.cwd)}`;
}

/** `evalgate show <id>` (with --db when the store is not the default): a thread's proposal. */
export function showCommand(threadId: string, at: HintContext): string {
  return `${evalgateCommand(at.env)} show ${quoteArg(threadId)}${dbHint(at.store, at.cwd)}`;
}

export function reviewCommandHint(review: PendingReview, at: HintContext): string {
  const db = dbHint(at.store, at.cwd);
  const command = evalgateCommand(at.env);
  return `  ${command} review ${quoteArg(review.threadId)} ${decisionForms(review)}${db}\n`;
}

/** What a run that stops at a review prints: where it waits, and the two ways to go on. */
export function resumeHint(review: PendingReview, at: HintContext): string {
  return (
    `Thread ${review.threadId} is paused at: ${review.title} [${review.contentId}].\n` +
    "Go on with it later:\n" +
    `  ${runThreadCommand(review.threadId, at)}\n` +
    "or decide without prompts:\n" +
    reviewCommandHint(review, at)
  );
}
