/** Reading the files the review commands are given: the RFP, the applicant, new content. */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { displayPath } from "../displayPath.js";
import { InputFileError } from "../errors.js";

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
