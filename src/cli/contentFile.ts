/**
 * Content files are read only as regular files (a FIFO or device would block), not links unless
 * EVALGATE_FOLLOW_SYMLINKS=1, never from /proc, /sys or /dev, within the content budget, as UTF-8
 * text.
 */
import { formatBytes as bytes } from "../engine/contentBudget.js";
import type { ModelEnv } from "../llm/spec.js";
import { onOffSetting } from "../onOffSetting.js";
import {
  type FileProblem,
  type LinkPolicy,
  readRegularTextFile,
} from "../untrusted/regularFile.js";
import { CliError, InputFileError } from "./errors.js";

/** Whether the commands follow links to the files they are given: EVALGATE_FOLLOW_SYMLINKS=1. */
export function linkPolicyOf(env: ModelEnv): LinkPolicy {
  const refuse = (message: string) => new CliError(message);
  return { followSymlinks: onOffSetting(env, "EVALGATE_FOLLOW_SYMLINKS", refuse) ?? false };
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
