import { createHash } from "node:crypto";
import { activeCatalog } from "../criteria/activeCatalog.js";
import { loadCatalog } from "../criteria/load.js";
import type { Catalog } from "../criteria/model.js";
import { EvaluationError } from "../engine/errors.js";
import { catalogFunctions, resolveJudgeModel, runEvaluation } from "../engine/evaluateContent.js";
import { canonicalJson } from "../engine/judgeCache.js";
import type { EvaluateContentOptions } from "../engine/options.js";
import type { EvaluationResult } from "../scoring/result.js";
import { isRecord } from "../untrusted/json.js";
import { type EvaluatorResult, failedResults, resultKeys, resultsOf } from "./evaluatorResults.js";

/** The argument of an evaluator (LangSmith's extra fields are accepted and not read). */
export interface EvaluatorInput {
  inputs?: unknown;
  /** What is judged. */
  outputs?: unknown;
  referenceOutputs?: unknown;
  [key: string]: unknown;
}

/** Keys whose text is taken as the content (or the reference), in this order. */
const TEXT_KEYS = ["output", "answer", "content", "text", "response", "result"] as const;

/** Text, or the text blocks of a message's content list (`[{ type: "text", text }, …]`) joined. */
function textValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return undefined;
  const texts = value.flatMap((block: unknown) =>
    isRecord(block) && block.type === "text" && typeof block.text === "string" ? [block.text] : [],
  );
  return texts.length > 0 ? texts.join("") : undefined;
}

function ownString(record: Record<string, unknown>, key: string): string | undefined {
  return Object.hasOwn(record, key) ? textValue(record[key]) : undefined;
}

function lastMessageText(record: Record<string, unknown>): string | undefined {
  const messages = Object.hasOwn(record, "messages") ? record.messages : undefined;
  if (!Array.isArray(messages)) return undefined;
  const last: unknown = messages.at(-1);
  return isRecord(last) ? ownString(last, "content") : undefined;
}

/** The text itself, a TEXT_KEYS field, the only field, or the last message of `messages`. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (!isRecord(value)) return undefined;
  for (const key of TEXT_KEYS) {
    const text = ownString(value, key);
    if (text !== undefined) return text;
  }
  const keys = Object.keys(value);
  const only = keys.length === 1 && keys[0] !== undefined ? ownString(value, keys[0]) : undefined;
  return only ?? lastMessageText(value);
}

/** LangSmith keeps what a target returned that is not an object as `{ outputs: value }`. */
function targetValue(outputs: unknown): unknown {
  const wrapped = isRecord(outputs) && Object.keys(outputs).join() === "outputs";
  return wrapped ? outputs.outputs : outputs;
}

function defaultContent(input: EvaluatorInput): unknown {
  const outputs = targetValue(input.outputs);
  return textOf(outputs) ?? outputs;
}

function defaultReference(input: EvaluatorInput): string | undefined {
  const text = textOf(input.referenceOutputs);
  return text === undefined || text.trim() === "" ? undefined : text;
}

/**
 * One evaluation per example, shared by the evaluators LangSmith calls separately for one run;
 * the `limit` most recently used are kept (failures too, so N evaluators do not make N tries),
 * and one still running is never dropped: more examples in flight than `limit` still share.
 */

type EvaluationOutcome = { ok: true; result: EvaluationResult } | { ok: false; error: unknown };

function exampleKey(content: unknown, reference: string | undefined): string | undefined {
  try {
    const text = canonicalJson([content ?? null, reference ?? null]);
    return createHash("sha256").update(text).digest("hex");
  } catch {
    return undefined; // a value JSON cannot hold (a cycle) is evaluated without sharing
  }
}

function sharedEvaluations(limit: number) {
  const outcomes = new Map<string, Promise<EvaluationOutcome>>();
  const settled = new Set<string>();
  return (
    content: unknown,
    reference: string | undefined,
    evaluate: () => Promise<EvaluationOutcome>,
  ) => {
    const key = exampleKey(content, reference);
    if (key === undefined) return evaluate();
    const known = outcomes.get(key);
    if (known !== undefined) {
      outcomes.delete(key); // most recently used last
      outcomes.set(key, known);
      return known;
    }
    const made = evaluate().finally(() => settled.add(key));
    outcomes.set(key, made);
    for (const oldest of outcomes.keys()) {
      if (outcomes.size <= limit) break;
      if (settled.delete(oldest)) outcomes.delete(oldest);
    }
    return made;
  };
}

/** An evaluator giving one result: `(input) => Promise<{ key, score, comment, metadata }>`. */
export type CatalogEvaluator = (input: EvaluatorInput) => Promise<EvaluatorResult>;
/** An evaluator giving every result of the catalog as a list (LangSmith records each). */
export type CatalogResultsEvaluator = (input: EvaluatorInput) => Promise<EvaluatorResult[]>;

