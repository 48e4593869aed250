/**
 * What `evalgate run` works from before anything runs: its options, the input files, the store,
 * the settings kept from an earlier run of the thread, the model, the revision limit and the panel.
 */

import { userMessage } from "../../errors.js";
import type { PanelFlags } from "../commands/options.js";
import { linkPolicyOf } from "../contentFile.js";
import type { CliContext, TextOutput } from "../context.js";
import { CliError } from "../errors.js";
import { resolveModelTarget } from "../modelCheck.js";
import { type PanelSetting, panelSettingOf } from "../panelJudges.js";
import { readInputFile } from "./files.js";
import { loadRunSettings, type RunSettings, runSettingsPath } from "./settings.js";
import { type CheckpointStore, storeOfFlags } from "./store.js";

export interface RunCommandOptions extends PanelFlags {
  thread?: string;
  applicant?: string;
  model?: string;
  db?: string;
  maxRevisions?: number;
  reviewer?: string;
  /** Resume with these settings although the run started with others. */
  overrideSettings?: boolean;
  /** false with --no-cache: the judge-call cache is not used. */
  cache?: boolean;
  /** After the run, the thread's judge calls are written to this JSONL file. */
  trace?: string;
  /** The deadline of each model call, in milliseconds (--timeout). */
  timeout?: number;
  /** PostgreSQL instead of the SQLite file (--database-url). */
  databaseUrl?: string;
  /** Where the finished proposal is written (a new file; default `proposal-<thread>.md`). */
  out?: string;
}

/** The stored settings of the thread; a broken settings file is reported and left aside. */
async function storedSettings(
  path: string,
  threadId: string | undefined,
  stderr: TextOutput,
): Promise<RunSettings | undefined> {
  if (threadId === undefined) return undefined;
  try {
    return await loadRunSettings(path, threadId);
  } catch (error) {
    stderr.write(`evalgate: using the options given: ${userMessage(error)}\n`);
    return undefined;
  }
}

export interface RunPlan {
  rfp: string | undefined;
  applicant: string | undefined;
  store: CheckpointStore;
  settingsPath: string;
  stored: RunSettings | undefined;
  target: ReturnType<typeof resolveModelTarget>;
  maxRevisions: number | undefined;
  /** The panel of judges: given now, else the thread's own. */
  panel: PanelSetting | undefined;
}

/** Reads the input files and settles the store, the model and the revision limit. */
export async function planRun(
  rfpFile: string | undefined,
  options: RunCommandOptions,
  context: CliContext,
): Promise<RunPlan> {
  const { cwd, env } = context;
  if (rfpFile === undefined && options.thread === undefined) {
    throw new CliError("give the RFP file to start a run, or --thread <id> to go on with one");
  }
  const given = panelSettingOf(options);
  const links = linkPolicyOf(env);
  const rfp =
    rfpFile === undefined ? undefined : await readInputFile("RFP file", rfpFile, cwd, links);
  const applicant =
    options.applicant === undefined
      ? undefined
      : await readInputFile("--applicant file", options.applicant, cwd, links);
  const store = storeOfFlags(options, env, cwd);
  const settingsPath = runSettingsPath(store, cwd);
  const stored = await storedSettings(settingsPath, options.thread, context.stderr);
  const target = resolveModelTarget(options.model ?? stored?.model, env);
  const maxRevisions = options.maxRevisions ?? stored?.maxRevisions;
  const panel = given ?? stored?.panel;
  return { rfp, applicant, store, settingsPath, stored, target, maxRevisions, panel };
}
