/**
 * An evaluation's traces as stored: one row per evaluation, the parts its calls share kept once
 * per database in a blob table by sha256. Read back, every trace is exactly the one saved.
 */
import { z } from "zod";
import { promptHash, responseHash } from "../judge/trace.js";
import { type Trace, TraceSchema } from "../scoring/result.js";
import { storedJson } from "./database.js";
import { storeDataInvalid } from "./errors.js";
import { hashToken } from "./tokens.js";
import { promptParts } from "./traceParts.js";

/** Parts of at least this many characters are kept once, by hash; shorter ones stay in the row. */
const MIN_BLOB_CHARS = 128;
/** A text refers to at most this many blobs: what follows the last one is one more. */
const MAX_BLOBS_PER_TEXT = 500;
/** Bounds of a row read back. */
const MAX_BLOBS_PER_ROW = 100_000;
const MAX_TRACES_PER_ROW = 10_000;

const HashSchema = z.string().regex(/^[0-9a-f]{64}$/, "a sha256 in lower-case hex");
const BlobIndexSchema = z.number().int().min(0).max(MAX_BLOBS_PER_ROW);

/** A text as stored: the text itself, or literal pieces and blobs by their place in the row. */
const StoredTextSchema = z.union([
  z.string(),
  z.array(z.union([z.string(), BlobIndexSchema])).max(2 * MAX_BLOBS_PER_TEXT + 1),
]);
type StoredText = z.infer<typeof StoredTextSchema>;

/** Prompt and response hashes are kept only where they are not the texts' own. */
const StoredTraceSchema = TraceSchema.extend({
  parameters: z.union([TraceSchema.shape.parameters, BlobIndexSchema]),
  systemPrompt: StoredTextSchema,
  userPrompt: StoredTextSchema,
  promptHash: z.string().optional(),
  responseHash: z.string().optional(),
});
type StoredTrace = z.infer<typeof StoredTraceSchema>;

const EvaluationBodySchema = z.object({
  blobs: z.array(HashSchema).max(MAX_BLOBS_PER_ROW),
  traces: z.array(StoredTraceSchema).max(MAX_TRACES_PER_ROW),
});

/** Lone surrogates and NUL characters do not survive both databases' text: such texts stay in the row. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

class RowBlobs {
  readonly texts = new Map<string, string>();
  private readonly places = new Map<string, number>();

  placeOf(text: string): number | undefined {
    if (text.length < MIN_BLOB_CHARS || text.includes("\u0000") || LONE_SURROGATE.test(text))
      return undefined;
    const hash = hashToken(text);
    let place = this.places.get(hash);
    if (place === undefined) {
      place = this.places.size;
      this.places.set(hash, place);
      this.texts.set(hash, text);
    }
    return place;
  }
}

function storedText(parts: readonly string[], blobs: RowBlobs): StoredText {
  const pieces: (string | number)[] = [];
  let literal = "";
  let references = 0;
  for (let i = 0; i < parts.length; i++) {
    const last = references === MAX_BLOBS_PER_TEXT - 1;
    const part = last ? parts.slice(i).join("") : (parts[i] ?? "");
    const place = blobs.placeOf(part);
    if (place === undefined) literal += part;
    else {
      if (literal !== "") pieces.push(literal);
      pieces.push(place);
      literal = "";
      references++;
    }
    if (last) break;
  }
  if (references === 0) return literal;
  if (literal !== "") pieces.push(literal);
  return pieces;
}

function storedTrace(trace: Trace, blobs: RowBlobs): StoredTrace {
  const checked = TraceSchema.parse(trace);
  const parametersPlace = blobs.placeOf(JSON.stringify(checked.parameters));
  const { promptHash: prompt, responseHash: response, ...rest } = checked;
  // An answer is the call's own: it stays in the row.
  return {
    ...rest,
    parameters: parametersPlace ?? checked.parameters,
    systemPrompt: storedText([checked.systemPrompt], blobs),
    userPrompt: storedText(promptParts(checked.userPrompt), blobs),
    ...(prompt === promptHash(checked.systemPrompt, checked.userPrompt)
      ? {}
      : { promptHash: prompt }),
    ...(response === responseHash(checked.rawResponse) ? {} : { responseHash: response }),
  };
}

export function evaluationRow(traces: readonly Trace[]): {
  body: string;
  blobs: [string, string][];
} {
  const blobs = new RowBlobs();
  const stored = traces.map((trace) => storedTrace(trace, blobs));
  const body = JSON.stringify({ blobs: [...blobs.texts.keys()], traces: stored });
  const sorted = [...blobs.texts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { body, blobs: sorted };
}

export type BlobReader = (hashes: readonly string[]) => Promise<ReadonlyMap<string, string>>;

export function wholeTrace(body: string): Trace {
  return storedJson(body, TraceSchema, "a stored trace");
}

async function checkedBlobs(hashes: readonly string[], read: BlobReader) {
  const wanted = [...new Set(hashes)].sort();
  const found = wanted.length === 0 ? new Map<string, string>() : await read(wanted);
  for (const hash of wanted) {
    const text = found.get(hash);
    if (text === undefined) {
      throw storeDataInvalid(`a stored trace refers to a part that is missing (${hash})`);
    }
    if (hashToken(text) !== hash) {
      throw storeDataInvalid(`a stored trace part does not match its hash (${hash})`);
    }
  }
  return found;
}

function blobAt(list: readonly string[], texts: ReadonlyMap<string, string>) {
  return (place: number): string => {
    const text = texts.get(list[place] ?? "");
    if (text === undefined) {
      throw storeDataInvalid(`a stored trace refers to part ${place}, which its row does not list`);
    }
    return text;
  };
}

function traceOf(stored: StoredTrace, blob: (place: number) => string): Trace {
  const join = (text: StoredText) =>
    typeof text === "string"
      ? text
      : text.map((p) => (typeof p === "string" ? p : blob(p))).join("");
  const systemPrompt = join(stored.systemPrompt);
  const userPrompt = join(stored.userPrompt);
  const parameters =
    typeof stored.parameters === "number"
      ? storedJson(blob(stored.parameters), z.unknown(), "stored trace parameters")
      : stored.parameters;
  const parsed = TraceSchema.safeParse({
    ...stored,
    parameters,
    systemPrompt,
    userPrompt,
    promptHash: stored.promptHash ?? promptHash(systemPrompt, userPrompt),
    responseHash: stored.responseHash ?? responseHash(stored.rawResponse),
  });
  if (!parsed.success) {
    throw storeDataInvalid(`a stored trace is malformed: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

export async function tracesOfEvaluationRows(
  bodies: readonly string[],
  read: BlobReader,
): Promise<Trace[][]> {
  const rows = bodies.map((body) => storedJson(body, EvaluationBodySchema, "a stored trace"));
  const texts = await checkedBlobs(
    rows.flatMap((row) => row.blobs),
    read,
  );
  return rows.map((row) => {
    const blob = blobAt(row.blobs, texts);
    return row.traces.map((stored) => traceOf(stored, blob));
  });
}