export interface CatalogEvaluatorOptions
  extends Omit<EvaluateContentOptions, "content" | "catalog" | "onProgress"> {
  /** Put before every key (`"budget."` gives `budget.clarity`, `budget.overall`). Default "". */
  keyPrefix?: string;
  /** The overall result's key, after the prefix. Default "overall". */
  overallKey?: string;
  /** What is judged for an example (default: the outputs' text, else the outputs). */
  content?: (input: EvaluatorInput) => unknown;
  /** Default: the reference outputs' text. */
  reference?: (input: EvaluatorInput) => string | undefined;
  /** Examples' evaluations kept for the evaluators to share (default 64). */
  maxCachedExamples?: number;
}

export interface CatalogEvaluators {
  /** One evaluator per criterion, in the catalog's order; each function is named by its key. */
  evaluators: CatalogEvaluator[];
  /** The overall score (null when a criterion could not be evaluated). */
  overall: CatalogEvaluator;
  /** Every result: each criterion's, then the overall one. */
  all: CatalogResultsEvaluator;
  keys: string[];
  /** The whole EvaluationResult of an example; rejects when it failed. */
  evaluationOf(input: EvaluatorInput): Promise<EvaluationResult>;
}

function named<F extends (input: EvaluatorInput) => Promise<unknown>>(key: string, fn: F): F {
  Object.defineProperty(fn, "name", { value: key });
  return fn;
}

function checkOptions(options: CatalogEvaluatorOptions): number {
  const limit = options.maxCachedExamples ?? 64;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new EvaluationError(
      "input",
      `invalid evaluator option maxCachedExamples: expected a whole number ≥ 1, got ${limit}`,
    );
  }
  // A model spec that cannot be used (the judge's or a panel member's) fails here, not per example.
  const judges = options.judges?.length ? options.judges : [options.model];
  for (const judge of judges) if (judge !== null) resolveJudgeModel(judge);
  return limit;
}

/**
 * Evaluators for LangSmith's `evaluate()` (openevals-style) from a catalog: every example is
 * evaluated once, whichever evaluators ask; its reference outputs are the reference of the
 * reference-based point functions. What could not be evaluated has `score: null` and says why.
 *
 * @example
 * const { all } = await createCatalogEvaluators("config/evaluation/criteria/budget.json");
 * await evaluate(target, { data: "budget-sections", evaluators: [all] });
 */
export async function createCatalogEvaluators(
  catalog: Catalog | string,
  options: CatalogEvaluatorOptions = {},
): Promise<CatalogEvaluators> {
  const { keyPrefix, overallKey, content, reference, maxCachedExamples, ...evaluation } = options;
  const given =
    typeof catalog === "string"
      ? await loadCatalog(catalog, { functions: options.registry })
      : catalog;
  // Every example of an experiment is judged with the same version: the one active now.
  const loaded = await activeCatalog(given, options.rubricRegistry);
  const keys = resultKeys(loaded.criteria, options);
  const shared = sharedEvaluations(checkOptions(options));
  const { registry } = catalogFunctions(loaded, options);
  const contentOf = content ?? defaultContent;
  const referenceOf = reference ?? defaultReference;

  const outcomeOf = (input: EvaluatorInput) => {
    const judged = contentOf(input);
    const ideal = referenceOf(input);
    const evaluate = () =>
      runEvaluation({
        ...evaluation,
        content: judged,
        catalog: loaded,
        registry: registry.withReference(ideal ?? registry.reference),
      });
    return shared(judged, ideal, () =>
      evaluate().then(
        ({ result }): EvaluationOutcome => ({ ok: true, result }),
        (error: unknown): EvaluationOutcome => ({ ok: false, error }),
      ),
    );
  };
  const resultsFor = async (input: EvaluatorInput): Promise<EvaluatorResult[]> => {
    const outcome = await outcomeOf(input);
    return outcome.ok ? resultsOf(keys, outcome.result) : failedResults(keys, outcome.error);
  };
  const pick = (key: string, at: number): CatalogEvaluator =>
    named(key, async (input: EvaluatorInput) => {
      const results = await resultsFor(input);
      const result = results[at];
      if (result === undefined) throw new RangeError(`no result ${at} for ${key}`);
      return result;
    });

  return {
    evaluators: keys.criteria.map(({ key }, at) => pick(key, at)),
    overall: pick(keys.overall, keys.criteria.length),
    all: named(`${keyPrefix ?? ""}all`, resultsFor),
    keys: [...keys.criteria.map((c) => c.key), keys.overall],
    async evaluationOf(input) {
      const outcome = await outcomeOf(input);
      if (!outcome.ok) throw outcome.error;
      return outcome.result;
    },
  };
}
