/**
 * The settings a thread was started with (judge model, passing threshold, revision limit, mode),
 * kept in its state: every later run uses them, a run that gives other ones is refused unless it
 * asks to override them (then the new ones are used and recorded with the thread).
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { runSettingsChanged } from "./errors.js";
import { type EvaluationContext, EvaluationContextSchema, type ThreadSettings } from "./state.js";

const SETTING_KEYS = EvaluationContextSchema.keyof().options;
type SettingKey = (typeof SETTING_KEYS)[number];

/** What a run asks for: its context's settings, and whether it may override the thread's. */
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

/** Each setting the run gives that differs from the thread's, as `key: kept → given`. */
function changesOf(kept: ThreadSettings, given: EvaluationContext): string[] {
  return SETTING_KEYS.flatMap((key) =>
    given[key] === undefined || given[key] === kept[key]
      ? []
      : [`${key}: started with ${shown(kept[key])}, this run gives ${shown(given[key])}`],
  );
}

export interface SettledRunSettings {
  /** The settings this run goes by. */
  context: EvaluationContext;
  /** The state update recording them, when they are new or overridden. */
  update: { threadSettings?: ThreadSettings };
}

/**
 * The settings a node runs by: on a thread's first run, the run's own (recorded); after that the
 * thread's, with a run's different ones refused (RUN_SETTINGS_CHANGED) unless the run asks to
 * override them: `configurable: { thread_id, overrideSettings: true }` in its config.
 */
export function settleRunSettings(
  kept: ThreadSettings | undefined,
  config: LangGraphRunnableConfig | undefined,
  now: () => Date = () => new Date(),
): SettledRunSettings {
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
    throw runSettingsChanged(typeof threadId === "string" ? threadId : "?", changes);
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

/** The run's config with the settled settings as its context. */
export function withContext(
  config: LangGraphRunnableConfig | undefined,
  context: EvaluationContext,
): LangGraphRunnableConfig {
  return { ...(config ?? {}), context };
}
