/**
 * Answers that say two things. JSON.parse keeps the last of two equal keys without a word, and a
 * reader that takes the first field it finds hides a second one spelt differently; either way a
 * guess is made. Here an answer object that gives a field more than once with different values
 * (`"score": 0.1, … "score": 0.9`, or `Score` beside `score`), or two decisive fields that
 * disagree (`"result": "pass", "verdict": "fail"`), is ambiguous: a judge error naming what was
 * given twice, never a pick.
 */
import { describeValue, normaliseKey } from "./answerValues.js";
import { type LenientObject, type LenientValue, valuesGiven } from "./jsonObjectScan.js";

/** A value in a canonical form, so that two equal values compare equal whatever their key order. */
function canonical(value: LenientValue): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k] as LenientValue)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function times(count: number): string {
  return count === 2 ? "twice" : `${count} times`;
}

/** "a and b", "a, b and c". */
export function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Whether the values are not all the same. */
function disagree(values: readonly LenientValue[]): boolean {
  return new Set(values.map(canonical)).size > 1;
}

/**
 * The first field the object gives more than once with values that differ (names compared as the
 * reader compares them: case, spaces and hyphens aside), as a message; undefined when none does.
 */
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

/**
 * Two fields that each carry the decision (aliases such as `result` and `verdict`) and decide
 * differently, as a message; `read` gives a field's decision, or undefined when the value is not
 * one (such a field is not a second decision).
 */
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

/** The objects among every value the object gave (repeated keys included), in order. */
export function objectValues(object: LenientObject): LenientObject[] {
  return Object.keys(object)
    .flatMap((key) => valuesGiven(object, key))
    .filter((v): v is LenientObject => typeof v === "object" && v !== null && !Array.isArray(v));
}
