/** `evalgate tokens <file>`: what the file's data costs as TOON, pretty JSON and minified JSON. */
import { extname, resolve } from "node:path";
import { decodeToon } from "../../toon/decode.js";
import { isToonError } from "../../toon/errors.js";
import { compareFormats, type FormatTokenCounts } from "../../toon/tokenCounts.js";
import { describeJsonProblem, readUntrustedJson } from "../../untrusted/json.js";
import { readRegularTextFile } from "../../untrusted/regularFile.js";
import type { CliContext } from "../context.js";
import { displayPath } from "../context.js";
import { InputFileError } from "../errors.js";
import { padTo } from "../report/summary.js";

type DataFormat = "json" | "toon";

const MAX_DATA_FILE_BYTES = 10 * 1024 * 1024;

/** Files that are documents, not data: `tokens` says what it found instead of misreading them. */
const NOT_DATA: Readonly<Record<string, string>> = {
  ".md": "Markdown",
  ".markdown": "Markdown",
  ".html": "HTML",
  ".htm": "HTML",
  ".yaml": "YAML",
  ".yml": "YAML",
  ".csv": "CSV",
  ".pdf": "PDF",
  ".docx": "a Word document",
};

const EXPECTED = "tokens counts the tokens of JSON or TOON data (a .json or .toon file)";

/** `.json` → JSON, `.toon` → TOON; other names by their first character (`{` or `[` → JSON). */
function dataFormatOf(path: string, text: string): DataFormat {
  const ext = extname(path).toLowerCase();
  if (ext === ".json") return "json";
  if (ext === ".toon") return "toon";
  return /^[{[]/.test(text.trimStart()) ? "json" : "toon";
}

/** What a file that is not JSON or TOON data looks like, for the message. */
function foundKind(text: string): string {
  if (/^#{1,6} \S/m.test(text) || /^\s*[-*] \S/m.test(text)) return "Markdown-like text";
  return "text";
}

/** A file of another kind (by its name), refused before it is read as TOON. */
function refuseDocument(path: string, shown: string): void {
  const kind = NOT_DATA[extname(path).toLowerCase()];
  if (kind !== undefined) {
    throw new InputFileError("data file", shown, `is ${kind}, not data: ${EXPECTED}`);
  }
}

function notData(text: string, shown: string, asToon: string, cause?: unknown): InputFileError {
  const found = `found ${foundKind(text)}; as TOON, ${asToon}`;
  return new InputFileError(
    "data file",
    shown,
    `is neither JSON nor TOON (${found}): ${EXPECTED}`,
    {
      cause,
    },
  );
}

/**
 * The TOON data of a file not named .toon; text that is not TOON is refused, saying so, and so is
 * text that reads as TOON only as one string (a paragraph, a heading's comment line before it).
 */
function decodeGuessedToon(text: string, path: string, shown: string): unknown {
  const named = extname(path).toLowerCase() === ".toon";
  let value: unknown;
  try {
    value = decodeToon(text, { source: shown, refusePrototypeKeys: true });
  } catch (error) {
    if (!isToonError(error) || named) throw error;
    throw notData(text, shown, `line ${error.line}: ${error.reason}`, error);
  }
  if (!named && typeof value === "string") throw notData(text, shown, "one string, no data");
  return value;
}

/** A JSON file's value or a TOON file decoded; a `__proto__` key is refused with its line. */
export async function readDataFile(
  path: string,
  shown: string = path,
): Promise<{ value: unknown; format: DataFormat }> {
  refuseDocument(path, shown);
  const read = await readRegularTextFile(path, MAX_DATA_FILE_BYTES);
  if (!read.ok) throw new InputFileError("data file", shown, read.problem.reason);
  const text = read.text;
  if (text.trim() === "") throw new InputFileError("data file", shown, `is empty: ${EXPECTED}`);
  const format = dataFormatOf(path, text);
  if (format === "json") {
    const parsed = readUntrustedJson(text);
    if (!parsed.ok) {
      throw new InputFileError(
        "data file",
        shown,
        `is refused: ${describeJsonProblem(parsed.problem)}`,
      );
    }
    return { value: parsed.value, format };
  }
  const value = decodeGuessedToon(text, path, shown);
  if (isEmptyObject(value)) {
    throw new InputFileError("data file", shown, `is empty (comment lines only): ${EXPECTED}`);
  }
  return { value, format };
}

function isEmptyObject(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 0
  );
}

function signed(percent: number): string {
  return percent >= 0 ? `${percent.toFixed(1)}% fewer` : `${(-percent).toFixed(1)}% more`;
}

function renderComparison(path: string, format: DataFormat, counts: FormatTokenCounts): string {
  const rows: Array<[string, number, string]> = [
    ["TOON", counts.toon, ""],
    ["JSON (2-space)", counts.prettyJson, `TOON uses ${signed(counts.savingsVsPretty)}`],
    ["JSON (minified)", counts.minifiedJson, `TOON uses ${signed(counts.savingsVsMinified)}`],
  ];
  const numberWidth = Math.max(6, ...rows.map(([, n]) => String(n).length));
  const lines = [
    `${path} (read as ${format.toUpperCase()}), o200k_base tokens:`,
    ...rows.map(
      ([label, n, note]) =>
        `  ${padTo(label, 16)}${String(n).padStart(numberWidth)}${note === "" ? "" : `   ${note}`}`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}

export async function runTokens(
  path: string,
  options: { json?: boolean },
  context: CliContext,
): Promise<void> {
  const absolute = resolve(context.cwd, path);
  const { value, format } = await readDataFile(absolute, displayPath(absolute, context.cwd));
  const counts = compareFormats(value);
  context.stdout.write(
    options.json === true
      ? `${JSON.stringify({ file: path, format, tokenizer: "o200k_base", ...counts }, null, 2)}\n`
      : renderComparison(path, format, counts),
  );
}
