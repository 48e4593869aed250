import { type Catalog, type Criterion, CriterionSchema } from "../../criteria/model.js";
import { toOutcome } from "../../judge/answer.js";
import { lacksReasoning } from "../../judge/parse.js";
import type { RubricAnswer } from "../../judge/parseRubric.js";
import { makeCriterionResult, notEvaluatedOutcome } from "../../scoring/criterionResult.js";
import type { PromptRubricItem, RubricItemResult } from "./promptEvaluatorSchema.js";

/** Each rubric item as judged: pass / fail, or `error` when the judge gave no usable answer. */
export function rubricItemResults(
  rubrics: readonly PromptRubricItem[],
  answer: RubricAnswer,
): RubricItemResult[] {
  return rubrics.map((item) => {
    const judged = answer.items[item.id];
    const base = { ...item, reasoning: judged?.reasoning ?? "" };
    if (judged === undefined || !judged.usable) {
      return {
        ...base,
        result: "error",
        judgeError: judged?.judgeError ?? `no result for rubric item '${item.id}'`,
      };
    }
    return { ...base, result: judged.native === "pass" ? "pass" : "fail" };
  });
}

/** The judge's overall reasoning, or else each item's. */
export function rubricReasoning(
  answer: RubricAnswer,
  results: readonly RubricItemResult[],
): string {
  if (answer.reasoning !== "") return answer.reasoning;
  return results
    .filter((r) => r.reasoning !== "")
    .map((r) => `${r.id}: ${r.reasoning}`)
    .join("\n");
}

/** The rubric items as criterion results, an unanswered item as not evaluated. */
export function rubricCriterionResults(
  items: readonly Criterion[],
  answer: RubricAnswer,
  catalog: Catalog,
) {
  return items.map((item) => {
    const judged = answer.items[item.id];
    const outcome =
      judged === undefined
        ? notEvaluatedOutcome(`no result for rubric item '${item.id}'`)
        : toOutcome(judged);
    return makeCriterionResult(item, outcome, catalog);
  });
}

/** Rubric items as check criteria: a required item is critical, and every item must be judged. */
export function rubricCriteria(items: readonly PromptRubricItem[]): Criterion[] {
  return items.map((item) =>
    CriterionSchema.parse({
      id: item.id,
      title: item.id,
      description: item.expected_outcome,
      weight: item.weight,
      critical: item.required,
      required: true,
      method: { kind: "check", expectedOutcome: item.expected_outcome },
    }),
  );
}

/** True when some rubric item was decided without any reasoning (worth asking again). */
export function rubricLacksReasoning(answer: RubricAnswer): boolean {
  return Object.values(answer.items).some((item) => lacksReasoning(item));
}
