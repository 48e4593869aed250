import { formatSchemaError } from "../checks/schemaCriterion.js";
import { compileJsonSchema, type JsonSchema } from "../criteria/jsonSchema.js";
import type { Criterion } from "../criteria/model.js";
import { meetsThreshold } from "../scoring/consistency.js";
import { type JudgeAnswer, JudgeAnswerSchema, unusableAnswer } from "./answer.js";
import {
  conflictingDecisions,
  contradictingVerdictWord,
  objectValues,
  repeatedFieldProblem,
} from "./answerAmbiguity.js";
import {
  type AnswerContract,
  answerContractOf,
  type Decision,
  fieldsOf,
  type Interpretation,
  justified,
  readDecision,
} from "./answerContract.js";
import {
  answerTooLong,
  fieldOf,
  MAX_ANSWER_CHARS,
  QUOTE_FIELDS,
  readList,
  readQuotes,
  readReasoning,
  stripReasoningBlocks,
} from "./answerValues.js";
import { readCoverageXml } from "./coverageXml.js";
import { type LenientObject, scanJsonObjects } from "./jsonObjectScan.js";
import { readProseLevel } from "./proseLevel.js";

const REASONING_MISSING = "reasoning missing: every judgement must be justified";

export const ASKED_AGAIN_NOTE = "the first answer gave no reasoning; asked once more";

/** The only thing wrong is the missing reasoning: worth asking again. */
export function lacksReasoning(answer: JudgeAnswer): boolean {
  return !answer.usable && answer.judgeError === REASONING_MISSING;
}

/**
 * A pass/fail word beside a score or level, in its object or the one wrapping it, that says
 * otherwise. (A check's pass/fail fields are its decisive ones, compared by conflictingDecisions;
 * an object holding one is never a wrapper.)
 */
function verdictWordProblem(
  object: LenientObject,
  outer: LenientObject | undefined,
  said: { key: string; value: Decision },
  contract: AnswerContract,
): string | undefined {
  if (contract.kind === "check") return undefined;
  const { threshold } = contract;
  const decision = {
    key: said.key,
    native: said.value.native,
    met: meetsThreshold(said.value.score01, threshold),
    threshold,
  };
  return (
    contradictingVerdictWord(object, decision) ??
    (outer === undefined ? undefined : contradictingVerdictWord(outer, decision))
  );
}

function interpretObject(
  object: LenientObject,
  contract: AnswerContract,
  outer?: LenientObject,
): Interpretation {
  const reasoning = readReasoning(object);
  const found = fieldOf(object, fieldsOf(contract));
  if (found === undefined) return { status: "missing", field: contract.field, reasoning };
  const ambiguity =
    repeatedFieldProblem(object) ??
    conflictingDecisions(object, fieldsOf(contract), (value) => {
      const read = readDecision(value, contract);
      return read.ok ? String(read.value.native) : undefined;
    });
  if (ambiguity !== undefined) return { status: "ambiguous", error: ambiguity, reasoning };
  const decision = readDecision(found.value, contract);
  if (!decision.ok) return { status: "invalid", error: decision.error, reasoning };
  const said = { key: found.key, value: decision.value };
  const contradiction = verdictWordProblem(object, outer, said, contract);
  if (contradiction !== undefined) return { status: "ambiguous", error: contradiction, reasoning };
  if (contract.kind === "levels" && contract.outputSchema !== undefined) {
    // The level as read (an id for a label or a different case) is what the schema checks.
    const read = found.key === "level_id" ? { ...object, level_id: decision.value.native } : object;
    const problem = decodeAnswerProblem(read, contract.outputSchema);
    if (problem !== undefined) return { status: "invalid", error: problem, reasoning };
  }
  return justified(decision, reasoning, {
    hits: readList(fieldOf(object, ["hits"])?.value),
    misses: readList(fieldOf(object, ["misses"])?.value),
    quotes: readQuotes(fieldOf(object, QUOTE_FIELDS)?.value),
  });
}

/**
 * An object with the decisive field is the only candidate (what it nests — an example, a draft —
 * never counts); one without may wrap the answer ({"evaluation": {…}}).
 */
function candidatesOf(object: LenientObject, contract: AnswerContract): LenientObject[] {
  if (fieldOf(object, fieldsOf(contract)) !== undefined) return [object];
  return [object, ...objectValues(object)];
}

