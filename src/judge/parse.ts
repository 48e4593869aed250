import { type Criterion, type Level, type Scale, UNIT_SCALE } from "../criteria/model.js";
import { type JudgeAnswer, JudgeAnswerSchema, unusableAnswer } from "./answer.js";
import {
  fieldOf,
  LEVEL_FIELDS,
  RESULT_FIELDS,
  readCheck,
  readLevel,
  readList,
  readReasoning,
  readScore,
  SCORE_FIELDS,
  type ValueRead,
} from "./answerValues.js";
import { UnjudgedMethodError } from "./errors.js";
import { type LenientObject, type LenientValue, scanJsonObjects } from "./lenientJson.js";

/** What a judge answer must contain, by method. */
export type AnswerContract =
  | { kind: "numeric"; scale: Scale; field: "score" }
  | { kind: "check"; field: "result" }
  | { kind: "levels"; levels: readonly Level[]; field: "level_id" };

/** The answer contract of an LLM-judged criterion (score, point, check, levels). */
export function answerContractOf(criterion: Criterion): AnswerContract {
  const method = criterion.method;
  switch (method.kind) {
    case "score":
      return { kind: "numeric", scale: method.scale, field: "score" };
    case "point":
      return { kind: "numeric", scale: UNIT_SCALE, field: "score" };
    case "check":
      return { kind: "check", field: "result" };
    case "levels":
      return { kind: "levels", levels: method.levels, field: "level_id" };
    default:
      throw new UnjudgedMethodError(method.kind, { criterionId: criterion.id, source: "parse" });
  }
}

/** The freeform contract of seed 001: a score 0–1 with hits and misses. */
export const FREEFORM_CONTRACT: AnswerContract = {
  kind: "numeric",
  scale: UNIT_SCALE,
  field: "score",
};

const REASONING_EMPTY_NOTE =
  "reasoning is empty: the answer is used, but every judgement should be justified";

type Interpretation =
  | { status: "ok"; answer: JudgeAnswer }
  | { status: "missing"; field: string; reasoning: string }
  | { status: "invalid"; error: string; reasoning: string };

type Decision = { native: number | string; score01: number; level?: string };

/** The decisive value of an answer under a contract. */
function readDecision(value: LenientValue, contract: AnswerContract): ValueRead<Decision> {
  switch (contract.kind) {
    case "numeric":
      return readScore(value, contract.scale, contract.field);
    case "check": {
      const read = readCheck(value, contract.field);
      if (!read.ok) return read;
      const score01 = read.value === "pass" ? 1 : 0;
      return { ok: true, value: { native: read.value, score01 }, notes: read.notes };
    }
    case "levels": {
      const read = readLevel(value, contract.levels, contract.field);
      if (!read.ok) return read;
      const { id, score } = read.value;
      return { ok: true, value: { native: id, score01: score, level: id }, notes: read.notes };
    }
  }
}

function fieldsOf(contract: AnswerContract): readonly string[] {
  switch (contract.kind) {
    case "numeric":
      return SCORE_FIELDS;
    case "check":
      return RESULT_FIELDS;
    case "levels":
      return LEVEL_FIELDS;
  }
}

function usable(
  decision: ValueRead<Decision>,
  reasoning: string,
  hits: string[],
  misses: string[],
) {
  if (!decision.ok) return undefined;
  const notes = [...decision.notes];
  if (reasoning === "") notes.push(REASONING_EMPTY_NOTE);
  const answer: JudgeAnswer = {
    usable: true,
    score01: decision.value.score01,
    native: decision.value.native,
    reasoning,
    hits,
    misses,
    notes,
  };
  if (decision.value.level !== undefined) answer.level = decision.value.level;
  return answer;
}

/** Reads one JSON object as an answer under the contract. */
function interpretObject(object: LenientObject, contract: AnswerContract): Interpretation {
  const reasoning = readReasoning(object);
  const found = fieldOf(object, fieldsOf(contract));
  if (found === undefined) return { status: "missing", field: contract.field, reasoning };
  const decision = readDecision(found.value, contract);
  if (!decision.ok) return { status: "invalid", error: decision.error, reasoning };
  const answer = usable(
    decision,
    reasoning,
    readList(fieldOf(object, ["hits"])?.value),
    readList(fieldOf(object, ["misses"])?.value),
  );
  return answer === undefined
    ? { status: "invalid", error: `${contract.field} is not usable`, reasoning }
    : { status: "ok", answer };
}

/** An object, then the objects it directly holds (an answer wrapped as {"evaluation": {…}}). */
function candidatesOf(object: LenientObject): LenientObject[] {
  const nested = Object.values(object).filter(
    (v): v is LenientObject => typeof v === "object" && v !== null && !Array.isArray(v),
  );
  return [object, ...nested];
}

