/** Small text helpers shared by the reports and the progress lines. */

import type { NativeValue } from "../../scoring/result.js";
import { cutDown } from "../../scoring/shownScore.js";

/** Pads `text` with spaces to `width` characters (counted as code points). */
export function padTo(text: string, width: number): string {
  const length = Array.from(text).length;
  return length >= width ? text : text + " ".repeat(width - length);
}

/** A native value as shown: 4, "pass", a level id; "—" when there is none. */
export function nativeText(native: NativeValue | undefined): string {
  if (native === null || native === undefined) return "—";
  return typeof native === "number" ? String(Number(cutDown(native, 4))) : native;
}

/** yes / no / — for a criterion's `met` (null: not evaluated). */
export function metText(met: boolean | null): string {
  if (met === null) return "—";
  return met ? "yes" : "no";
}
