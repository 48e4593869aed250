/**
 * The settings a thread was started with, kept in its state: every later run uses them, and a run
 * that gives other ones is refused unless it asks to override them (then they are recorded).
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { runSettingsChanged } from "./errors.js";
import { type EvaluationContext, EvaluationContextSchema, type ThreadSettings } from "./state.js";

const SETTING_KEYS = EvaluationContextSchema.keyof().options;
type SettingKey = (typeof SETTING_KEYS)[number];

function requested(config: LangGraphRunnableConfig | undefined) {
  const raw = (config?.context ?? {}) as Record<string, unknown>;
  const parsed = EvaluationContextSchema.safeParse(raw);
  const given: Partial<Record<SettingKey, unknown>> = parsed.success ? parsed.data : {};
  const settings = Object.fromEntries(
    SETTING_KEYS.flatMap((key) => (given[key] === undefined ? [] : [[key, given[key]]])),
  ) as EvaluationContext;
  const override = config?.configurable?.overrideSettings === true || raw.overrideSettings === true;
  return { settings, override };
}

const shown = (value: unknown) => (value === undefined ? "unset" : JSON.stringify(value));

function changesOf(kept: ThreadSettings, given: EvaluationContext): string[] {
  return SETTING_KEYS.flatMap((key) =>
    given[key] === undefined || given[key] === kept[key]
      ? []
      : [`${key}: started with ${shown(kept[key])}, this run gives ${shown(given[key])}`],
  );
}

export interface SettledRunSettings {
  context: EvaluationContext;
  /** The state update recording them, when they are new or overridden. */
  update: { threadSettings?: ThreadSettings };
}

/** A run's settings refused: the thread's own (which the node keeps to) and what differs. */
export interface RefusedRunSettings {
  context: EvaluationContext;
  changes: string[];
  threadId: string;
}

/**
 * The settings a node runs by: the first run's own (recorded), then the thread's; a run's
 * different ones are refused, with the thread's own kept, unless `configurable.overrideSettings`
 * is true (then they are recorded).
 */
export function readRunSettings(
  kept: ThreadSettings | undefined,
  config: LangGraphRunnableConfig | undefined,
  now: () => Date = () => new Date(),
): SettledRunSettings | { refused: RefusedRunSettings } {
  const { settings, override } = requested(config);
  if (kept === undefined) {
    const record: ThreadSettings = { ...settings, recordedAt: now().toISOString() };
    return { context: settings, update: { threadSettings: record } };
  }
  const { recordedAt: _at, overrides = [], ...keptSettings } = kept;
  const changes = changesOf(kept, settings);
  if (changes.length === 0) return { context: { ...keptSettings, ...settings }, update: {} };
  if (!override) {
    const threadId = config?.configurable?.thread_id;
    const id = typeof threadId === "string" ? threadId : "?";
    return { refused: { context: keptSettings, changes, threadId: id } };
  }
  const at = now().toISOString();
  const record: ThreadSettings = {
    ...keptSettings,
    ...settings,
    recordedAt: kept.recordedAt,
    overrides: [...overrides, { at, changes }],
  };
  return { context: { ...keptSettings, ...settings }, update: { threadSettings: record } };
}

/** readRunSettings, with other settings than the thread's thrown (RUN_SETTINGS_CHANGED). */
export function settleRunSettings(
  kept: ThreadSettings | undefined,
  config: LangGraphRunnableConfig | undefined,
  now: () => Date = () => new Date(),
): SettledRunSettings {
  const read = readRunSettings(kept, config, now);
  if ("refused" in read) throw runSettingsChanged(read.refused.threadId, read.refused.changes);
  return read;
}
