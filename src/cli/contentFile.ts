/**
 * Reading a content file safely, with the one reader of user files: only a regular file (a FIFO
 * or device would block or never end: its type is checked before it is opened, and again on the
 * open file), not a link unless EVALGATE_FOLLOW_SYMLINKS=1 allows links, never a file of /proc,
 * /sys or /dev, at most the content budget, and only UTF-8 text without NUL bytes (a binary file
 * is not content a judge can read).
 */
import { formatBytes as bytes } from "../engine/contentBudget.js";
import type { ModelEnv } from "../llm/spec.js";
import {
  type FileProblem,
  type LinkPolicy,
  readRegularTextFile,
} from "../untrusted/regularFile.js";
import { InputFileError } from "./errors.js";

/** Whether the commands follow links to the files they are given: EVALGATE_FOLLOW_SYMLINKS=1. */
export function linkPolicyOf(env: ModelEnv): LinkPolicy {
  const value = env.EVALGATE_FOLLOW_SYMLINKS?.trim().toLowerCase();
  return { followSymlinks: value === "1" || value === "true" || value === "yes" };
}

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
  links: LinkPolicy = {},
): Promise<string> {
  const read = await readRegularTextFile(path.absolute, budgetBytes, {
    ...links,
    strictUtf8: true,
  });
  if (!read.ok) {
    throw new InputFileError("content file", path.shown, problemReason(read.problem, budgetBytes));
  }
  return read.text;
}
