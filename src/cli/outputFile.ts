import { randomBytes } from "node:crypto";
import { existsSync, realpathSync, statSync } from "node:fs";
import { rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { userMessage } from "../errors.js";
import type { CliContext } from "./context.js";
import { displayPath } from "./displayPath.js";
import { CliError, OutputFileError } from "./errors.js";

/** Refuses an --out file whose folder does not exist (before any work). */
export function refuseMissingFolder(path: string, cwd: string): void {
  const full = resolve(cwd, path);
  const folder = dirname(full);
  if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
    throw new CliError(
      `--out ${displayPath(full, cwd)}: there is no folder ${displayPath(folder, cwd)}`,
    );
  }
}

/** Refuses a folder given as the file `flag` writes, naming a file `example` in it instead. */
export function refuseFolder(flag: string, path: string, cwd: string, example: string): void {
  const full = resolve(cwd, path);
  if (!existsSync(full) || !statSync(full).isDirectory()) return;
  const shown = displayPath(full, cwd);
  throw new CliError(
    `${flag} ${shown} is a folder: give the name of a new file, such as ${join(shown, example)}`,
  );
}

/** `--out -` is stdout, as without --out. */
const STDOUT = "-";

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Checked before any model call: --out goes into a folder that exists, and does not name a file
 * the command reads (`[what, path]`), which the report would replace.
 */
export function checkOutFile(
  out: string | undefined,
  inputs: ReadonlyArray<readonly [string, string | undefined]>,
  cwd: string,
): void {
  if (out === undefined || out === STDOUT) return;
  refuseFolder("--out", out, cwd, "report");
  refuseMissingFolder(out, cwd);
  const special = notRegularFile(resolve(cwd, out));
  if (special !== undefined) throw new CliError(`--out ${out} ${special}`);
  const target = realPath(resolve(cwd, out));
  for (const [what, path] of inputs) {
    if (path === undefined || realPath(resolve(cwd, path)) !== target) continue;
    throw new CliError(
      `--out ${out} is the ${what} ${path}: the report would replace it; write it to another file`,
    );
  }
}

/**
 * Why `path` cannot be replaced by a report: it is a device, FIFO or socket (renamed over as
 * root, /dev/null would become a file). A link is checked as what it points to.
 */
function notRegularFile(path: string): string | undefined {
  const found = statSync(path, { throwIfNoEntry: false });
  if (found === undefined || found.isFile() || found.isDirectory()) return undefined;
  return "is not a regular file (a device, FIFO or socket): give a file, or --out - for stdout";
}

/** Through a temporary file renamed into place: no half-written report, no file left on failure. */
export async function writeFileAtomically(path: string, text: string): Promise<void> {
  const special = notRegularFile(path);
  if (special !== undefined) throw new OutputFileError(path, special);
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
  if (out === undefined || out === STDOUT) {
    context.stdout.write(text);
    return;
  }
  await writeFileAtomically(resolve(context.cwd, out), text);
  context.stderr.write(`wrote ${what} to ${out}\n`);
}
