import { randomBytes } from "node:crypto";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { userMessage } from "../errors.js";
import type { CliContext } from "./context.js";
import { OutputFileError } from "./errors.js";

/** Through a temporary file renamed into place: no half-written report, no file left on failure. */
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
    throw new OutputFileError(path, userMessage(error), { cause: error });
  }
}

/** `text` on stdout, or written to the --out file `out` (saying so on stderr, naming `what`). */
export async function writeOutput(
  text: string,
  out: string | undefined,
  what: string,
  context: Pick<CliContext, "stdout" | "stderr" | "cwd">,
): Promise<void> {
  if (out === undefined) {
    context.stdout.write(text);
    return;
  }
  await writeFileAtomically(resolve(context.cwd, out), text);
  context.stderr.write(`wrote ${what} to ${out}\n`);
}
