import { type Criterion, UNIT_SCALE } from "../criteria/model.js";
import { type JudgeAnswer, JudgeAnswerSchema, unusableAnswer } from "./answer.js";
import {
  type AnswerContract,
  answerContractOf,
  type Decision,
  FREEFORM_CONTRACT,
  fieldsOf,
  readDecision,
} from "./answerContract.js";
import { answerTooLong, MAX_ANSWER_CHARS, stripReasoningBlocks, taggedText } from "./answerText.js";
import {
  fieldOf,
  QUOTE_FIELDS,
  readList,
  readQuotes,
  readReasoning,
  readScore,
} from "./answerValues.js";
import { decodeAnswerProblem } from "./decodeOutputSchema.js";
import { scanJsonObjects } from "./jsonObjectScan.js";
import type { LenientObject } from "./lenientJson.js";
import { readProseLevel } from "./proseLevel.js";

export { type AnswerContract, answerContractOf, FREEFORM_CONTRACT } from "./answerContract.js";

/** The judge error of an answer whose decision came without a justification. */
export const REASONING_MISSING = "reasoning missing: every judgement must be justified";

/** The note on an answer asked for again because its decision came without reasoning. */
export const ASKED_AGAIN_NOTE = "the first answer gave no reasoning; asked once more";

/** True when the only thing wrong with an answer is its missing reasoning (worth asking again). */
export function lacksReasoning(answer: JudgeAnswer): boolean {
  return !answer.usable && answer.judgeError === REASONING_MISSING;
}

/** What one candidate object says under the contract. */
type Interpretation =
  | { status: "ok"; answer: JudgeAnswer }
  | { status: "unjustified" }
  | { status: "missing"; field: string; reasoning: string }
  | { status: "invalid"; error: string; reasoning: string };

/** A decision with its justification as an answer; no justification, no answer. */
function justified(
  decision: { value: Decision; notes: string[] },
  reasoning: string,
  lists: { hits: string[]; misses: string[]; quotes?: ReturnType<typeof readQuotes> } = {
    hits: [],
    misses: [],
  },
): Interpretation {
  if (reasoning === "") return { status: "unjustified" };
  const answer: JudgeAnswer = {
    usable: true,
    score01: decision.value.score01,
    native: decision.value.native,
    reasoning,
    hits: lists.hits,
    misses: lists.misses,
    quotes: lists.quotes?.quotes ?? [],
    notes: [...decision.notes, ...(lists.quotes?.notes ?? [])],
  };
  if (decision.value.level !== undefined) answer.level = decision.value.level;
  return { status: "ok", answer };
}

