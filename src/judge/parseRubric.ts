import { z } from "zod";
import type { Criterion } from "../criteria/model.js";
import { type JudgeAnswer, JudgeAnswerSchema, unusableAnswer } from "./answer.js";
import { conflictingDecisions, disagree, listed, repeatedFieldProblem } from "./answerAmbiguity.js";
import { answerTooLong, MAX_ANSWER_CHARS, stripReasoningBlocks } from "./answerText.js";
import { fieldOf, RESULT_FIELDS, readCheck, readReasoning } from "./answerValues.js";
import {
  type AnswerObject,
  type AnswerValue,
  type JsonObjectScan,
  scanJsonObjects,
  valuesGiven,
} from "./jsonObjectScan.js";
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

function isObject(value: AnswerValue | undefined): value is AnswerObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The entries of a "checks" field: [{id, result, reasoning}] or {id: result | {result, …}}. */
function entriesOf(checks: AnswerValue): Array<{ id: string; entry: AnswerObject }> {
  if (Array.isArray(checks)) {
    return checks.filter(isObject).flatMap((entry) => {
      const id = fieldOf(entry, ID_FIELDS)?.value;
      return typeof id === "string" || typeof id === "number" ? [{ id: String(id), entry }] : [];
    });
  }
  if (isObject(checks)) {
    // An item given twice as a key is two entries, so a second answer cannot hide the first.
    return Object.keys(checks).flatMap((id) =>
      valuesGiven(checks, id).map((value) => ({
        id,
        entry: isObject(value) ? value : { result: value },
      })),
    );
  }
  return [];
}

/** The item's decision as text, or undefined when the entry gives none that reads. */
function decisionOf(entry: AnswerObject): string | undefined {
  const read = readCheck(fieldOf(entry, ITEM_RESULT_FIELDS)?.value ?? null);
  return read.ok ? read.value : undefined;
}

function itemAnswer(itemId: string, entry: AnswerObject, overallReasoning: string): JudgeAnswer {
  const reasoning = readReasoning(entry);
  const what = `the answer for rubric item '${itemId}'`;
  const ambiguity =
    repeatedFieldProblem(entry, what) ??
    conflictingDecisions(
      entry,
      ITEM_RESULT_FIELDS,
      (value) => {
        const read = readCheck(value);
        return read.ok ? read.value : undefined;
      },
      what,
    );
  if (ambiguity !== undefined) return unusableAnswer(ambiguity, reasoning);
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
  for (const o of holding) {
    const repeated = repeatedFieldProblem(o.value);
    if (repeated !== undefined) return { error: `${repeated}; the judge must give one answer` };
  }
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

/** The entries of the checks, by the rubric item they answer (ids matched case-insensitively). */
function entriesByItem(
  found: AnswerObject,
  items: readonly Criterion[],
  notes: string[],
): Map<string, AnswerObject[]> {
  const byId = new Map<string, AnswerObject[]>();
  const idOf = new Map(items.map((item) => [item.id.toLowerCase(), item.id]));
  for (const { id, entry } of entriesOf(fieldOf(found, CHECKS_FIELDS)?.value ?? null)) {
    const itemId = items.some((i) => i.id === id) ? id : idOf.get(id.trim().toLowerCase());
    if (itemId === undefined) notes.push(`ignored a check for unknown rubric item '${id}'`);
    else byId.set(itemId, [...(byId.get(itemId) ?? []), entry]);
  }
  return byId;
}

/**
 * The answer for one item: none given is a judge error; given more than once, the answers must
 * agree (then the first is used) — two that decide differently are ambiguous, a judge error.
 */
function answerForItem(
  itemId: string,
  entries: readonly AnswerObject[],
  overallReasoning: string,
  notes: string[],
): JudgeAnswer {
  const [first] = entries;
  if (first === undefined) return unusableAnswer(`no result for rubric item '${itemId}'`);
  if (entries.length > 1) {
    const decisions = entries.map((e) => decisionOf(e) ?? "no result");
    if (disagree(decisions)) {
      return unusableAnswer(
        `the answer gives rubric item '${itemId}' ${entries.length} times: ${listed(decisions)}; the judge must give one answer`,
      );
    }
    notes.push(`rubric item '${itemId}' was answered ${entries.length} times, alike; used once`);
  }
  return itemAnswer(itemId, first, overallReasoning);
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

  const byId = entriesByItem(found.value, items, notes);
  const overallReasoning = readReasoning(found.value);
  for (const item of items) {
    const answer = answerForItem(item.id, byId.get(item.id) ?? [], overallReasoning, notes);
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
