import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeResultsToon, resultsToonDocument } from "../src/scoring/resultsToon.js";
import { decodeToon } from "../src/toon/decode.js";
import { compareFormats, type FormatTokenCounts } from "../src/toon/tokenCounts.js";
import { ifbProfiExampleResult, twentyCriterionResult } from "./sampleResults.js";

/** The criteria folder: the first argument, else config/evaluation/criteria/ of this repo. */
const CRITERIA_DIR =
  process.argv[2] ?? fileURLToPath(new URL("../config/evaluation/criteria/", import.meta.url));

interface Row {
  name: string;
  counts?: FormatTokenCounts;
  note?: string;
}

async function criteriaRows(): Promise<Row[]> {
  let files: string[];
  try {
    files = (await readdir(CRITERIA_DIR)).filter((f) => f.endsWith(".json")).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return [{ name: CRITERIA_DIR, note: "no such folder" }];
    throw error;
  }
  if (files.length === 0) return [{ name: CRITERIA_DIR, note: "no JSON files" }];
  const rows: Row[] = [];
  for (const file of files) {
    const text = await readFile(join(CRITERIA_DIR, file), "utf8");
    try {
      rows.push({ name: `criteria/${file}`, counts: compareFormats(JSON.parse(text)) });
    } catch (error) {
      rows.push({ name: `criteria/${file}`, note: `not JSON: ${(error as Error).message}` });
    }
  }
  return rows;
}

/** The shipped catalogs in the TOON criteria dialect, as written, against the same data as JSON. */
async function toonCatalogRows(): Promise<Row[]> {
  const dir = fileURLToPath(new URL("../data/criteria/", import.meta.url));
  const files = (await readdir(dir)).filter((f) => f.endsWith(".toon")).sort();
  const rows: Row[] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), "utf8");
    const value = decodeToon(text, { source: file, stringFields: ["version"] });
    rows.push({ name: `data/criteria/${file} (as written)`, counts: compareFormats(value, text) });
    rows.push({ name: `data/criteria/${file} (spec TOON)`, counts: compareFormats(value) });
  }
  return rows;
}

function resultRows(): Row[] {
  return [
    ["results: IFB PROFI example (3)", ifbProfiExampleResult()] as const,
    ["results: 20 criteria", twentyCriterionResult()] as const,
  ].map(([name, result]) => ({
    name,
    counts: compareFormats(resultsToonDocument(result), encodeResultsToon(result)),
  }));
}

const pct = (value: number) => `${value >= 0 ? "" : "−"}${Math.abs(value).toFixed(1)}%`;

function printTable(rows: readonly Row[]): void {
  const header = ["input", "TOON", "JSON pretty", "JSON min", "TOON vs pretty", "TOON vs min"];
  const body = rows.map((row) =>
    row.counts === undefined
      ? [row.name, "—", "—", "—", row.note ?? "", ""]
      : [
          row.name,
          String(row.counts.toon),
          String(row.counts.prettyJson),
          String(row.counts.minifiedJson),
          pct(row.counts.savingsVsPretty),
          pct(row.counts.savingsVsMinified),
        ],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const r of body) console.log(line(r));
}

console.log("o200k tokens; savings = 1 − TOON / JSON (negative: TOON uses more)\n");
printTable([...(await criteriaRows()), ...(await toonCatalogRows()), ...resultRows()]);
