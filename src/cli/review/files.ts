/** Reading the files the review commands are given: the RFP, the applicant, new content. */
import { resolve } from "node:path";
import { REVIEW_LIMITS } from "../../graph/reviewInput.js";
import { readRegularFile, readRegularTextFile } from "../../untrusted/regularFile.js";
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

/**
 * The text of the file an edit replaces a stage's content with: a regular file of at most 1 MiB
 * (checked before it is read), UTF-8 without NUL bytes, not empty. InputFileError says which.
 */
export async function readEditFile(role: string, path: string, cwd: string): Promise<string> {
  const full = resolve(cwd, path);
  const shown = displayPath(full, cwd);
  const limit = REVIEW_LIMITS.editContentBytes;
  const read = await readRegularFile(full, limit);
  if (!read.ok) throw new InputFileError(role, shown, read.problem.reason);
  if (read.data.includes(0)) {
    throw new InputFileError(role, shown, "contains NUL bytes: a binary file, not text");
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(read.data);
  } catch (error) {
    throw new InputFileError(role, shown, "is not UTF-8 text", { cause: error });
  }
  if (text.trim() === "") throw new InputFileError(role, shown, "the file is empty");
  return text;
}
