/**
 * A run's settings kept in the store beside the thread (LangGraph keeps the run context out of
 * checkpoints). An earlier version's `<file>.runs.json` is imported once.
 */
import { rename } from "node:fs/promises";
import { resolve } from "node:path";
import { z } from "zod";
import { userMessage } from "../../errors.js";
import { withoutUrlCredentials } from "../../redact.js";
import type { ReviewStore } from "../../store/reviewStore.js";
import { parseUntrustedJson } from "../../untrusted/json.js";
import { readRegularTextFile } from "../../untrusted/regularFile.js";
import type { TextOutput } from "../context.js";
import { CliError, RunSettingsFileError } from "../errors.js";
import { PanelSettingSchema } from "../panelJudges.js";
import { type CheckpointStore, withReviewStore } from "./store.js";

export const RunSettingsSchema = z.object({
  model: z.string().min(1).optional(),
  maxRevisions: z.number().int().min(0).optional(),
  /** A panel of judges instead of the model judging alone. */
  panel: PanelSettingSchema.optional(),
  rfpFile: z.string().optional(),
  startedAt: z.string(),
});
export type RunSettings = z.infer<typeof RunSettingsSchema>;

const LegacyFileSchema = z.object({ threads: z.record(z.string(), RunSettingsSchema) });

/** Where an earlier version kept the settings of the store's threads. */
export function legacyRunSettingsPath(store: CheckpointStore, cwd: string): string {
  return store.kind === "sqlite"
    ? `${store.path}.runs.json`
    : resolve(cwd, ".evalgate", "runs.json");
}

/** The largest settings file of an earlier version read (thousands of threads' settings). */
const MAX_LEGACY_FILE_BYTES = 16 * 1024 * 1024;

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.map(String).join(".") || "(root)"}: ${issue?.message ?? "invalid"}`;
}

async function readLegacyFile(path: string): Promise<Record<string, RunSettings>> {
  const read = await readRegularTextFile(path, MAX_LEGACY_FILE_BYTES);
  if (!read.ok) {
    if (read.problem.kind === "missing") return {};
    throw new RunSettingsFileError(path, read.problem.reason);
  }
  const raw = parseUntrustedJson(
    read.text,
    (_problem, description) => new RunSettingsFileError(path, `not usable JSON: ${description}`),
  );
  const parsed = LegacyFileSchema.safeParse(raw);
  if (!parsed.success) throw new RunSettingsFileError(path, firstIssue(parsed.error));
  return parsed.data.threads;
}

/** Once: the file is then renamed `<file>.imported`; an unreadable one is reported and left. */
export async function importLegacyRunSettings(
  reviews: ReviewStore,
  path: string,
  stderr: TextOutput,
): Promise<void> {
  let threads: Record<string, RunSettings>;
  try {
    threads = await readLegacyFile(path);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    stderr.write(
      `evalgate: the run settings of an earlier version were not imported: ${message}\n`,
    );
    return;
  }
  const entries = Object.entries(threads);
  if (entries.length === 0) return;
  await reviews.importRunSettings(entries);
  // Another command may have imported and renamed it first: nothing is left to do then.
  await rename(path, `${path}.imported`).catch(() => undefined);
}

export async function loadRunSettings(
  reviews: ReviewStore,
  threadId: string,
): Promise<RunSettings | undefined> {
  const stored = await reviews.runSettings(threadId);
  if (stored === undefined) return undefined;
  const parsed = RunSettingsSchema.safeParse(stored);
  if (!parsed.success) {
    throw new RunSettingsFileError(`of thread ${threadId}`, firstIssue(parsed.error));
  }
  return parsed.data;
}

export function storedRunSettings(settings: RunSettings): Record<string, unknown> {
  return { ...RunSettingsSchema.parse(settings) };
}

/** What the store knows of a thread before anything runs: whether it exists, and its settings. */
export interface ThreadRecord {
  /** The store has the thread (its row, its settings or a checkpoint). */
  known: boolean;
  settings: RunSettings | undefined;
}

/** What the store knows of the thread; `hasCheckpoint` is asked when it has no row nor settings. */
export async function readThreadRecord(
  store: CheckpointStore,
  threadId: string,
  at: { cwd: string; stderr: TextOutput; hasCheckpoint?: () => Promise<boolean> },
): Promise<ThreadRecord> {
  return withReviewStore(store, async (reviews) => {
    await importLegacyRunSettings(reviews, legacyRunSettingsPath(store, at.cwd), at.stderr);
    const settings = await loadRunSettings(reviews, threadId).catch((error: unknown) => {
      at.stderr.write(`evalgate: using the options given: ${userMessage(error)}\n`);
      return undefined;
    });
    const row = await reviews.thread(threadId);
    const known =
      row !== undefined || settings !== undefined || ((await at.hasCheckpoint?.()) ?? false);
    return { known, settings };
  });
}

/**
 * A --model or --max-revisions other than the thread's own: refused before anything is stored or
 * run (the graph would refuse the next step and leave the thread failed); `howToOverride` says
 * how the command can change them.
 */
export function refuseChangedSettings(
  given: { thread?: string; model?: string; maxRevisions?: number },
  stored: RunSettings | undefined,
  target: { spec: string },
  howToOverride: string,
): void {
  if (stored === undefined) return;
  const changes: string[] = [];
  const model = withoutUrlCredentials(target.spec);
  if (given.model !== undefined && stored.model !== undefined && model !== stored.model) {
    changes.push(`--model ${model} (it started with ${stored.model})`);
  }
  const { maxRevisions } = given;
  if (maxRevisions !== undefined && maxRevisions !== stored.maxRevisions) {
    const before = stored.maxRevisions ?? "the default";
    changes.push(`--max-revisions ${maxRevisions} (it started with ${before})`);
  }
  if (changes.length === 0) return;
  throw new CliError(
    `thread ${given.thread} was started with other settings: ${changes.join(", ")}; go on without them, or ${howToOverride}`,
  );
}
