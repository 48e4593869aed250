import {
  type Catalog,
  type FewShotSettings,
  FewShotSettingsSchema,
  isLlmMethod,
} from "../criteria/model.js";
import { EXAMPLE_CANDIDATES, type ExampleSource } from "../judge/exampleSource.js";
import { type FewShotSelection, selectFewShotExamples } from "../judge/fewShot.js";
import { EvaluationError, parseInput } from "./errors.js";

/** The run's few-shot option: the source of corrections, and the catalog's setting overridden. */
export interface FewShotOption {
  /** The review store, or inMemoryExampleSource. */
  source: ExampleSource;
  /** Absent: the catalog's `fewShot.enabled`, else on. */
  enabled?: boolean;
  /** Per criterion (default: the catalog's, else 3). */
  maxExamples?: number;
  /** Tokens of a criterion's examples block (default: the catalog's, else 600). */
  tokenBudget?: number;
  /** Only corrections decided strictly before this time (default: now). */
  before?: string | Date;
}

export type FewShotPlan = ReadonlyMap<string, FewShotSelection>;

function settingsOf(catalog: Catalog, option: FewShotOption): FewShotSettings {
  const given = {
    ...catalog.fewShot,
    enabled: option.enabled ?? catalog.fewShot?.enabled ?? true,
    ...(option.maxExamples === undefined ? {} : { maxExamples: option.maxExamples }),
    ...(option.tokenBudget === undefined ? {} : { tokenBudget: option.tokenBudget }),
  };
  return parseInput(FewShotSettingsSchema, given, "fewShot option");
}

function beforeOf(option: FewShotOption, now: Date): string {
  const given = option.before ?? now;
  const time = typeof given === "string" ? Date.parse(given) : given.getTime();
  if (Number.isNaN(time)) {
    throw new EvaluationError("input", `invalid fewShot.before: "${String(given).slice(0, 40)}"`);
  }
  return new Date(time).toISOString();
}

interface FewShotInput {
  catalog: Catalog;
  fewShot?: FewShotOption;
  contentType?: string;
  now?: () => Date;
}

/** The examples per LLM criterion; undefined when off. A failing source is a warning. */
export async function planFewShot(
  options: FewShotInput,
  text: string,
  warnings: string[],
): Promise<FewShotPlan | undefined> {
  const { catalog, fewShot } = options;
  if (fewShot === undefined) {
    if (catalog.fewShot?.enabled === true) {
      warnings.push(
        "the catalog turns few-shot examples on, but no example source was given: none were used",
      );
    }
    return undefined;
  }
  const settings = settingsOf(catalog, fewShot);
  if (!settings.enabled) return undefined;
  const before = beforeOf(fewShot, options.now?.() ?? new Date());
  const llm = catalog.criteria.filter((c) => isLlmMethod(c.method));
  const plan = new Map<string, FewShotSelection>();
  await Promise.all(
    llm.map(async (criterion) => {
      try {
        const candidates = await fewShot.source.examples({
          criterionId: criterion.id,
          ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
          before,
          limit: EXAMPLE_CANDIDATES,
        });
        const selection = selectFewShotExamples(candidates, text, settings);
        if (selection.examples.length > 0) plan.set(criterion.id, selection);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        warnings.push(
          `${criterion.id}: few-shot examples could not be read (${reason.slice(0, 200)}); judged without`,
        );
      }
    }),
  );
  return plan;
}

export function examplesUsed(
  judged: ReadonlyMap<string, { examples?: readonly string[] }>,
): Record<string, string[]> | undefined {
  const used = [...judged].filter(([, j]) => (j.examples?.length ?? 0) > 0);
  return used.length === 0
    ? undefined
    : Object.fromEntries(used.map(([id, j]) => [id, [...(j.examples ?? [])]]));
}
