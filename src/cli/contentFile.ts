/**
 * Reading a content file safely: only a regular file (a FIFO or device would block or never end:
 * its type is checked before it is opened, and again on the open file), at most the content
 * budget, and only UTF-8 text without NUL bytes (a binary file is not content a judge can read).
 */
import { formatBytes as bytes } from "../engine/contentBudget.js";
import { type FileProblem, readRegularFile } from "../untrusted/regularFile.js";
import { InputFileError } from "./errors.js";

function problemReason(problem: FileProblem, budgetBytes: number): string {
  if (problem.kind === "not_regular") {
    return `${problem.reason} (a FIFO, device or socket cannot be judged)`;
  }
  if (problem.kind !== "too_large") return problem.reason;
  const size = problem.size === undefined ? "is" : `is ${bytes(problem.size)},`;
  return `${size} over the content budget of ${bytes(budgetBytes)} that fits the judge's context window (raise it with --max-content-bytes, or split the content)`;
}

/** Reads a content file as text, refusing what a judge cannot or should not be sent. */
export async function readContentText(
  path: { absolute: string; shown: string },
  budgetBytes: number,
): Promise<string> {
  const refuse = (reason: string, cause?: unknown) =>
    new InputFileError("content file", path.shown, reason, cause === undefined ? {} : { cause });
  const read = await readRegularFile(path.absolute, budgetBytes);
  if (!read.ok) throw refuse(problemReason(read.problem, budgetBytes));
  const data = read.data;
  if (data.includes(0)) throw refuse("contains NUL bytes: a binary file, not text");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch (error) {
    throw refuse("is not UTF-8 text (a binary file?)", error);
  }
}
