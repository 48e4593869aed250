/**
 * Answers that say two things: a field given twice with different values (`Score` beside
 * `score`), or two decisive fields that disagree. JSON.parse would silently keep the last; here it
 * is a judge error naming what was given twice, never a pick.
 */
import { describeValue, normaliseKey, RESULT_FIELDS, readCheck } from "./answerValues.js";
import { type LenientObject, type LenientValue, valuesGiven } from "./jsonObjectScan.js";

function canonical(value: LenientValue): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k] as LenientValue)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function times(count: number): string {
  return count === 2 ? "twice" : `${count} times`;
}

const LIST = new Intl.ListFormat("en-GB", { type: "conjunction" });

/** "a and b", "a, b and c". */
export function listed(items: readonly string[]): string {
  return LIST.format(items);
}

function disagree(values: readonly LenientValue[]): boolean {
  return new Set(values.map(canonical)).size > 1;
}

/** The first field given more than once (names compared normalised) with values that differ. */
export function repeatedFieldProblem(
  object: LenientObject,
  what = "the answer",
): string | undefined {
  const byName = new Map<string, { key: string; values: LenientValue[] }>();
  for (const key of Object.keys(object)) {
    const name = normaliseKey(key);
    const entry = byName.get(name) ?? { key, values: [] };
    entry.values.push(...valuesGiven(object, key));
    byName.set(name, entry);
  }
  for (const { key, values } of byName.values()) {
    if (values.length > 1 && disagree(values)) {
      return `${what} gives '${key}' ${times(values.length)}: ${listed(values.map(describeValue))}`;
    }
  }
  return undefined;
}

/** Two decisive fields (aliases such as `result` and `verdict`) that decide differently. */
export function conflictingDecisions(
  object: LenientObject,
  names: readonly string[],
  read: (value: LenientValue) => string | undefined,
  what = "the answer",
): string | undefined {
  const decisions: Array<{ key: string; decision: string }> = [];
  for (const [key, value] of Object.entries(object)) {
    if (!names.includes(normaliseKey(key))) continue;
    const decision = read(value);
    if (decision !== undefined) decisions.push({ key, decision });
  }
  if (new Set(decisions.map((d) => d.decision)).size <= 1) return undefined;
  const shown = decisions.map((d) => `'${d.key}' ${d.decision}`);
  return `${what} gives ${decisions.length} decisions that disagree: ${listed(shown)}`;
}

/**
 * A pass/fail word (`verdict`, `result`, `passed`) in `object` that says otherwise than whether a
 * score or level meets (`met`) its threshold: `{"score": 5, "verdict": "fail"}`.
 */
export function contradictingVerdictWord(
  object: LenientObject,
  decision: { key: string; native: number | string; met: boolean; threshold: number },
): string | undefined {
  const { key: field, native, met, threshold } = decision;
  for (const [key, value] of Object.entries(object)) {
    if (!(RESULT_FIELDS as readonly string[]).includes(normaliseKey(key))) continue;
    const word = verdictWordOf(value);
    if (word === undefined || (word === "pass") === met) continue;
    const stands = met ? "meets" : "is under";
    return `the answer's '${field}' ${native} ${stands} the threshold ${threshold} but '${key}' says ${word}`;
  }
  return undefined;
}

/** Words beside a score that say whether it is met, besides pass and fail. */
const MET_WORDS: Readonly<Record<string, "pass" | "fail">> = {
  met: "pass",
  "not met": "fail",
  not_met: "fail",
  unmet: "fail",
};

function verdictWordOf(value: LenientValue): "pass" | "fail" | undefined {
  const read = readCheck(value);
  if (read.ok) return read.value;
  if (typeof value !== "string") return undefined;
  return MET_WORDS[
    value
      .trim()
      .toLowerCase()
      .replace(/\s+/g, " ")
      .replace(/[.!]+$/, "")
  ];
}

/** The objects among every value the object gave, repeated keys included. */
export function objectValues(object: LenientObject): LenientObject[] {
  return Object.keys(object)
    .flatMap((key) => valuesGiven(object, key))
    .filter((v): v is LenientObject => typeof v === "object" && v !== null && !Array.isArray(v));
}