/** seed 002's <reflection>…</reflection><coverage_extent>0.8</coverage_extent>. */
function readCoverageXml(
  text: string,
  contract: AnswerContract,
): { answer?: JudgeAnswer; error?: string; truncated: boolean; reasoning: string } {
  const reflection = /<reflection>([\s\S]*?)<\/reflection>/i.exec(text)?.[1]?.trim() ?? "";
  const coverage = /<coverage_extent>([\s\S]*?)<\/coverage_extent>/i.exec(text);
  if (coverage === null) {
    return { truncated: /<coverage_extent>/i.test(text), reasoning: reflection };
  }
  if (contract.kind !== "numeric") {
    return {
      error: "a coverage_extent answer is not pass/fail or a level",
      truncated: false,
      reasoning: reflection,
    };
  }
  const unit = readScore((coverage[1] ?? "").trim(), UNIT_SCALE, "coverage_extent");
  if (!unit.ok) return { error: unit.error, truncated: false, reasoning: reflection };
  const { min, max } = contract.scale;
  const read =
    min === 0 && max === 1
      ? unit
      : readScore(min + unit.value.score01 * (max - min), contract.scale, "coverage_extent");
  if (!read.ok) return { error: read.error, truncated: false, reasoning: reflection };
  return {
    answer: usable(
      { ok: true, value: read.value, notes: [...unit.notes, ...read.notes] },
      reflection,
      [],
      [],
    ),
    truncated: false,
    reasoning: reflection,
  };
}

/** A whole response that is just the value: `4`, `"pass"`, `excellent`. */
function readBareAnswer(text: string, contract: AnswerContract): JudgeAnswer | undefined {
  const bare = text
    .trim()
    .replace(/^[`*"']+|[`*"']+$/g, "")
    .replace(/[.!]$/, "")
    .trim();
  if (bare === "" || bare.length > 60 || /[{}\n]/.test(bare)) return undefined;
  const decision = readDecision(bare, contract);
  const answer = usable(decision, "", [], []);
  answer?.notes.unshift("the answer was a bare value, not a JSON object");
  return answer;
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

/**
 * Reads a judge's response under an answer contract, fail-closed. The first JSON object (bare,
 * fenced or in prose; lenient about trailing commas, single quotes and unquoted keys) that fits
 * the contract is the answer; for 0–1 contracts seed 002's XML is read too; a response that is
 * only the value is accepted. When nothing fits, the answer is unusable with a `judgeError`.
 *
 * Empty reasoning: the decision is still used (dropping a clear score would make a missing
 * sentence cost a whole criterion), but the answer carries a note, so the engine can report that
 * seed 000 TC-CRI-05 (every judgement justified) was not met.
 */
export function parseWithContract(text: string, contract: AnswerContract): JudgeAnswer {
  if (text.trim() === "") return finish(unusableAnswer("empty response"));
  const hasXml = contract.kind === "numeric" && /<coverage_extent>/i.test(text);
  const xml = hasXml ? readCoverageXml(text, contract) : undefined;
  if (xml?.answer !== undefined) return finish(xml.answer);

  const scan = scanJsonObjects(text);
  let invalid: { error: string; reasoning: string } | undefined;
  let missing: { field: string; reasoning: string } | undefined;
  let rejected: string | undefined;
  for (const found of scan.objects) {
    for (const candidate of candidatesOf(found.value)) {
      const read = interpretObject(candidate, contract);
      if (read.status === "ok") {
        if (candidate !== found.value) {
          read.answer.notes.push("the answer was nested inside an outer JSON object");
        }
        if (rejected !== undefined) {
          read.answer.notes.push(
            `used the JSON object at offset ${found.start}; an earlier object was not an answer (${rejected})`,
          );
        }
        return finish(read.answer);
      }
      const reason = read.status === "invalid" ? read.error : `${read.field} missing`;
      if (read.status === "invalid") invalid ??= read;
      else missing ??= read;
      if (candidate === found.value) rejected ??= reason;
    }
  }

  if (scan.objects.length === 0 && !scan.truncated && xml === undefined) {
    const bare = readBareAnswer(text, contract);
    if (bare !== undefined) return finish(bare);
  }

  const reasoning =
    invalid?.reasoning || missing?.reasoning || xml?.reasoning || salvageReasoning(text);
  if (invalid !== undefined) return finish(unusableAnswer(invalid.error, reasoning));
  if (xml?.error !== undefined) return finish(unusableAnswer(xml.error, reasoning));
  if (scan.truncated || xml?.truncated)
    return finish(unusableAnswer("answer truncated", reasoning));
  if (missing !== undefined) return finish(unusableAnswer(`${missing.field} missing`, reasoning));
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

/** Reads a seed 001 freeform answer: score 0–1, hits, misses, reasoning. */
export function parseFreeformResponse(text: string): JudgeAnswer {
  return parseWithContract(text, FREEFORM_CONTRACT);
}
