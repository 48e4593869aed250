/**
 * What the commands write: a report to stdout or --out (never over an input, a device or a
 * folder), the proposal as Markdown, JSON or HTML (an existing file is never overwritten), and
 * `run --trace` (the file replaced whole, so each judge call is written once).
 */
import { randomBytes } from "node:crypto";
import { existsSync, realpathSync, statSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { ReviewDesk } from "../desk/reviewDesk.js";
import { userMessage } from "../errors.js";
import type { ProposalDocument } from "../proposal/document.js";
import { renderProposalMarkdown } from "../proposal/markdown.js";
import type { Reviewer } from "../store/reviewers.js";
import { type CliContext, displayPath } from "./context.js";
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

export const PROPOSAL_FORMATS = ["md", "json", "html"] as const;
export type ProposalFormat = (typeof PROPOSAL_FORMATS)[number];

/** How many numbered names are tried beside a taken one. */
const MAX_FREE_NAME_TRIES = 1000;

export async function renderProposal(
  document: ProposalDocument,
  format: ProposalFormat,
): Promise<string> {
  if (format === "json") return `${JSON.stringify(document, null, 2)}\n`;
  if (format === "md") return renderProposalMarkdown(document);
  // Loaded only for HTML: the page components.
  const { renderProposalHtmlFile } = await import("../service/pages/proposalView.js");
  return renderProposalHtmlFile(document);
}

/** The format a file name asks for: .html / .htm, .json, else Markdown. */
export function formatOfPath(path: string): ProposalFormat {
  const extension = extname(path).toLowerCase();
  if (extension === ".html" || extension === ".htm") return "html";
  return extension === ".json" ? "json" : "md";
}

/** The default file of a thread's proposal: `proposal-<thread>.md` (unsafe characters as `_`). */
export function defaultProposalPath(threadId: string, cwd: string): string {
  return join(cwd, `proposal-${threadId.replace(/[^A-Za-z0-9._-]/g, "_")}.md`);
}

/** Refuses an --out file that exists already, or whose folder does not (before any work). */
export function refuseExistingOut(path: string, cwd: string): void {
  const full = resolve(cwd, path);
  refuseFolder("--out", path, cwd, "proposal.md");
  if (existsSync(full)) {
    throw new CliError(
      `--out ${displayPath(full, cwd)} exists already: evalgate does not overwrite it (choose another name, or move it away)`,
    );
  }
  refuseMissingFolder(path, cwd);
}

function isTaken(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "EEXIST";
}

/** `name-2.ext`, `name-3.ext`, … beside `path`. */
function numbered(path: string, n: number): string {
  const extension = extname(path);
  return join(dirname(path), `${basename(path, extension)}-${n}${extension}`);
}

/** Never over an existing file: refuses, or writes the first free numbered name beside it. */
export async function writeNewFile(
  path: string,
  text: string,
  ifTaken: "refuse" | "next-free",
): Promise<string> {
  const tries = ifTaken === "refuse" ? 1 : MAX_FREE_NAME_TRIES;
  for (let n = 1; n <= tries; n += 1) {
    const candidate = n === 1 ? path : numbered(path, n);
    try {
      await writeFile(candidate, text, { encoding: "utf8", flag: "wx" });
      return candidate;
    } catch (error) {
      if (!isTaken(error)) {
        throw new OutputFileError(
          candidate,
          error instanceof Error ? error.message : String(error),
          {
            cause: error,
          },
        );
      }
    }
  }
  throw new OutputFileError(
    path,
    ifTaken === "refuse"
      ? "the file exists already, and evalgate does not overwrite it"
      : `it and ${MAX_FREE_NAME_TRIES - 1} numbered names beside it exist already`,
  );
}

/** 1 for `path`'s own name, n for its numbered name `name-n.ext`, else undefined. */
function copyNumber(name: string, stem: string, extension: string): number | undefined {
  if (name.length < stem.length + extension.length) return undefined;
  if (!name.startsWith(stem) || !name.endsWith(extension)) return undefined;
  const middle = name.slice(stem.length, name.length - extension.length);
  if (middle === "") return 1;
  const n = /^-[0-9]{1,4}$/.test(middle) ? Number(middle.slice(1)) : 0;
  return n >= 2 && n <= MAX_FREE_NAME_TRIES ? n : undefined;
}

/**
 * The first of `path` and its numbered names (`name-2.ext`, …) that is a regular file holding
 * exactly `text`: where that proposal is already, so no copy of it is written again.
 */
export async function fileHolding(path: string, text: string): Promise<string | undefined> {
  const folder = dirname(path);
  const extension = extname(path);
  const stem = basename(path, extension);
  const names = await readdir(folder).catch(() => [] as string[]);
  const copies = names
    .map((name) => ({ name, n: copyNumber(name, stem, extension) }))
    .filter((copy): copy is { name: string; n: number } => copy.n !== undefined)
    .sort((a, b) => a.n - b.n);
  const size = Buffer.byteLength(text, "utf8");
  for (const { name } of copies) {
    const candidate = join(folder, name);
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isFile() !== true || info.size !== size) continue;
    const held = await readFile(candidate, "utf8").catch(() => undefined);
    if (held === text) return candidate;
  }
  return undefined;
}

/** Writes the thread's traces to `file` (relative to the working folder, folders made); returns how many. */
export async function exportThreadTraces(
  desk: ReviewDesk,
  threadId: string,
  reviewer: Reviewer,
  file: string,
  context: Pick<CliContext, "cwd" | "stderr">,
): Promise<number> {
  const { evaluations } = await desk.threadTraces(threadId, reviewer);
  const lines = evaluations.flatMap(({ evaluationId, traces }) =>
    traces.map((trace) => `${JSON.stringify({ ...trace, evaluationId, threadId })}\n`),
  );
  const path = resolve(context.cwd, file);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomically(path, lines.join(""));
  const calls = `${lines.length} judge call${lines.length === 1 ? "" : "s"}`;
  context.stderr.write(`traces: ${calls} written to ${displayPath(path, context.cwd)}\n`);
  return lines.length;
}
