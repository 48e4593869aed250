/**
 * Reading a content file safely: only a regular file (a FIFO or device would block or never end:
 * its type is checked before it is opened), at most the content budget, and only UTF-8 text
 * without NUL bytes (a binary file is not content a judge can read).
 */
import type { Stats } from "node:fs";
import { readFile } from "node:fs/promises";
import { formatBytes as bytes } from "../engine/contentBudget.js";
import { InputFileError } from "./errors.js";

/** Reads a content file as text, refusing what a judge cannot or should not be sent. */
export async function readContentText(
  info: Stats,
  path: { absolute: string; shown: string },
  budgetBytes: number,
): Promise<string> {
  const refuse = (reason: string, cause?: unknown) =>
    new InputFileError("content file", path.shown, reason, cause === undefined ? {} : { cause });
  if (!info.isFile())
    throw refuse("is not a regular file (a FIFO, device or socket cannot be judged)");
  if (info.size > budgetBytes) {
    throw refuse(
      `is ${bytes(info.size)}, over the content budget of ${bytes(budgetBytes)} that fits the judge's context window (raise it with --max-content-bytes, or split the content)`,
    );
  }
  let data: Buffer;
  try {
    data = await readFile(path.absolute);
  } catch (error) {
    throw refuse(error instanceof Error ? error.message : String(error), error);
  }
  if (data.includes(0)) throw refuse("contains NUL bytes: a binary file, not text");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch (error) {
    throw refuse("is not UTF-8 text (a binary file?)", error);
  }
}
