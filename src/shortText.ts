/** Text made short for one line of a message, a report or a page: every cut ends in "…". */

/** Runs of whitespace, newlines included, as single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** `text` cut to at most `max` characters (code points, so no emoji is split), "…" when cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  if (max <= 1) return chars.slice(0, max).join("");
  return `${chars
    .slice(0, max - 1)
    .join("")
    .trimEnd()}…`;
}
