/**
 * A panel of judges (`--judge` × 2+, `--aggregate`, `--min-agreement`) for the commands that run
 * the graph.
 */
import { z } from "zod";
import type { PanelOptions } from "../engine/options.js";
import { createChatModel, type JudgeModel, withSignal } from "../llm/chatModel.js";
import { PanelAggregateSchema } from "../scoring/result.js";
import type { CliContext } from "./context.js";
import { CliError } from "./errors.js";
import { type ModelTarget, readyModel } from "./modelCheck.js";

export const PANEL_AGGREGATES = PanelAggregateSchema.options;

/** A panel as a run keeps it with its thread: the judges' specs and the panel's options. */
export const PanelSettingSchema = z.object({
  judges: z.array(z.string().min(1)).min(2),
  aggregate: PanelAggregateSchema.optional(),
  minAgreement: z.number().min(-1).max(1).optional(),
});
export type PanelSetting = z.infer<typeof PanelSettingSchema>;

/** The panel options as commander parses them: `--judge` (repeated), `--aggregate`, `--min-agreement`. */
export type PanelFlags = Omit<Partial<PanelSetting>, "judges"> & { judge?: string[] };

export interface PanelJudging {
  judges: JudgeModel[];
  panel: PanelOptions;
}

export function panelOptions(flags: Omit<PanelFlags, "judge">): PanelOptions {
  return {
    ...(flags.aggregate === undefined ? {} : { aggregate: flags.aggregate }),
    ...(flags.minAgreement === undefined ? {} : { minAgreement: flags.minAgreement }),
  };
}

/** The panel the flags ask for, or undefined without `--judge`; refused when it is not one. */
export function panelSettingOf(flags: PanelFlags): PanelSetting | undefined {
  const judges = flags.judge ?? [];
  if (judges.length === 0) {
    if (flags.aggregate !== undefined || flags.minAgreement !== undefined) {
      throw new CliError(
        "--aggregate and --min-agreement set up a panel: give two or more --judge",
      );
    }
    return undefined;
  }
  if (judges.length < 2) {
    throw new CliError("a panel needs two or more --judge (without --judge, the --model judges)");
  }
  const twice = judges.find((judge, i) => judges.indexOf(judge) !== i);
  if (twice !== undefined)
    throw new CliError(`--judge ${twice} is given twice: name each judge once`);
  return { judges, ...panelOptions(flags) };
}

/** The models a command runs the proposal graph with: the writer (and judge) and the panel. */
export interface RunModels {
  /** The writer's target, as checked (a model nobody named is chosen here). */
  target: ModelTarget;
  model: JudgeModel;
  judging?: PanelJudging;
}

/** A model checked as every command checks it, built with `timeoutMs`, else its own deadline. */
export async function readyJudge(
  model: string | undefined | ModelTarget,
  timeoutMs: number | undefined,
  context: Pick<CliContext, "env" | "stderr" | "signal">,
): Promise<RunModels> {
  const target = await readyModel(model, context);
  const timeout = timeoutMs ?? target.defaultTimeoutMs;
  const options = { env: context.env, ...(timeout === undefined ? {} : { timeoutMs: timeout }) };
  return { target, model: createChatModel(target.spec, options) };
}

/** The writer and the panel's judges, each checked before anything runs. */
export async function readyRunModels(
  target: ModelTarget,
  panel: PanelSetting | undefined,
  timeoutMs: number | undefined,
  context: Pick<CliContext, "env" | "stderr" | "signal">,
): Promise<RunModels> {
  const writer = await readyJudge(target, timeoutMs, context);
  if (panel === undefined) return writer;
  const judges: JudgeModel[] = [];
  for (const spec of panel.judges) judges.push((await readyJudge(spec, timeoutMs, context)).model);
  return { ...writer, judging: { judges, panel: panelOptions(panel) } };
}

/** Each call also cancelled by Ctrl-C, so the run stops at its last saved step. */
export function stoppedByCtrlC(models: RunModels, signal: AbortSignal | undefined): RunModels {
  if (signal === undefined) return models;
  const judging =
    models.judging === undefined
      ? undefined
      : { ...models.judging, judges: models.judging.judges.map((j) => withSignal(j, signal)) };
  return {
    ...models,
    model: withSignal(models.model, signal),
    ...(judging === undefined ? {} : { judging }),
  };
}
