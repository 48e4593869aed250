import { z } from "zod";
import type { CalibrationLabel } from "../scoring/calibrationLabel.js";
import { promptInvalid } from "./errors.js";
import {
  boundedExample,
  EXAMPLE_EXCERPT_CHARS,
  type FewShotExample,
  FewShotExampleSchema,
  labelIdOf,
} from "./fewShot.js";

/** Candidates asked for per criterion; the most similar are then chosen. */
export const EXAMPLE_CANDIDATES = 50;

export interface ExampleQuery {
  criterionId: string;
  /** Only corrections of this content type, or of none named (all when absent). */
  contentType?: string;
  /** ISO 8601; strictly before. */
  before: string;
  limit: number;
}

/** Answers the reviewer corrections a criterion's few-shot examples are chosen from. */
export interface ExampleSource {
  examples(query: ExampleQuery): Promise<FewShotExample[]>;
}

/** Undefined for a label that is no correction (the reviewer let the judge's outcome stand). */
export function exampleOfLabel(
  label: CalibrationLabel,
  content: string,
): FewShotExample | undefined {
  if (label.source !== "marked") return undefined;
  const corrected = label.reviewerNative ?? label.reviewerScore;
  if (corrected === undefined) return undefined;
  return boundedExample({
    labelId: labelIdOf(label.decisionId, label.criterionId),
    criterionId: label.criterionId,
    contentType: label.contentType,
    decidedAt: label.decidedAt,
    excerpt: content.slice(0, EXAMPLE_EXCERPT_CHARS * 4),
    judgeValue: label.judgeNative ?? label.judgeScore ?? null,
    correctedValue: corrected,
    ...(label.reviewerNote === undefined ? {} : { note: label.reviewerNote }),
  });
}

/**
 * Examples kept in memory, for library users with corrections of their own.
 *
 * @example
 * const source = inMemoryExampleSource([{ labelId: "d1#clarity", criterionId: "clarity",
 *   decidedAt: "2026-11-02T10:00:00Z", excerpt: "…", judgeValue: 4, correctedValue: 2 }]);
 * await evaluateContent({ content, catalog, fewShot: { source } });
 */
export function inMemoryExampleSource(examples: readonly FewShotExample[]): ExampleSource {
  const parsed = z.array(FewShotExampleSchema).safeParse(examples);
  if (!parsed.success) {
    throw promptInvalid(z.prettifyError(parsed.error), { source: "few-shot examples" });
  }
  const kept = parsed.data.map(boundedExample);
  for (const example of kept) {
    if (Number.isNaN(Date.parse(example.decidedAt))) {
      throw promptInvalid(`decidedAt "${example.decidedAt.slice(0, 40)}" is not an ISO 8601 time`, {
        source: `few-shot example ${example.labelId.slice(0, 80)}`,
      });
    }
  }
  return {
    async examples(query) {
      const before = Date.parse(query.before);
      return kept
        .filter(
          (e) =>
            e.criterionId === query.criterionId &&
            // A correction that names no content type holds for every one.
            (query.contentType === undefined ||
              e.contentType === undefined ||
              e.contentType === query.contentType) &&
            Date.parse(e.decidedAt) < before,
        )
        .sort((a, b) => Date.parse(b.decidedAt) - Date.parse(a.decidedAt))
        .slice(0, Math.max(0, query.limit));
    },
  };
}
