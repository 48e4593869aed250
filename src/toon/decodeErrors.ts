import { ToonDecodeError } from "@toon-format/toon";
import { countOf, ToonError } from "./errors.js";
import { parseArrayHeader } from "./header.js";
import type { NormalisedBlock, NormalisedToon } from "./normalise.js";

/** The spec decoder's error, located in the caller's text and naming the array and row. */
export function toToonError(
  error: unknown,
  normalised: NormalisedToon,
  source: string | undefined,
): unknown {
  if (!(error instanceof ToonDecodeError) || error.line === undefined) return error;
  const reason = error.message.replace(/^Line \d+: /, "");
  return new ToonError(
    describe(reason, error.line, normalised),
    { line: normalised.originalLine(error.line), source },
    { cause: error },
  );
}

function describe(reason: string, line: number, normalised: NormalisedToon): string {
  const within = (kind: NormalisedBlock["kind"]): NormalisedBlock | undefined =>
    normalised.blocks
      .filter((block) => block.kind === kind && block.headerLine <= line && line <= block.endLine)
      .at(-1);

  const rows = /^Expected (\d+) (tabular rows|list-form items), but (?:got (\d+)|found more)$/.exec(
    reason,
  );
  if (rows) {
    const table = within("tabular");
    const isTable = table && (rows[2] === "tabular rows" || table.listForm);
    if (table && isTable) {
      const actual = rows[3] ?? String(table.rowLines.length);
      const short = Number(actual) < Number(rows[1]) ? gapReason(table) : "";
      return `tabular array "${table.name}" declares ${countOf(rows[1] ?? 0, "row")} but has ${actual}${short}`;
    }
    if (rows[2] === "list-form items") {
      const name = listAbove(normalised.text.split("\n"), line) ?? "(root)";
      return `list "${name}" declares ${countOf(rows[1] ?? 0, "item")} but has ${rows[3] ?? "more"}`;
    }
  }
  if (reason === "Tabs are not allowed in indentation in strict mode") {
    return "a tab indents this line: indent with spaces";
  }

  const width = /^Expected (\d+) tabular row values, but got (\d+)$/.exec(reason);
  const table = within("tabular");
  if (width && table) {
    const row = table.rowLines.indexOf(line) + 1;
    const which = row > 0 ? `row ${row}` : "a row";
    return `tabular array "${table.name}" ${which} has ${countOf(width[2] ?? 0, "value")}, header has ${countOf(width[1] ?? 0, "field")}`;
  }

  const inline = /^Expected (\d+) inline-form values, but got (\d+)$/.exec(reason);
  const array = within("inline");
  if (inline && array) {
    return `inline array "${array.name}" declares ${countOf(inline[1] ?? 0, "value")} but has ${inline[2]}`;
  }

  const entries = /^Expected (\d+) keyed entries, but got (\d+)$/.exec(reason);
  const keyed = within("keyed");
  if (entries && keyed) {
    return `keyed object "${keyed.name}" declares ${countOf(entries[1] ?? 0, "entry", "entries")} but has ${entries[2]}`;
  }
  const cells = /^Expected (\d+) keyed entry cells, but got (\d+)$/.exec(reason);
  if (cells && keyed) {
    const entry = keyed.rowLines.indexOf(line) + 1;
    const which = entry > 0 ? `entry ${entry}` : "an entry";
    return `keyed object "${keyed.name}" ${which} has ${countOf(cells[2] ?? 0, "value")}, header has ${countOf(cells[1] ?? 0, "field")}`;
  }
  return reason;
}

/** Why flush rows stopped short: the blank or comment line between them. */
function gapReason(table: NormalisedBlock): string {
  const gap = table.endedBy;
  if (gap === undefined) return "";
  const what = gap.kind === "comment" ? "a comment" : "a blank line";
  return `: ${what} at line ${gap.number} ends the table (keep the rows together)`;
}

/** The key of the list header an item line sits under. */
function listAbove(lines: readonly string[], line: number): string | undefined {
  const indentOf = (text: string): number => text.length - text.trimStart().length;
  const own = indentOf(lines[line - 1] ?? "");
  for (let at = line - 2; at >= 0; at--) {
    const text = lines[at] ?? "";
    if (text.trim() === "" || indentOf(text) >= own) continue;
    return parseArrayHeader(text.trim().replace(/^- /, ""))?.key;
  }
  return undefined;
}
