/** Reading the files the review commands are given: the RFP, the applicant, new content. */
import { readFile, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { REVIEW_LIMITS } from "../../graph/reviewInput.js";
import { displayPath } from "../displayPath.js";
import { InputFileError, isInputFileError } from "../errors.js";

/**
 * The text of `path` (relative to `cwd`); InputFileError naming the role and the path when the
 * file cannot be read or holds nothing but whitespace.
 */
export async function readInputFile(role: string, path: string, cwd: string): Promise<string> {
  const full = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(full, "utf8");
  } catch (error) {
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    const reason =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "a folder, not a file"
          : error instanceof Error
            ? error.message
            : String(error);
    throw new InputFileError(role, displayPath(full, cwd), reason, { cause: error });
  }
  if (text.trim() === "") {
    throw new InputFileError(role, displayPath(full, cwd), "the file is empty");
  }
  return text;
}

/**
 * The text of the file an edit replaces a stage's content with: a regular file of at most 1 MiB
 * (checked before it is read), UTF-8 without NUL bytes, not empty. InputFileError says which.
 */
export async function readEditFile(role: string, path: string, cwd: string): Promise<string> {
  const full = resolve(cwd, path);
  const shown = displayPath(full, cwd);
  const limit = REVIEW_LIMITS.editContentBytes;
  let data: Buffer;
  try {
    const info = await stat(full);
    if (!info.isFile()) throw new InputFileError(role, shown, "is not a regular file");
    if (info.size > limit) {
      throw new InputFileError(
        role,
        shown,
        `is ${info.size} bytes; an edit takes at most ${limit} (1 MiB)`,
      );
    }
    data = await readFile(full);
  } catch (error) {
    if (isInputFileError(error)) throw error;
    const code = error instanceof Error && "code" in error ? error.code : undefined;
    const reason =
      code === "ENOENT" ? "no such file" : error instanceof Error ? error.message : String(error);
    throw new InputFileError(role, shown, reason, { cause: error });
  }
  if (data.length > limit) throw new InputFileError(role, shown, `is over ${limit} bytes (1 MiB)`);
  if (data.includes(0))
    throw new InputFileError(role, shown, "contains NUL bytes: a binary file, not text");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(data);
  } catch (error) {
    throw new InputFileError(role, shown, "is not UTF-8 text", { cause: error });
  }
  if (text.trim() === "") throw new InputFileError(role, shown, "the file is empty");
  return text;
}
