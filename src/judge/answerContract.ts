import { decodeAnswerSchema } from "../criteria/decodeAnswerSchema.js";
import {
  type Criterion,
  DEFAULT_PASSING_THRESHOLD,
  type Level,
  type Scale,
  UNIT_SCALE,
} from "../criteria/model.js";
import { clampToleranceOf } from "../criteria/outOfRange.js";
import type { JudgeAnswer } from "./answer.js";
import {
  LEVEL_FIELDS,
  RESULT_FIELDS,
  readCheck,
  readLevel,
  type readQuotes,
  readScore,
  SCORE_FIELDS,
  type ValueRead,
} from "./answerValues.js";
import { UnjudgedMethodError } from "./errors.js";
import type { LenientValue } from "./jsonObjectScan.js";

/**
 * What a judge answer must contain, by method. `threshold` (0–1) is where a score or level is
 * met: a pass/fail word beside it must say the same.
 */
export type AnswerContract =
  | {
      kind: "numeric";
      scale: Scale;
      field: "score";
      threshold: number;
      clampTolerance?: number;
    }
  | { kind: "check"; field: "result" }
  | {
      kind: "levels";
      levels: readonly Level[];
      field: "level_id";
      threshold: number;
      outputSchema?: Record<string, unknown>;
    };

/** The contract of a criterion; its threshold is its own, else the catalog default's. */
export function answerContractOf(criterion: Criterion): AnswerContract {
  const method = criterion.method;
  const threshold = criterion.passingThreshold ?? DEFAULT_PASSING_THRESHOLD;
  switch (method.kind) {
    case "score": {
      const clampTolerance = clampToleranceOf(method.outOfRange);
      return {
        kind: "numeric",
        scale: method.scale,
        field: "score",
        threshold,
        ...(clampTolerance > 0 ? { clampTolerance } : {}),
      };
    }
    case "point":
      return { kind: "numeric", scale: UNIT_SCALE, field: "score", threshold };
    case "check":
      return { kind: "check", field: "result" };
    case "levels": {
      const outputSchema = decodeAnswerSchema(method);
      return {
        kind: "levels",
        levels: method.levels,
        field: "level_id",
        threshold,
        ...(outputSchema === undefined ? {} : { outputSchema }),
      };
    }
    default:
      throw new UnjudgedMethodError(method.kind, { criterionId: criterion.id, source: "parse" });
  }
}

export type Decision = { native: number | string; score01: number; level?: string };

export function readDecision(value: LenientValue, contract: AnswerContract): ValueRead<Decision> {
  switch (contract.kind) {
    case "numeric":
      return readScore(value, contract.scale, contract.field, contract.clampTolerance);
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

const DECISIVE_FIELDS: Readonly<Record<AnswerContract["kind"], readonly string[]>> = {
  numeric: SCORE_FIELDS,
  check: RESULT_FIELDS,
  levels: LEVEL_FIELDS,
};

export function fieldsOf(contract: AnswerContract): readonly string[] {
  return DECISIVE_FIELDS[contract.kind];
}

export type Interpretation =
  | { status: "ok"; answer: JudgeAnswer }
  | { status: "unjustified" }
  | { status: "missing"; field: string; reasoning: string }
  | { status: "invalid"; error: string; reasoning: string }
  | { status: "ambiguous"; error: string; reasoning: string };

/** No justification, no answer. */
export function justified(
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
