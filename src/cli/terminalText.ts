/**
 * Text a command prints is safe for the terminal that shows it. Judge answers (reasoning, hits,
 * misses — which the content under evaluation can steer), catalog names and titles, content and
 * messages may hold control characters: `ESC ] 0 ;…` sets the window title, `ESC [ 2 J` clears the
 * screen, `ESC ] 52 ;…` writes the clipboard on terminals that honour it, and a carriage return
 * rewrites the line it is on ("done: passed"). Every control character is replaced with a visible
 * escape where text goes to stdout and stderr (the streams of a CliContext): C0 other than newline
 * and tab as `\x1b` (a carriage return as `\r`), DEL and C1 as `\u007f`, `\u009b` — the form JSON
 * has for them, so a JSON report stays valid JSON with the same meaning. An escape sequence is
 * thereby plain text: nothing of it is run. The command's own redraws (`\r`, clear-line) go
 * through `control`, the one path that writes a sequence as it is.
 */

import type { TextOutput } from "./context.js";

export { terminalSafe } from "../untrusted/terminalText.js";

/** Writes a terminal sequence the command makes itself (on a stream that is not wrapped: as text). */
export function writeControl(stream: TextOutput, sequence: string): void {
  if (stream.control !== undefined) stream.control(sequence);
  else stream.write(sequence);
}

/**
 * Writes `text` (terminal-safe on a wrapped stream) between two sequences the command makes itself
 * (`\r` and clear-line around a redrawn line); on a stream that is not wrapped, as one write.
 */
export function writeBetween(stream: TextOutput, before: string, text: string, after = ""): void {
  if (stream.control === undefined) {
    stream.write(`${before}${text}${after}`);
    return;
  }
  if (before !== "") stream.control(before);
  stream.write(text);
  if (after !== "") stream.control(after);
}
