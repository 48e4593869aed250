import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { OutputFileError } from "./errors.js";

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Writes `text` to `path` all at once: first to a temporary file beside it, then renamed into
 * place, so that a reader never sees a half-written report and a failure leaves no file behind.
 */
export async function writeFileAtomically(path: string, text: string): Promise<void> {
  const temp = join(
    dirname(path),
    `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    await writeFile(temp, text, { encoding: "utf8", flag: "wx" });
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new OutputFileError(path, reasonOf(error), { cause: error });
  }
}
