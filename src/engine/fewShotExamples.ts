/**
 * The few-shot examples of one evaluation: whether they are on (the run's option, else the
 * catalog's setting; off by default, and then nothing is read), and for each LLM criterion the
 * reviewer corrections chosen for this content.
 */
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
  /** Where the reviewer corrections come from (the review store, or inMemoryExampleSource). */
  source: ExampleSource;
  /**
   * true or false decides; absent, the catalog's `fewShot.enabled` decides, and a catalog that
   * does not say leaves them on (a source was given).
   */
  enabled?: boolean;
  /** At most this many examples per criterion (default: the catalog's, else 3). */
  maxExamples?: number;
  /** The examples' block of a criterion stays within this many tokens (default: the catalog's, else 600). */
  tokenBudget?: number;
  /** Only corrections decided strictly before this time (default: now). */
  before?: string | Date;
}

/** The examples chosen per criterion id (criteria without any are absent). */
export type FewShotPlan = ReadonlyMap<string, FewShotSelection>;

function settingsOf(catalog: Catalog, option: FewShotOption | undefined): FewShotSettings {
  const given = {
    ...catalog.fewShot,
    ...(option === undefined
      ? {}
      : { enabled: option.enabled ?? catalog.fewShot?.enabled ?? true }),
    ...(option?.maxExamples === undefined ? {} : { maxExamples: option.maxExamples }),
    ...(option?.tokenBudget === undefined ? {} : { tokenBudget: option.tokenBudget }),
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

export interface FewShotInput {
  catalog: Catalog;
  fewShot?: FewShotOption;
  contentType?: string;
  now?: () => Date;
}

/**
 * The examples for each LLM criterion, or undefined when few-shot examples are off (no source is
 * asked anything then). A source that fails leaves the criteria without examples, with a warning.
 */
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

/** The label ids of the examples each criterion's prompt carried, for the result. */
export function examplesUsed(
  judged: ReadonlyMap<string, { examples?: readonly string[] }>,
): Record<string, string[]> | undefined {
  const used: Array<[string, string[]]> = [];
  for (const [id, j] of judged) {
    if (j.examples !== undefined && j.examples.length > 0) used.push([id, [...j.examples]]);
  }
  return used.length === 0 ? undefined : Object.fromEntries(used);
}
