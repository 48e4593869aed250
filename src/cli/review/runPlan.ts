/** What `evalgate run` works from, settled before anything runs. */

import type { CliContext } from "../context.js";
import { CliError } from "../errors.js";
import { linkPolicyOf, readInputFile } from "../inputFiles.js";
import { resolveModelTarget } from "../modelCheck.js";
import type { PanelFlags } from "../panelJudges.js";
import { type PanelSetting, panelSettingOf } from "../panelJudges.js";
import { type RunSettings, readThreadRecord, refuseChangedSettings } from "./settings.js";
import {
  type CheckpointStore,
  describeStore,
  refuseMissingStore,
  type StoreFlags,
  storeExists,
  storeOfFlags,
  threadHasCheckpoint,
} from "./store.js";

/** The options of every command that runs a thread on (`run`, `review`, `review --retry`). */
export interface ThreadRunFlags extends StoreFlags {
  model?: string;
  maxRevisions?: number;
  reviewer?: string;
  cache?: boolean;
  timeout?: number;
}

export interface RunCommandOptions extends ThreadRunFlags, PanelFlags {
  thread?: string;
  applicant?: string;
  /** Resume with these settings although the run started with others. */
  overrideSettings?: boolean;
  /** After the run, the thread's judge calls are written to this JSONL file. */
  trace?: string;
  /** Where the finished proposal is written (a new file; default `proposal-<thread>.md`). */
  out?: string;
}

/**
 * An unknown thread is refused before any model is chosen (nothing probed or downloaded), unless an
 * RFP starts it.
 */
async function threadSettings(
  threadId: string | undefined,
  rfp: string | undefined,
  store: CheckpointStore,
  context: CliContext,
): Promise<RunSettings | undefined> {
  if (threadId === undefined) return undefined;
  if (!storeExists(store) && rfp !== undefined) return undefined;
  refuseMissingStore(store, threadId, context.cwd);
  const where = describeStore(store, context.cwd);
  const { cwd, env, stderr } = context;
  const hasCheckpoint = () => threadHasCheckpoint(store, threadId, { env, cwd });
  const record = await readThreadRecord(store, threadId, { cwd, stderr, hasCheckpoint });
  if (!record.known && rfp === undefined) {
    throw new CliError(`no thread "${threadId}" in ${where}; give an RFP file to start one`);
  }
  return record.settings;
}

export interface RunPlan {
  rfp: string | undefined;
  applicant: string | undefined;
  store: CheckpointStore;
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
  const stored = await threadSettings(options.thread, rfp, store, context);
  const target = resolveModelTarget(options.model ?? stored?.model, env);
  if (options.overrideSettings !== true) {
    refuseChangedSettings(
      options,
      stored,
      target,
      "add --override-settings to use them from now on",
    );
  }
  const maxRevisions = options.maxRevisions ?? stored?.maxRevisions;
  const panel = given ?? stored?.panel;
  return { rfp, applicant, store, stored, target, maxRevisions, panel };
}
