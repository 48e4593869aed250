/**
 * Score corrections (`--correct c=v`, `--note c=text`, the `mark` step), on each criterion's own
 * scale.
 */
import { quotedId, shownId } from "../../graph/reviewInput.js";
import type { PendingReview } from "../../orchestrator/pendingReview.js";
import { type CorrectionInput, resolveCorrections } from "../../scoring/corrections.js";
import { isCorrectionInvalidError } from "../../scoring/errors.js";
import type { EvaluationResult } from "../../scoring/result.js";
import { CliError } from "../errors.js";

/** `c2=2` → ["c2", "2"]; the first `=` splits. */
function pairOf(option: string, text: string): [string, string] {
  const at = text.indexOf("=");
  const id = at < 0 ? "" : text.slice(0, at).trim();
  const value = at < 0 ? "" : text.slice(at + 1).trim();
  if (id === "" || value === "") {
    throw new CliError(
      `${option} takes <criterion>=<value>, e.g. ${option} c2=2 (got ${quotedId(text)})`,
    );
  }
  return [id, value];
}

/** A value as a reviewer types it: a number is a score, anything else a level (or pass/fail). */
function correctionOf(criterionId: string, value: string, note?: string): CorrectionInput {
  const number = Number(value);
  const given =
    value.trim() !== "" && Number.isFinite(number) ? { score: number } : { level: value };
  return { criterionId, ...given, ...(note === undefined || note === "" ? {} : { note }) };
}

/** The corrections of `--correct` and `--note`; a note for a criterion not corrected is refused. */
export function correctionsFromOptions(
  correct: readonly string[] = [],
  notes: readonly string[] = [],
): CorrectionInput[] {
  const noteOf = new Map(notes.map((n) => pairOf("--note", n)));
  const corrections = correct.map((text) => {
    const [id, value] = pairOf("--correct", text);
    return correctionOf(id, value, noteOf.get(id));
  });
  for (const id of noteOf.keys()) {
    if (!corrections.some((c) => c.criterionId === id)) {
      throw new CliError(`--note ${shownId(id)}=… goes with a --correct ${shownId(id)}=<value>`);
    }
  }
  return corrections;
}

type JudgedCriterion = EvaluationResult["criteria"][number];

/** The values a criterion can be corrected to: pass/fail, its level ids, or its scale's ends. */
function valuesOf(c: JudgedCriterion): string[] {
  if (c.method === "check") return ["pass", "fail"];
  const levels = (c.levels ?? []).map((l) => l.id);
  return levels.length > 0 ? levels : [String(c.scale?.min ?? 0), String(c.scale?.max ?? 1)];
}

/** What a criterion can be corrected to, for the prompt: its scale, levels or pass/fail. */
function choicesText(evaluation: EvaluationResult): string {
  return evaluation.criteria
    .map((c) => {
      const judged = c.native === null ? "not evaluated" : String(c.native);
      const values = valuesOf(c);
      const ranged = c.method !== "check" && (c.levels?.length ?? 0) === 0;
      const scale = values.join(ranged ? "–" : "/");
      return `  ${c.id} (${scale}): judge said ${judged}`;
    })
    .join("\n");
}

/** How to answer, with the first criterion of the review as the example. */
function markUsage(evaluation: EvaluationResult): string {
  const first = evaluation.criteria[0];
  const example = first === undefined ? "c2 2" : `${first.id} ${valuesOf(first).at(-1)}`;
  return `answer <criterion> <right value> [note], e.g. ${example} too vague`;
}

/** One `mark` answer (`<criterion> <value> [note…]`): the correction, or what is wrong with it. */
export function markedCorrection(
  review: PendingReview,
  answer: string,
  earlier: readonly CorrectionInput[],
): { correction: CorrectionInput } | { message: string } {
  // `c2=2 note` as --correct writes it reads like `c2 2 note`.
  const words = answer
    .trim()
    .replace(/^([^\s=]+)=/, "$1 ")
    .split(/\s+/);
  const [id = "", value = "", ...note] = words;
  if (review.evaluation === null) return { message: "this review has no scores to mark" };
  if (id === "" || value === "") return { message: markUsage(review.evaluation) };
  const correction = correctionOf(id, value, note.join(" "));
  try {
    const others = earlier.filter((c) => c.criterionId !== id);
    resolveCorrections(review.evaluation, [...others, correction]);
  } catch (error) {
    if (!isCorrectionInvalidError(error)) throw error;
    return { message: error.message };
  }
  return { correction };
}

/** The `mark` prompt's question, listing the criteria and their scales. */
export function markQuestion(review: PendingReview): string {
  const list = review.evaluation === null ? "" : `${choicesText(review.evaluation)}\n`;
  return `${list}Criterion and the right value, then an optional note (empty to go back): `;
}
