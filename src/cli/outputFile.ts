import { randomBytes } from "node:crypto";
import { realpathSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { userMessage } from "../errors.js";
import type { CliContext } from "./context.js";
import { CliError, OutputFileError } from "./errors.js";

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** An --out naming a file the command reads (`[what, path]`) would replace it: refused first. */
export function refuseOutOverInputs(
  out: string | undefined,
  inputs: ReadonlyArray<readonly [string, string | undefined]>,
  cwd: string,
): void {
  if (out === undefined) return;
  const target = realPath(resolve(cwd, out));
  for (const [what, path] of inputs) {
    if (path === undefined || realPath(resolve(cwd, path)) !== target) continue;
    throw new CliError(
      `--out ${out} is the ${what} ${path}: the report would replace it; write it to another file`,
    );
  }
}

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
