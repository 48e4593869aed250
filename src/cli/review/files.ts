/** Reading the files the review commands are given: the RFP, the applicant, new content. */
import { resolve } from "node:path";
import { readRegularTextFile } from "../../untrusted/regularFile.js";
import { displayPath } from "../displayPath.js";
import { InputFileError } from "../errors.js";

/** The largest RFP, applicant or content file the review commands read. */
export const MAX_REVIEW_INPUT_BYTES = 10 * 1024 * 1024;

/**
 * The text of `path` (relative to `cwd`): a regular file (a FIFO or device is refused before it
 * is opened) of at most MAX_REVIEW_INPUT_BYTES. InputFileError naming the role and the path when
 * the file cannot be read or holds nothing but whitespace.
 */
export async function readInputFile(role: string, path: string, cwd: string): Promise<string> {
  const full = resolve(cwd, path);
  const read = await readRegularTextFile(full, MAX_REVIEW_INPUT_BYTES);
  if (!read.ok) throw new InputFileError(role, displayPath(full, cwd), read.problem.reason);
  if (read.text.trim() === "") {
    throw new InputFileError(role, displayPath(full, cwd), "the file is empty");
  }
  return read.text;
}