/** A response that is just the value (`4`, `"pass"`): it has no reasoning. */
function isBareValue(text: string, contract: AnswerContract): boolean {
  const bare = text
    .trim()
    .replace(/^[`*"']+|[`*"']+$/g, "")
    .replace(/[.!]$/, "")
    .trim();
  if (bare === "" || bare.length > 60 || /[{}\n]/.test(bare)) return false;
  return readDecision(bare, contract).ok;
}

function salvageReasoning(text: string): string {
  const match = /"reasoning"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(text);
  if (match === null) return "";
  const raw = (match[1] ?? "").replace(/\\$/, "");
  try {
    return (JSON.parse(`"${raw}"`) as string).trim();
  } catch {
    return raw.trim();
  }
}

interface Readings {
  answers: Array<{ answer: JudgeAnswer; start: number }>;
  unjustified: boolean;
  /** An answer that says two things makes the whole response a judge error. */
  ambiguous?: { error: string; reasoning: string };
  invalid?: { error: string; reasoning: string };
  missing?: { field: string; reasoning: string };
  rejected?: string;
}

function record(readings: Readings, read: Interpretation, start: number, nested: boolean): void {
  if (read.status === "ok") {
    if (nested) read.answer.notes.push("the answer was nested inside an outer JSON object");
    if (readings.rejected !== undefined && readings.answers.length === 0) {
      read.answer.notes.push(
        `used the JSON object at offset ${start}; an earlier object was not an answer (${readings.rejected})`,
      );
    }
    readings.answers.push({ answer: read.answer, start });
    return;
  }
  if (read.status === "unjustified") readings.unjustified = true;
  else if (read.status === "ambiguous") readings.ambiguous ??= read;
  else if (read.status === "invalid") readings.invalid ??= read;
  else readings.missing ??= read;
  const reason =
    read.status === "invalid" || read.status === "ambiguous"
      ? read.error
      : read.status === "missing"
        ? `${read.field} missing`
        : "no reasoning";
  if (!nested) readings.rejected ??= reason;
}

/** Several answers that disagree are a judge error, never a guess. */
function settle(readings: Readings): JudgeAnswer {
  const [first, ...others] = readings.answers;
  if (first === undefined) throw new Error("internal: no answer to settle");
  const values = new Set(readings.answers.map((a) => String(a.answer.native)));
  if (values.size > 1) {
    const listed = readings.answers.map((a) => `${a.answer.native} at offset ${a.start}`);
    return unusableAnswer(
      `the response holds ${readings.answers.length} answers that disagree (${listed.join(", ")}); the judge must give one`,
      first.answer.reasoning,
    );
  }
  if (others.length > 0) {
    first.answer.notes.push(`the same answer was given ${readings.answers.length} times`);
  }
  return first.answer;
}

/**
 * Reads a judge's response under an answer contract, fail-closed: every top-level JSON object
 * (and the points format's XML answer) that fits the contract is an answer; one, or several that
 * agree, is used; anything else is unusable with a `judgeError`.
 */
function parseWithContract(
  text: string,
  contract: AnswerContract,
  maxChars = MAX_ANSWER_CHARS,
): JudgeAnswer {
  const tooLong = answerTooLong(text, maxChars);
  if (tooLong !== undefined) return unusableAnswer(tooLong);
  if (text.trim() === "") return unusableAnswer("empty response");
  const stripped = stripReasoningBlocks(text);
  const body = stripped.text;
  if (body.trim() === "") {
    const why = stripped.unclosed ? "answer truncated" : "the response is only a reasoning block";
    return unusableAnswer(why);
  }
  const readings: Readings = { answers: [], unjustified: false };
  const xml = contract.kind === "numeric" ? readCoverageXml(body, contract) : undefined;
  if (xml?.read !== undefined) record(readings, xml.read, body.search(/<coverage_extent>/i), false);
  const scan = scanJsonObjects(body);
  for (const found of scan.objects) {
    for (const candidate of candidatesOf(found.value, contract)) {
      const nested = candidate !== found.value;
      const outer = nested ? found.value : undefined;
      record(readings, interpretObject(candidate, contract, outer), found.start, nested);
    }
  }
  if (readings.ambiguous !== undefined) {
    const { error, reasoning } = readings.ambiguous;
    return unusableAnswer(`${error}; the judge must give one answer`, reasoning);
  }
  if (readings.answers.length > 0) return settle(readings);

  const noStructure = scan.objects.length === 0 && !scan.truncated && xml?.read === undefined;
  if (readings.unjustified || (noStructure && isBareValue(body, contract))) {
    return unusableAnswer(REASONING_MISSING);
  }
  const { invalid, missing } = readings;
  const reasoning =
    invalid?.reasoning || missing?.reasoning || xml?.reasoning || salvageReasoning(body);
  if (invalid !== undefined) return unusableAnswer(invalid.error, reasoning);
  if (scan.truncated || xml?.truncated || stripped.unclosed) {
    return unusableAnswer("answer truncated", reasoning);
  }
  if (missing !== undefined) return unusableAnswer(`${missing.field} missing`, reasoning);
  if (noStructure && contract.kind === "levels") return readProseLevel(body, contract.levels);
  const detail = scan.firstError === undefined ? "" : ` (${scan.firstError})`;
  return unusableAnswer(`no JSON object found${detail}`, reasoning);
}

export function parseJudgeResponse(text: string, criterion: Criterion): JudgeAnswer {
  return JudgeAnswerSchema.parse(parseWithContract(text, answerContractOf(criterion)));
}

/**
 * A JSON answer checked against a levels criterion's `decode_output_schema` (as
 * criteria/decodeAnswerSchema.ts completes it), compiled as when the catalog was loaded.
 */
export function decodeAnswerProblem(answer: unknown, schema: JsonSchema): string | undefined {
  const made = compileJsonSchema(schema);
  if ("problem" in made) return `decode_output_schema is not a usable JSON Schema: ${made.problem}`;
  if (made.validate(answer)) return undefined;
  const problems = (made.validate.errors ?? []).slice(0, 3).map(formatSchemaError);
  return `the answer does not follow decode_output_schema (${problems.join("; ")})`;
}