/** Reads one JSON object as an answer under the contract. */
function interpretObject(object: LenientObject, contract: AnswerContract): Interpretation {
  const reasoning = readReasoning(object);
  const found = fieldOf(object, fieldsOf(contract));
  if (found === undefined) return { status: "missing", field: contract.field, reasoning };
  const decision = readDecision(found.value, contract);
  if (!decision.ok) return { status: "invalid", error: decision.error, reasoning };
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
 * The objects that may hold the answer: a top-level object that has the decisive field is the
 * only candidate (what it nests — an example, a draft — never counts); one that lacks it may wrap
 * the answer ({"evaluation": {…}}), so the objects it directly holds are candidates instead.
 */
function candidatesOf(object: LenientObject, contract: AnswerContract): LenientObject[] {
  if (fieldOf(object, fieldsOf(contract)) !== undefined) return [object];
  const nested = Object.values(object).filter(
    (v): v is LenientObject => typeof v === "object" && v !== null && !Array.isArray(v),
  );
  return [object, ...nested];
}

/** The XML answer of a point: <reflection>…</reflection><coverage_extent>0.8</coverage_extent>. */
function readCoverageXml(
  text: string,
  contract: AnswerContract,
): { read?: Interpretation; truncated: boolean; reasoning: string } {
  const reasoning = taggedText(text, "reflection").inner?.trim() ?? "";
  const coverage = taggedText(text, "coverage_extent");
  if (coverage.inner === undefined) return { truncated: coverage.open, reasoning };
  if (contract.kind !== "numeric") {
    const error = "a coverage_extent answer is not pass/fail or a level";
    return { read: { status: "invalid", error, reasoning }, truncated: false, reasoning };
  }
  const unit = readScore(coverage.inner.trim(), UNIT_SCALE, "coverage_extent");
  const { min, max } = contract.scale;
  const read =
    !unit.ok || (min === 0 && max === 1)
      ? unit
      : readScore(min + unit.value.score01 * (max - min), contract.scale, "coverage_extent");
  if (!read.ok) {
    return {
      read: { status: "invalid", error: read.error, reasoning },
      truncated: false,
      reasoning,
    };
  }
  const notes = [...(unit.ok ? unit.notes : []), ...read.notes];
  return { read: justified({ value: read.value, notes }, reasoning), truncated: false, reasoning };
}

/** A whole response that is just the value (`4`, `"pass"`, `excellent`): it has no reasoning. */
function isBareValue(text: string, contract: AnswerContract): boolean {
  const bare = text
    .trim()
    .replace(/^[`*"']+|[`*"']+$/g, "")
    .replace(/[.!]$/, "")
    .trim();
  if (bare === "" || bare.length > 60 || /[{}\n]/.test(bare)) return false;
  return readDecision(bare, contract).ok;
}

/** The reasoning of a cut-off answer, as far as it got. */
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

/** Every reading of the response: usable answers with where they start, and what failed. */
interface Readings {
  answers: Array<{ answer: JudgeAnswer; start: number }>;
  unjustified: boolean;
  invalid?: { error: string; reasoning: string };
  missing?: { field: string; reasoning: string };
  /** Why an earlier top-level object was not the answer. */
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
  else if (read.status === "invalid") readings.invalid ??= read;
  else readings.missing ??= read;
  const reason =
    read.status === "invalid"
      ? read.error
      : read.status === "missing"
        ? `${read.field} missing`
        : "no reasoning";
  if (!nested) readings.rejected ??= reason;
}

/** The one answer of the readings; several that disagree are a judge error, never a guess. */
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
 * Reads a judge's response under an answer contract, fail-closed. Reasoning blocks
 * (`<think>…</think>`) are dropped; then every top-level JSON object (bare, fenced or in prose;
 * lenient about trailing commas, single quotes and unquoted keys) that fits the contract — the
 * decisive value valid and on the scale, and a reasoning — is an answer; for 0–1 contracts seed
 * 002's XML is one too. One answer, or several that agree, is used; several that disagree, none,
 * a decision without reasoning, a score off the scale, or a response over `maxChars` make the
 * answer unusable with a `judgeError`.
 */
export function parseWithContract(
  text: string,
  contract: AnswerContract,
  maxChars = MAX_ANSWER_CHARS,
): JudgeAnswer {
  const tooLong = answerTooLong(text, maxChars);
  if (tooLong !== undefined) return finish(unusableAnswer(tooLong));
  if (text.trim() === "") return finish(unusableAnswer("empty response"));
  const stripped = stripReasoningBlocks(text);
  const body = stripped.text;
  if (body.trim() === "") {
    const why = stripped.unclosed ? "answer truncated" : "the response is only a reasoning block";
    return finish(unusableAnswer(why));
  }
  const readings: Readings = { answers: [], unjustified: false };
  const xml = contract.kind === "numeric" ? readCoverageXml(body, contract) : undefined;
  if (xml?.read !== undefined) record(readings, xml.read, body.search(/<coverage_extent>/i), false);
  const scan = scanJsonObjects(body);
  for (const found of scan.objects) {
    for (const candidate of candidatesOf(found.value, contract)) {
      record(
        readings,
        interpretObject(candidate, contract),
        found.start,
        candidate !== found.value,
      );
    }
  }
  if (readings.answers.length > 0) return finish(settle(readings));

  const noStructure = scan.objects.length === 0 && !scan.truncated && xml?.read === undefined;
  if (readings.unjustified || (noStructure && isBareValue(body, contract))) {
    return finish(unusableAnswer(REASONING_MISSING));
  }
  const { invalid, missing } = readings;
  const reasoning =
    invalid?.reasoning || missing?.reasoning || xml?.reasoning || salvageReasoning(body);
  if (invalid !== undefined) return finish(unusableAnswer(invalid.error, reasoning));
  if (scan.truncated || xml?.truncated || stripped.unclosed) {
    return finish(unusableAnswer("answer truncated", reasoning));
  }
  if (missing !== undefined) return finish(unusableAnswer(`${missing.field} missing`, reasoning));
  if (noStructure && contract.kind === "levels")
    return finish(readProseLevel(body, contract.levels));
  const detail = scan.firstError === undefined ? "" : ` (${scan.firstError})`;
  return finish(unusableAnswer(`no JSON object found${detail}`, reasoning));
}

function finish(answer: JudgeAnswer): JudgeAnswer {
  return JudgeAnswerSchema.parse(answer);
}

/** Reads the judge's answer for one criterion (score, point, check or levels). */
export function parseJudgeResponse(text: string, criterion: Criterion): JudgeAnswer {
  return parseWithContract(text, answerContractOf(criterion));
}

/** Reads a freeform answer: score 0–1, hits, misses, reasoning. */
export function parseFreeformResponse(text: string): JudgeAnswer {
  return parseWithContract(text, FREEFORM_CONTRACT);
}
