import { z } from "zod";
import type { Criterion } from "../criteria/model.js";
import { type JudgeAnswer, JudgeAnswerSchema, unusableAnswer } from "./answer.js";
import { answerTooLong, MAX_ANSWER_CHARS, stripReasoningBlocks } from "./answerText.js";
import { fieldOf, RESULT_FIELDS, readCheck, readReasoning } from "./answerValues.js";
import { type JsonObjectScan, scanJsonObjects } from "./jsonObjectScan.js";
import type { LenientObject, LenientValue } from "./lenientJson.js";
import { REASONING_MISSING } from "./parse.js";
import { rubricItemOf } from "./rubricItem.js";

/**
 * Rubric mode, read back: one pass/fail answer per rubric item; hits are the outcomes of
 * the satisfied items and misses those of the unsatisfied ones. An item the judge did not answer
 * is unusable (not evaluated), never a fail.
 */
export const RubricAnswerSchema = z.object({
  /** At least one item was answered. */
  usable: z.boolean(),
  reasoning: z.string(),
  /** Item id → its answer (native "pass" / "fail", 1 / 0). */
  items: z.record(z.string(), JudgeAnswerSchema),
  hits: z.array(z.string()),
  misses: z.array(z.string()),
  notes: z.array(z.string()),
  judgeError: z.string().optional(),
});
export type RubricAnswer = z.infer<typeof RubricAnswerSchema>;

const CHECKS_FIELDS = ["checks", "results", "items", "rubric", "rubrics"] as const;
const ID_FIELDS = ["id", "item", "item_id", "rubric_id"] as const;
const ITEM_RESULT_FIELDS = [...RESULT_FIELDS, "satisfied", "met"] as const;

function isObject(value: LenientValue | undefined): value is LenientObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The entries of a "checks" field: [{id, result, reasoning}] or {id: result | {result, …}}. */
function entriesOf(checks: LenientValue): Array<{ id: string; entry: LenientObject }> {
  if (Array.isArray(checks)) {
    return checks.filter(isObject).flatMap((entry) => {
      const id = fieldOf(entry, ID_FIELDS)?.value;
      return typeof id === "string" || typeof id === "number" ? [{ id: String(id), entry }] : [];
    });
  }
  if (isObject(checks)) {
    return Object.entries(checks).map(([id, value]) => ({
      id,
      entry: isObject(value) ? value : { result: value },
    }));
  }
  return [];
}

function itemAnswer(entry: LenientObject, overallReasoning: string): JudgeAnswer {
  const reasoning = readReasoning(entry);
  const result = fieldOf(entry, ITEM_RESULT_FIELDS);
  if (result === undefined) return unusableAnswer("result missing", reasoning);
  const read = readCheck(result.value);
  if (!read.ok) return unusableAnswer(read.error, reasoning);
  // Every decision is justified: by the item's own reasoning or by the answer's overall one.
  if (reasoning === "" && overallReasoning === "") return unusableAnswer(REASONING_MISSING);
  return {
    usable: true,
    score01: read.value === "pass" ? 1 : 0,
    native: read.value,
    reasoning,
    hits: [],
    misses: [],
    notes: [],
  };
}

/** The one object holding the checks; several that disagree are a judge error, not a guess. */
function checksObject(objects: JsonObjectScan["objects"]): {
  found?: JsonObjectScan["objects"][number];
  error?: string;
} {
  const holding = objects.filter((o) => fieldOf(o.value, CHECKS_FIELDS) !== undefined);
  const first = holding[0];
  if (first === undefined) return {};
  const checksOf = (o: (typeof holding)[number]) =>
    JSON.stringify(
      entriesOf(fieldOf(o.value, CHECKS_FIELDS)?.value ?? null).map((e) => [
        e.id,
        readCheck(fieldOf(e.entry, ITEM_RESULT_FIELDS)?.value ?? null),
      ]),
    );
  const distinct = new Set(holding.map(checksOf));
  if (distinct.size > 1) {
    return {
      error: `the response holds ${holding.length} sets of checks that disagree; the judge must give one`,
    };
  }
  return { found: first };
}

/** Reads the judge's answer to a rubric prompt (see renderRubricPrompt). */
export function parseRubricResponse(
  response: string,
  items: readonly Criterion[],
  maxChars = MAX_ANSWER_CHARS,
): RubricAnswer {
  const tooLong = answerTooLong(response, maxChars);
  const text = tooLong === undefined ? stripReasoningBlocks(response).text : "";
  const scan = scanJsonObjects(text);
  const chosen = checksObject(scan.objects);
  const found = chosen.found;
  const notes: string[] = [];
  const answers: Record<string, JudgeAnswer> = {};
  const hits: string[] = [];
  const misses: string[] = [];

  if (found === undefined) {
    const error =
      tooLong ??
      chosen.error ??
      (text.trim() === ""
        ? "empty response"
        : scan.truncated
          ? "answer truncated"
          : scan.objects.length > 0
            ? "checks missing"
            : "no JSON object found");
    for (const item of items) answers[item.id] = unusableAnswer(error);
    return RubricAnswerSchema.parse({
      usable: false,
      reasoning: "",
      items: answers,
      hits,
      misses,
      notes,
      judgeError: error,
    });
  }

  const entries = entriesOf(fieldOf(found.value, CHECKS_FIELDS)?.value ?? null);
  const byId = new Map<string, LenientObject>();
  const idOf = new Map(items.map((item) => [item.id.toLowerCase(), item.id]));
  for (const { id, entry } of entries) {
    const itemId = items.some((i) => i.id === id) ? id : idOf.get(id.trim().toLowerCase());
    if (itemId === undefined) {
      notes.push(`ignored a check for unknown rubric item '${id}'`);
    } else if (byId.has(itemId)) {
      notes.push(`rubric item '${itemId}' was answered more than once; the first answer is used`);
    } else {
      byId.set(itemId, entry);
    }
  }

  const overallReasoning = readReasoning(found.value);
  for (const item of items) {
    const entry = byId.get(item.id);
    const answer =
      entry === undefined
        ? unusableAnswer(`no result for rubric item '${item.id}'`)
        : itemAnswer(entry, overallReasoning);
    answers[item.id] = answer;
    if (answer.usable) {
      const { outcome } = rubricItemOf(item);
      (answer.native === "pass" ? hits : misses).push(outcome);
    }
  }

  const answered = Object.values(answers).some((a) => a.usable);
  const result: RubricAnswer = {
    usable: answered,
    reasoning: overallReasoning,
    items: answers,
    hits,
    misses,
    notes,
  };
  if (!answered) result.judgeError = "no rubric item was answered";
  return RubricAnswerSchema.parse(result);
}
