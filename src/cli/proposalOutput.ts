/** The proposal written as Markdown, JSON or HTML; an existing file is never overwritten. */
import { existsSync } from "node:fs";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import type { ProposalDocument } from "../proposal/document.js";
import { renderProposalMarkdown } from "../proposal/markdown.js";
import { displayPath } from "./displayPath.js";
import { CliError, OutputFileError } from "./errors.js";
import { refuseFolder, refuseMissingFolder } from "./outputFile.js";

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
