/**
 * One progress line a terminal redraws in place, with permanent lines above; off a terminal, plain
 * lines.
 */

import { truncate } from "../shortText.js";
import { type TextOutput, writeBetween, writeControl } from "./context.js";

const CLEAR_LINE = "\r\x1b[2K";

export interface LiveLine {
  /** The stream is a terminal: lines can be redrawn. */
  readonly tty: boolean;
  /** Draws `text` in place of the live line (on a terminal; nothing elsewhere). */
  draw(text: string): void;
  /** Writes a permanent line, clearing the live line first on a terminal. */
  print(text: string): void;
  clear(): void;
}

export function createLiveLine(stream: TextOutput): LiveLine {
  const tty = stream.isTTY === true;
  let drawn = false;
  const width = () => Math.max(40, (stream.columns ?? 80) - 1);
  const clear = () => {
    if (drawn) writeControl(stream, CLEAR_LINE);
    drawn = false;
  };
  return {
    tty,
    draw(text) {
      if (!tty) return;
      writeBetween(stream, CLEAR_LINE, truncate(text, width()));
      drawn = true;
    },
    print(text) {
      clear();
      stream.write(`${tty ? truncate(text, width()) : text}\n`);
    },
    clear,
  };
}
