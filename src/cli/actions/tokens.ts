/** `evalgate tokens <file>`: what the file's data costs as TOON, pretty JSON and minified JSON. */
import { readFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { decodeToon } from "../../toon/decode.js";
import { compareFormats, type FormatTokenCounts } from "../../toon/tokenCounts.js";
import type { CliContext } from "../context.js";
import { displayPath } from "../displayPath.js";
import { InputFileError } from "../errors.js";
import { EXIT_OK } from "../exitCodes.js";
import { padTo } from "../report/text.js";

type DataFormat = "json" | "toon";

/** `.json` → JSON, `.toon` → TOON; other names by their first character (`{` or `[` → JSON). */
function dataFormatOf(path: string, text: string): DataFormat {
  const ext = extname(path).toLowerCase();
  if (ext === ".json") return "json";
  if (ext === ".toon") return "toon";
  return /^[{[]/.test(text.trimStart()) ? "json" : "toon";
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The file's data: a JSON file's value, a TOON file decoded (the seed dialect too). */
export async function readDataFile(
  path: string,
  shown: string = path,
): Promise<{ value: unknown; format: DataFormat }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const missing = error instanceof Error && "code" in error && error.code === "ENOENT";
    throw new InputFileError("data file", shown, missing ? "no such file" : errorText(error), {
      cause: error,
    });
  }
  const format = dataFormatOf(path, text);
  if (format === "json") {
    try {
      const value: unknown = JSON.parse(text);
      return { value, format };
    } catch (error) {
      throw new InputFileError("data file", shown, `is not valid JSON: ${errorText(error)}`, {
        cause: error,
      });
    }
  }
  return { value: decodeToon(text, { source: shown }), format };
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
  context.exitCode = EXIT_OK;
}
