/**
 * One evaluation per example, shared by the evaluators of a set: LangSmith calls each evaluator
 * of an experiment separately for the same run, so the first call evaluates and the others await
 * the same promise. Examples are told apart by what decides their evaluation — the content judged
 * and the reference — and the most recent `limit` are kept (a failed evaluation too, so that N
 * evaluators of a failed example report the failure once each without N tries).
 */
import { createHash } from "node:crypto";
import type { EvaluationResult } from "../scoring/result.js";

export type EvaluationOutcome =
  | { ok: true; result: EvaluationResult }
  | { ok: false; error: unknown };

/** The default number of examples whose evaluation is kept. */
export const DEFAULT_CACHED_EXAMPLES = 64;

/** What identifies an example's evaluation, or undefined when it cannot be written as JSON. */
function exampleKey(content: unknown, reference: string | undefined): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify([content ?? null, reference ?? null]);
  } catch {
    return undefined;
  }
  return text === undefined ? undefined : createHash("sha256").update(text).digest("hex");
}

export class SharedEvaluations {
  private readonly outcomes = new Map<string, Promise<EvaluationOutcome>>();

  constructor(private readonly limit: number) {}

  /** The example's outcome: made by `evaluate` once, then the same for every caller. */
  outcome(
    content: unknown,
    reference: string | undefined,
    evaluate: () => Promise<EvaluationResult>,
  ): Promise<EvaluationOutcome> {
    const settle = (): Promise<EvaluationOutcome> =>
      evaluate().then(
        (result) => ({ ok: true, result }),
        (error: unknown) => ({ ok: false, error }),
      );
    const key = exampleKey(content, reference);
    if (key === undefined) return settle();
    const known = this.outcomes.get(key);
    if (known !== undefined) return known;
    const made = settle();
    this.outcomes.set(key, made);
    while (this.outcomes.size > this.limit) {
      const oldest = this.outcomes.keys().next();
      if (oldest.done === true) break;
      this.outcomes.delete(oldest.value);
    }
    return made;
  }

  /** How many examples are kept now (for tests and diagnostics). */
  get size(): number {
    return this.outcomes.size;
  }
}
