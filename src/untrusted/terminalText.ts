/**
 * Text made safe for a terminal: every control character but newline and tab, and the bidi controls
 * that reorder what is shown, replaced by a visible escape — C0 as `\x1b` (a carriage return as
 * `\r`), the others as `\u009b`, `\u202e` (the form JSON has for them, so JSON stays valid JSON
 * with the same meaning). An escape sequence (`ESC ] 0 ;…` window title, `ESC [ 2 J` clear screen,
 * `ESC ] 52 ;…` clipboard) is thereby plain text: nothing of it is run. The CLI applies it to
 * everything it writes (src/cli/context.ts); the service and the desk to what they write to stderr.
 */
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it replaces.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function visible(character: string): string {
  const code = character.charCodeAt(0);
  if (character === "\r") return "\\r";
  if (code < 0x20) return `\\x${code.toString(16).padStart(2, "0")}`;
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

export function terminalSafe(text: string): string {
  return text.replace(CONTROL, visible);
}
