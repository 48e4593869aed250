/** A point's XML answer (`<reflection>…</reflection><coverage_extent>0.8</coverage_extent>`). */
import { UNIT_SCALE } from "../criteria/model.js";
import { listed } from "./answerAmbiguity.js";
import type { AnswerContract } from "./answerContract.js";
import { type Interpretation, justified } from "./answerContract.js";
import { readScore, describeValue as shown, taggedTexts } from "./answerValues.js";

export interface CoverageXmlRead {
  /** Undefined when the text holds no complete coverage_extent element. */
  read?: Interpretation;
  truncated: boolean;
  reasoning: string;
}

function repeatedElement(
  coverages: readonly string[],
  reflections: readonly string[],
): string | undefined {
  // Coverage values compare as numbers where they are numbers ("0.8" and "0.80" agree).
  const asNumber = (text: string) => (Number.isFinite(Number(text)) ? String(Number(text)) : text);
  if (new Set(coverages.map(asNumber)).size > 1) {
    return `the answer gives <coverage_extent> ${coverages.length} times: ${listed(coverages.map(shown))}`;
  }
  if (new Set(reflections).size > 1) {
    return `the answer gives <reflection> ${reflections.length} times: ${listed(reflections.map(shown))}`;
  }
  return undefined;
}

export function readCoverageXml(text: string, contract: AnswerContract): CoverageXmlRead {
  const reflections = taggedTexts(text, "reflection").inners.map((r) => r.trim());
  const reasoning = reflections[0] ?? "";
  const coverages = taggedTexts(text, "coverage_extent");
  const values = coverages.inners.map((c) => c.trim());
  const first = values[0];
  if (first === undefined) return { truncated: coverages.open, reasoning };
  const fail = (status: "invalid" | "ambiguous", error: string): CoverageXmlRead => ({
    read: { status, error, reasoning },
    truncated: false,
    reasoning,
  });
  const repeated = repeatedElement(values, reflections);
  if (repeated !== undefined) return fail("ambiguous", repeated);
  if (contract.kind !== "numeric") {
    return fail("invalid", "a coverage_extent answer is not pass/fail or a level");
  }
  const unit = readScore(first, UNIT_SCALE, "coverage_extent");
  const { min, max } = contract.scale;
  const read =
    !unit.ok || (min === 0 && max === 1)
      ? unit
      : readScore(min + unit.value.score01 * (max - min), contract.scale, "coverage_extent");
  if (!read.ok) return fail("invalid", read.error);
  const notes = [...(unit.ok ? unit.notes : []), ...read.notes];
  return { read: justified({ value: read.value, notes }, reasoning), truncated: false, reasoning };
}
