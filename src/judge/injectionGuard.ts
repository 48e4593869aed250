import { conflictingDecisions, repeatedFieldProblem } from "./answerAmbiguity.js";
import {
  answerTooLong,
  fieldOf,
  readCheck,
  readReasoning,
  stripReasoningBlocks,
} from "./answerValues.js";
import { scanJsonObjects } from "./jsonObjectScan.js";
import { splitTables } from "./parseBatch.js";

/** The guard's answer, read fail-closed: a failure forces human review like a finding. */
export type GuardVerdict =
  | { ok: true; instructionBearing: boolean; reasoning: string }
  | { ok: false; error: string };

const VERDICT_FIELDS = [
  "instruction_bearing",
  "instructionbearing",
  "contains_instructions",
  "injection",
  "prompt_injection",
] as const;

export function parseGuardResponse(response: string): GuardVerdict {
  const tooLong = answerTooLong(response);
  if (tooLong !== undefined) return { ok: false, error: tooLong };
  const text = stripReasoningBlocks(response).text;
  const verdicts: Array<{ instructionBearing: boolean; reasoning: string }> = [];
  let problem = "no JSON object found";
  for (const { value } of scanJsonObjects(text).objects) {
    const field = fieldOf(value, VERDICT_FIELDS);
    if (field === undefined) {
      problem = "instruction_bearing missing";
      continue;
    }
    const ambiguity =
      repeatedFieldProblem(value, "the guard's answer") ??
      conflictingDecisions(
        value,
        VERDICT_FIELDS,
        (given) => {
          const check = readCheck(given);
          return check.ok ? String(check.value === "pass") : undefined;
        },
        "the guard's answer",
      );
    if (ambiguity !== undefined) return { ok: false, error: ambiguity };
    const read = readCheck(field.value, "instruction_bearing");
    if (!read.ok) {
      problem = read.error;
      continue;
    }
    const reasoning = readReasoning(value);
    if (reasoning === "") {
      problem = "reasoning missing";
      continue;
    }
    verdicts.push({ instructionBearing: read.value === "pass", reasoning });
  }
  const [first] = verdicts;
  if (first === undefined) return { ok: false, error: problem };
  if (verdicts.some((v) => v.instructionBearing !== first.instructionBearing)) {
    return { ok: false, error: "the guard gave answers that disagree" };
  }
  return { ok: true, ...first };
}

/** The guard's answer on the screening line of a grouped or batch call, outside the table(s). */
export function parseScreeningAnswer(response: string): GuardVerdict {
  const tooLong = answerTooLong(response);
  if (tooLong !== undefined) return { ok: false, error: tooLong };
  const { outside } = splitTables(stripReasoningBlocks(response).text);
  const verdict = parseGuardResponse(outside);
  if (verdict.ok || verdict.error !== "no JSON object found") return verdict;
  return { ok: false, error: "no screening line before the table" };
}
