import { z } from "zod";
import { TABLE_QUOTE_LIMIT, TABLE_QUOTE_SEPARATOR } from "../../prompts/evaluation/index.js";
import type { Criterion } from "../criteria/model.js";
import { decodeToon } from "../toon/decode.js";
import { isToonError } from "../toon/errors.js";
import type { JudgeAnswer } from "./answer.js";
import { listed, times } from "./answerAmbiguity.js";
import { answerContractOf } from "./answerContract.js";
import { answerTooLong, isQuote, MAX_ANSWER_CHARS, stripReasoningBlocks } from "./answerValues.js";
import { parseJudgeResponse } from "./parse.js";

/** The table's columns; any other (a `verdict`) is kept, to be read as the answer's own field. */
const BatchRowSchema = z.looseObject({
  id: z.string().min(1),
  score: z.union([z.number(), z.string(), z.boolean()]).nullable(),
  quotes: z.string().nullable().optional(),
  reasoning: z.string().nullable().default(""),
});

const BatchTableSchema = z.object({ results: z.array(BatchRowSchema) });

export interface BatchParse {
  answers: Map<string, JudgeAnswer>;
  /** Criteria with no usable row: to be asked again. */
  missing: string[];
  problem?: string;
  notes: string[];
  ambiguities: string[];
}

const TABLE_HEADER = /^\s*results\[\d+,?\]\{/;

/** A blank line, a code fence, or a JSON object line (a screening answer after the table). */
function endsTable(line: string): boolean {
  return line.trim() === "" || /^\s*(```|~~~|\{)/.test(line);
}

/** The tables of the text, each from its header to its end or the next header; and the rest. */
export function splitTables(text: string): { tables: string[]; outside: string } {
  const tables: string[][] = [];
  const outside: string[] = [];
  let current: string[] | undefined;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) {
    if (TABLE_HEADER.test(line)) {
      current = [line.trim()];
      tables.push(current);
    } else if (current !== undefined && !endsTable(line)) {
      current.push(line);
    } else {
      current = undefined;
      outside.push(line);
    }
  }
  return { tables: tables.map((lines) => lines.join("\n")), outside: outside.join("\n") };
}

type BatchRow = z.infer<typeof BatchRowSchema>;

export function tableQuotes(cell: string | null | undefined): {
  quotes: string[];
  notes: string[];
} {
  const text = (cell ?? "").trim();
  const all = text
    .split(TABLE_QUOTE_SEPARATOR.trim())
    .map((quote) => quote.trim())
    .filter(isQuote);
  const notes =
    all.length > TABLE_QUOTE_LIMIT
      ? [`only the first ${TABLE_QUOTE_LIMIT} of ${all.length} quotes are checked`]
      : [];
  return { quotes: all.slice(0, TABLE_QUOTE_LIMIT), notes };
}

/**
 * A row as the single-criterion answer it stands for, so one parser decides both: a further column
 * is a field of that answer, and one that says otherwise (a `verdict` of fail beside a top score,
 * a `result` beside a check's own) makes it ambiguous. Written key by key, so none is lost.
 */
function asSingleAnswer(criterion: Criterion, row: BatchRow, quotes: readonly string[]): string {
  const { field } = answerContractOf(criterion);
  const { id: _id, score, quotes: _quotes, reasoning, ...others } = row;
  const fields = [
    ...Object.entries(others),
    ["reasoning", reasoning ?? ""],
    ["quotes", quotes],
    [field, score],
  ];
  return `{${fields.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(",")}}`;
}

function rowAnswer(criterion: Criterion, row: BatchRow): JudgeAnswer {
  const cell = tableQuotes(row.quotes);
  const answer = parseJudgeResponse(asSingleAnswer(criterion, row, cell.quotes), criterion);
  return cell.notes.length === 0 ? answer : { ...answer, notes: [...answer.notes, ...cell.notes] };
}

/**
 * Reads a batch answer: every TOON table `results[K]{id,score,quotes,reasoning}:`, decoded
 * strictly, each row by the single-answer rules. Rows that disagree give no answer and are listed
 * in `ambiguities`; what could not be read is `missing`, never guessed.
 */
export function parseBatchResponse(
  response: string,
  criteria: readonly Criterion[],
  maxChars = MAX_ANSWER_CHARS,
): BatchParse {
  const ids = criteria.map((c) => c.id);
  const answers = new Map<string, JudgeAnswer>();
  const notes: string[] = [];
  const unread = (problem: string): BatchParse => {
    return { answers, missing: ids, problem, notes, ambiguities: [] };
  };
  const tooLong = answerTooLong(response, maxChars);
  if (tooLong !== undefined) return unread(tooLong);
  const { tables } = splitTables(stripReasoningBlocks(response).text);
  if (tables.length === 0) return unread("no `results[…]{id,score,quotes,reasoning}:` table found");
  const read = tables.map(readTable);
  const rows = read.flatMap((r) => ("rows" in r ? r.rows : []));
  const problems = read.flatMap((r) => ("problem" in r ? [r.problem] : []));
  const [firstProblem] = problems;
  if (rows.length === 0 && firstProblem !== undefined) return unread(firstProblem);
  if (problems.length > 0) {
    notes.push(`${problems.length} of ${tables.length} tables could not be read: ${firstProblem}`);
  }
  const ambiguities = answerRows(rows, criteria, answers, notes);
  const missing = ids.filter((id) => !answers.has(id));
  return { answers, missing, notes, ambiguities };
}

function readTable(table: string): { rows: BatchRow[] } | { problem: string } {
  let decoded: unknown;
  try {
    decoded = decodeToon(table, {
      stringFields: ["id", "quotes", "reasoning"],
      refusePrototypeKeys: true,
    });
  } catch (error) {
    const problem = isToonError(error) ? error.reason : String(error);
    return { problem: `the table is not valid TOON: ${problem}` };
  }
  const parsed = BatchTableSchema.safeParse(decoded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") ?? "";
    return {
      problem: `the table does not have the columns id, score, quotes, reasoning (${where}: ${issue?.message})`,
    };
  }
  return { rows: parsed.data.results };
}

/** Rows that agree answer their criterion once; rows that disagree are returned as ambiguities. */
function answerRows(
  rows: readonly BatchRow[],
  criteria: readonly Criterion[],
  answers: Map<string, JudgeAnswer>,
  notes: string[],
): string[] {
  const byId = new Map(criteria.map((c) => [c.id, c]));
  const usable = new Map<string, JudgeAnswer[]>();
  for (const row of rows) {
    const criterion = byId.get(row.id);
    if (criterion === undefined) {
      notes.push(`row for unknown criterion id ${JSON.stringify(row.id)} ignored`);
      continue;
    }
    const answer = rowAnswer(criterion, row);
    if (answer.usable) usable.set(row.id, [...(usable.get(row.id) ?? []), answer]);
    else notes.push(`row for ${row.id} unusable: ${answer.judgeError ?? "no usable value"}`);
  }
  const ambiguities: string[] = [];
  for (const [id, given] of usable) {
    const [first] = given;
    if (first === undefined) continue;
    const values = given.map((a) => String(a.native));
    if (new Set(values).size > 1) {
      const message = `the answer gives ${id} ${times(given.length)}: ${listed(values)}`;
      ambiguities.push(message);
      notes.push(`${message}; the rows disagree, so none is taken`);
      continue;
    }
    if (given.length > 1) notes.push(`${id} was answered ${given.length} times, alike; used once`);
    answers.set(id, first);
  }
  return ambiguities;
}
