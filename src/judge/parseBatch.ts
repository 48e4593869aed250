import { z } from "zod";
import { TABLE_QUOTE_LIMIT, TABLE_QUOTE_SEPARATOR } from "../../prompts/evaluation/index.js";
import type { Criterion } from "../criteria/model.js";
import { isToonError } from "../toon/errors.js";
import { decodeToon } from "../toon/index.js";
import type { JudgeAnswer } from "./answer.js";
import { answerTooLong, MAX_ANSWER_CHARS, stripReasoningBlocks } from "./answerText.js";
import { parseJudgeResponse } from "./parse.js";

const BatchRowSchema = z.object({
  id: z.string().min(1),
  score: z.union([z.number(), z.string(), z.boolean()]).nullable(),
  /** The passages quoted, separated by TABLE_QUOTE_SEPARATOR (absent in a table without the column). */
  quotes: z.string().nullable().optional(),
  reasoning: z.string().nullable().default(""),
});

const BatchTableSchema = z.object({ results: z.array(BatchRowSchema) });

export interface BatchParse {
  /** Usable answers by criterion id. */
  answers: Map<string, JudgeAnswer>;
  /** Criteria with no usable row: to be asked again (repair round, then one call each). */
  missing: string[];
  /** Why the table as a whole could not be read, when it could not. */
  problem?: string;
  /** Row-level remarks: unknown or repeated ids, unusable cells. */
  notes: string[];
}

/** The table's lines: from its header to the first blank line, without a code fence around it. */
function tableText(text: string): string | undefined {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const start = lines.findIndex((line) => /^\s*results\[\d+,?\]\{/.test(line));
  if (start < 0) return undefined;
  const out: string[] = [];
  for (const line of lines.slice(start)) {
    if (line.trim() === "" || /^\s*(```|~~~)/.test(line)) break;
    out.push(out.length === 0 ? line.trim() : line);
  }
  return out.join("\n");
}

type BatchRow = z.infer<typeof BatchRowSchema>;

/** What a quotes cell holds when the judge had nothing to quote (`""` is what the prompt asks). */
const NO_QUOTES = new Set(["", "null", "none", "-", "n/a", "[]"]);

/** The quotes of a row's cell: split at the separator, blanks dropped, at most TABLE_QUOTE_LIMIT. */
export function tableQuotes(cell: string | null | undefined): {
  quotes: string[];
  notes: string[];
} {
  const text = (cell ?? "").trim();
  if (NO_QUOTES.has(text.toLowerCase())) return { quotes: [], notes: [] };
  const all = text
    .split(TABLE_QUOTE_SEPARATOR.trim())
    .map((quote) => quote.trim())
    .filter((quote) => quote.length > 0);
  const notes =
    all.length > TABLE_QUOTE_LIMIT
      ? [`only the first ${TABLE_QUOTE_LIMIT} of ${all.length} quotes are checked`]
      : [];
  return { quotes: all.slice(0, TABLE_QUOTE_LIMIT), notes };
}

/** A batch cell as the single-criterion answer it stands for, so one parser decides both. */
function asSingleAnswer(criterion: Criterion, row: BatchRow, quotes: readonly string[]): string {
  const reasoning = row.reasoning ?? "";
  switch (criterion.method.kind) {
    case "check":
      return JSON.stringify({ reasoning, quotes, result: row.score });
    case "levels":
      return JSON.stringify({ reasoning, quotes, level_id: row.score });
    default:
      return JSON.stringify({ reasoning, quotes, score: row.score });
  }
}

/** One row read by the single-answer parser, its quotes taken from the quotes cell. */
function rowAnswer(criterion: Criterion, row: BatchRow): JudgeAnswer {
  const cell = tableQuotes(row.quotes);
  const answer = parseJudgeResponse(asSingleAnswer(criterion, row, cell.quotes), criterion);
  return cell.notes.length === 0 ? answer : { ...answer, notes: [...answer.notes, ...cell.notes] };
}

/**
 * Reads a batch answer: the TOON table `results[K]{id,score,quotes,reasoning}:` (a table without
 * the quotes column is read too, with no quotes), decoded strictly (row count and width must match
 * the header). Each row is read by the same rules as a single
 * answer (a score off the criterion's scale or a row without reasoning is unusable). What could
 * not be read is listed in `missing`, never guessed.
 */
export function parseBatchResponse(
  response: string,
  criteria: readonly Criterion[],
  maxChars = MAX_ANSWER_CHARS,
): BatchParse {
  const ids = criteria.map((c) => c.id);
  const answers = new Map<string, JudgeAnswer>();
  const notes: string[] = [];
  const tooLong = answerTooLong(response, maxChars);
  if (tooLong !== undefined) return { answers, missing: ids, problem: tooLong, notes };
  const text = stripReasoningBlocks(response).text;
  const table = tableText(text);
  if (table === undefined) {
    return {
      answers,
      missing: ids,
      problem: "no `results[…]{id,score,quotes,reasoning}:` table found",
      notes,
    };
  }
  let decoded: unknown;
  try {
    decoded = decodeToon(table, { stringFields: ["id", "quotes", "reasoning"] });
  } catch (error) {
    const problem = isToonError(error) ? error.reason : String(error);
    return { answers, missing: ids, problem: `the table is not valid TOON: ${problem}`, notes };
  }
  const parsed = BatchTableSchema.safeParse(decoded);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") ?? "";
    return {
      answers,
      missing: ids,
      problem: `the table does not have the columns id, score, quotes, reasoning (${where}: ${issue?.message})`,
      notes,
    };
  }
  const byId = new Map(criteria.map((c) => [c.id, c]));
  const conflicting = new Set<string>();
  for (const row of parsed.data.results) {
    const criterion = byId.get(row.id);
    if (criterion === undefined) {
      notes.push(`row for unknown criterion id ${JSON.stringify(row.id)} ignored`);
      continue;
    }
    if (conflicting.has(row.id)) continue;
    const answer = rowAnswer(criterion, row);
    const earlier = answers.get(row.id);
    if (earlier !== undefined) {
      if (!answer.usable || earlier.native === answer.native) {
        notes.push(`second row for ${row.id} ignored`);
      } else {
        // Two answers that disagree: neither is taken (the criterion is asked again).
        answers.delete(row.id);
        conflicting.add(row.id);
        notes.push(`rows for ${row.id} disagree (${earlier.native}, ${answer.native})`);
      }
      continue;
    }
    if (answer.usable) answers.set(row.id, answer);
    else notes.push(`row for ${row.id} unusable: ${answer.judgeError ?? "no usable value"}`);
  }
  const missing = ids.filter((id) => !answers.has(id));
  return { answers, missing, notes };
}
