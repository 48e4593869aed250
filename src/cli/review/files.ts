/** Reading the files the review commands are given: the RFP, the applicant, new content. */
import { resolve } from "node:path";
import { REVIEW_LIMITS } from "../../graph/reviewInput.js";
import { type LinkPolicy, readRegularTextFile } from "../../untrusted/regularFile.js";
import { displayPath } from "../displayPath.js";
import { InputFileError } from "../errors.js";

/** The largest RFP, applicant or content file the review commands read. */
export const MAX_REVIEW_INPUT_BYTES = 10 * 1024 * 1024;

/**
 * The text of `path` (relative to `cwd`), read by the one reader of user files: a regular file (a
 * FIFO or device is refused before it is opened), not a link unless `links` allows them, never a
 * file of /proc, /sys or /dev, without NUL bytes, of at most MAX_REVIEW_INPUT_BYTES.
 * InputFileError naming the role and the path when the file cannot be read or holds nothing but
 * whitespace.
 */
export async function readInputFile(
  role: string,
  path: string,
  cwd: string,
  links: LinkPolicy = {},
): Promise<string> {
  const full = resolve(cwd, path);
  const read = await readRegularTextFile(full, MAX_REVIEW_INPUT_BYTES, links);
  if (!read.ok) throw new InputFileError(role, displayPath(full, cwd), read.problem.reason);
  if (read.text.trim() === "") {
    throw new InputFileError(role, displayPath(full, cwd), "the file is empty");
  }
  return read.text;
}

/**
 * The text of the file an edit replaces a stage's content with: read as readInputFile does, of at
 * most 1 MiB, UTF-8, not empty. InputFileError says which.
 */
export async function readEditFile(
  role: string,
  path: string,
  cwd: string,
  links: LinkPolicy = {},
): Promise<string> {
  const full = resolve(cwd, path);
  const shown = displayPath(full, cwd);
  const limit = REVIEW_LIMITS.editContentBytes;
  const read = await readRegularTextFile(full, limit, { ...links, strictUtf8: true });
  if (!read.ok) throw new InputFileError(role, shown, read.problem.reason);
  if (read.text.trim() === "") throw new InputFileError(role, shown, "the file is empty");
  return read.text;
}
