/** Plain-text tables for the engine benchmark: first column left-aligned, the others right. */
export function formatTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "─".repeat(w)).join("  ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/** Milliseconds with one decimal, or with three below 10 ms. */
export function ms(value: number): string {
  return Math.abs(value) < 10 ? value.toFixed(3) : value.toFixed(1);
}

export function ratio(value: number): string {
  return `${value.toFixed(3)}×`;
}

export function count(value: number): string {
  return value.toLocaleString("en-US");
}
