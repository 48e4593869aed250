/** Reading the files the review commands are given: the RFP, the applicant, new content. */
import { resolve } from "node:path";
import { REVIEW_LIMITS } from "../../graph/reviewInput.js";
import { type LinkPolicy, readRegularTextFile } from "../../untrusted/regularFile.js";
import { displayPath } from "../displayPath.js";
import { InputFileError } from "../errors.js";

/** The largest RFP, applicant or content file the review commands read. */
const MAX_REVIEW_INPUT_BYTES = 10 * 1024 * 1024;

/** Through the one reader of user files; a file of nothing but whitespace is refused too. */
async function readUserText(
  role: string,
  path: string,
  cwd: string,
  limit: number,
  links: LinkPolicy & { strictUtf8?: boolean },
): Promise<string> {
  const shown = displayPath(resolve(cwd, path), cwd);
  const read = await readRegularTextFile(resolve(cwd, path), limit, links);
  if (!read.ok) throw new InputFileError(role, shown, read.problem.reason);
  if (read.text.trim() === "") throw new InputFileError(role, shown, "the file is empty");
  return read.text;
}

/** An RFP or applicant file: at most 10 MiB of UTF-8 (no letter silently replaced). */
export function readInputFile(role: string, path: string, cwd: string, links: LinkPolicy = {}) {
  return readUserText(role, path, cwd, MAX_REVIEW_INPUT_BYTES, { ...links, strictUtf8: true });
}

/** The file an edit replaces a stage's content with: at most 1 MiB of UTF-8. */
export function readEditFile(role: string, path: string, cwd: string, links: LinkPolicy = {}) {
  return readUserText(role, path, cwd, REVIEW_LIMITS.editContentBytes, {
    ...links,
    strictUtf8: true,
  });
}
