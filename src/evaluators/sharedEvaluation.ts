/**
 * One evaluation per example, shared by the evaluators LangSmith calls separately for one run;
 * the latest `limit` are kept (failures too, so N evaluators do not make N tries).
 */
import { createHash } from "node:crypto";
import type { EvaluationResult } from "../scoring/result.js";

type EvaluationOutcome = { ok: true; result: EvaluationResult } | { ok: false; error: unknown };

export const DEFAULT_CACHED_EXAMPLES = 64;

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

  get size(): number {
    return this.outcomes.size;
  }
}
