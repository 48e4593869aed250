/**
 * What a `run` was started with — its model, revision limit and panel of judges — kept beside the checkpoints, so
 * that `run --thread` and `review` go on with the same settings after the terminal was closed:
 * LangGraph keeps the run context out of a thread's checkpoints. For a SQLite store the settings
 * live in `<file>.runs.json`; for PostgreSQL in `.evalgate/runs.json` under the working folder.
 * Options given on the command line win over the stored ones.
 */
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { parseUntrustedJson } from "../../untrusted/json.js";
import { readRegularTextFile } from "../../untrusted/regularFile.js";
import { RunSettingsFileError } from "../errors.js";
import { writeFileAtomically } from "../outputFile.js";
import { PanelSettingSchema } from "../panelJudges.js";
import type { CheckpointStore } from "./store.js";

export const RunSettingsSchema = z.object({
  /** The writer and judge model, `provider:model`. */
  model: z.string().min(1).optional(),
  maxRevisions: z.number().int().min(0).optional(),
  /** A panel of judges instead of the model judging alone. */
  panel: PanelSettingSchema.optional(),
  /** The RFP file the run started from, as given. */
  rfpFile: z.string().optional(),
  startedAt: z.string(),
});
export type RunSettings = z.infer<typeof RunSettingsSchema>;

const SettingsFileSchema = z.object({ threads: z.record(z.string(), RunSettingsSchema) });
type SettingsFile = z.infer<typeof SettingsFileSchema>;

/** Where the settings of the store's threads are kept. */
export function runSettingsPath(store: CheckpointStore, cwd: string): string {
  return store.kind === "sqlite"
    ? `${store.path}.runs.json`
    : resolve(cwd, ".evalgate", "runs.json");
}

/** The largest run settings file read (thousands of threads' settings). */
const MAX_SETTINGS_FILE_BYTES = 16 * 1024 * 1024;

async function readSettingsFile(path: string): Promise<SettingsFile> {
  const read = await readRegularTextFile(path, MAX_SETTINGS_FILE_BYTES);
  if (!read.ok) {
    if (read.problem.kind === "missing") return { threads: {} };
    throw new RunSettingsFileError(path, read.problem.reason);
  }
  const raw = parseUntrustedJson(
    read.text,
    (_problem, description) => new RunSettingsFileError(path, `not usable JSON: ${description}`),
  );
  const parsed = SettingsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RunSettingsFileError(
      path,
      `${issue?.path.map(String).join(".") || "(root)"}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

/** The settings stored for the thread, or undefined when none were. */
export async function loadRunSettings(
  path: string,
  threadId: string,
): Promise<RunSettings | undefined> {
  const file = await readSettingsFile(path);
  return Object.hasOwn(file.threads, threadId) ? file.threads[threadId] : undefined;
}

/** Stores the thread's settings (the file and its folder are created when missing). */
export async function saveRunSettings(
  path: string,
  threadId: string,
  settings: RunSettings,
): Promise<void> {
  const file = await readSettingsFile(path);
  file.threads[threadId] = RunSettingsSchema.parse(settings);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomically(path, `${JSON.stringify(file, null, 2)}\n`);
}
