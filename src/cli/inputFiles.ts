/**
 * The files the commands read. Content is read only as regular files (a FIFO or device would
 * block), not links unless EVALGATE_FOLLOW_SYMLINKS=1, never from /proc, /sys or /dev, within the
 * content budget, as UTF-8 text. `evaluate` judges a FILE as the content, a DIRECTORY as a project
 * whose documents are the evidence.
 */
import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";
import { CONTENT_TYPE_PROMPTS, normaliseContentType } from "../../prompts/evaluation/index.js";
import { loadDocuments } from "../context/load.js";
import type { SourceDocument } from "../context/types.js";
import { formatBytes as bytes, contentBudgetBytes } from "../engine/contentBudget.js";
import { emptyProject } from "../engine/errors.js";
import { REVIEW_LIMITS } from "../graph/reviewInput.js";
import type { ModelEnv } from "../llm/spec.js";
import { onOffSetting } from "../onOffSetting.js";
import { levenshteinSimilarity } from "../pointFunctions/similarity.js";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";
import {
  type FileProblem,
  type LinkPolicy,
  readRegularTextFile,
} from "../untrusted/regularFile.js";
import { displayPath } from "./context.js";
import { CliError, InputFileError } from "./errors.js";

/** Whether the commands follow links to the files they are given: EVALGATE_FOLLOW_SYMLINKS=1. */
export function linkPolicyOf(env: ModelEnv): LinkPolicy {
  const refuse = (message: string) => new CliError(message);
  return { followSymlinks: onOffSetting(env, "EVALGATE_FOLLOW_SYMLINKS", refuse) ?? false };
}

function problemReason(problem: FileProblem, budgetBytes: number): string {
  if (problem.kind === "not_regular") {
    return `${problem.reason} (a FIFO, device or socket cannot be judged)`;
  }
  if (problem.kind !== "too_large") return problem.reason;
  const size = problem.size === undefined ? "is" : `is ${bytes(problem.size)},`;
  return `${size} over the content budget of ${bytes(budgetBytes)} that fits the judge's context window (raise it with --max-content-bytes, or split the content)`;
}

/** The largest RFP, applicant or content file the review commands read. */
const MAX_REVIEW_INPUT_BYTES = 10 * 1024 * 1024;

/** A user's text file, as strict UTF-8; a file of nothing but whitespace is refused too. */
async function readUserText(
  role: string,
  path: string,
  cwd: string,
  limit: number,
  links: LinkPolicy,
): Promise<string> {
  const shown = displayPath(resolve(cwd, path), cwd);
  const read = await readRegularTextFile(resolve(cwd, path), limit, { ...links, strictUtf8: true });
  if (!read.ok) throw new InputFileError(role, shown, read.problem.reason);
  if (read.text.trim() === "") throw new InputFileError(role, shown, "the file is empty");
  return read.text;
}

/** An RFP or applicant file: at most 10 MiB of UTF-8 (no letter silently replaced). */
export function readInputFile(role: string, path: string, cwd: string, links: LinkPolicy = {}) {
  return readUserText(role, path, cwd, MAX_REVIEW_INPUT_BYTES, links);
}

/** The file an edit replaces a stage's content with: at most 1 MiB of UTF-8. */
export function readEditFile(role: string, path: string, cwd: string, links: LinkPolicy = {}) {
  return readUserText(role, path, cwd, REVIEW_LIMITS.editContentBytes, links);
}

/** The content types evalgate has guidance for, in the order of the proposal graph. */
export const KNOWN_CONTENT_TYPES: readonly string[] = Object.keys(CONTENT_TYPE_PROMPTS);

/**
 * The snake_case form of a known content type (or one of `extra`), else a CliError listing them
 * with the closest suggested: a typo must not give an empty report.
 */
export function checkedContentType(given: string, extra: readonly string[] = []): string {
  const normalised = normaliseContentType(given);
  const valid = [...new Set([...KNOWN_CONTENT_TYPES, ...extra])];
  if (valid.includes(normalised)) return normalised;
  const name = given.trim();
  if (extra.includes(name)) return name;
  let near: { name: string; distance: number } | undefined;
  for (const each of valid) {
    const measured = levenshteinSimilarity(name, each);
    const d = "distance" in measured ? measured.distance : Number.POSITIVE_INFINITY;
    if (near === undefined || d < near.distance) near = { name: each, distance: d };
  }
  const close =
    near !== undefined && near.distance <= Math.max(2, Math.floor(near.name.length / 3));
  const hint = close ? ` (did you mean ${near?.name}?)` : "";
  const shown = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
  const list = valid.length === 0 ? "there are none" : `use one of ${valid.join(", ")}`;
  throw new CliError(`unknown content type ${shown}${hint}: ${list}`);
}

export interface EvaluationInput {
  kind: "file" | "project";
  path: string;
  content: unknown;
  documents: SourceDocument[] | undefined;
}

function reasonOf(error: unknown): string {
  if (error instanceof Error && "code" in error && error.code === "ENOENT") {
    return "no such file or directory";
  }
  return error instanceof Error ? error.message : String(error);
}

/** A path given on the command line: absolute, and as messages show it. */
interface InputPath {
  absolute: string;
  shown: string;
}

async function statOf(role: string, path: InputPath): Promise<Stats> {
  try {
    return await stat(path.absolute);
  } catch (error) {
    throw new InputFileError(role, path.shown, reasonOf(error), { cause: error });
  }
}

async function documentsIn(role: string, dir: InputPath): Promise<SourceDocument[]> {
  const info = await statOf(role, dir);
  if (!info.isDirectory()) throw new InputFileError(role, dir.shown, "is not a folder");
  return loadDocuments(dir.absolute);
}

/** .json files as JSON data (a `__proto__` key refused with its line), anything else as text. */
async function contentOf(
  path: InputPath,
  budgetBytes: number,
  links: LinkPolicy,
): Promise<unknown> {
  const file = await readRegularTextFile(path.absolute, budgetBytes, {
    ...links,
    strictUtf8: true,
  });
  if (!file.ok) {
    throw new InputFileError("content file", path.shown, problemReason(file.problem, budgetBytes));
  }
  if (extname(path.absolute).toLowerCase() !== ".json") return file.text;
  const json = readUntrustedJson(file.text);
  if (json.ok) return json.value;
  const problem = describeJsonProblem(json.problem);
  const hint = json.problem.kind === "prototype" ? "" : "; rename it to .txt to judge it as text";
  throw new InputFileError("content file", path.shown, `is refused: ${problem}${hint}`);
}

export async function readEvaluationInput(
  inputPath: string,
  documentsDir: string | undefined,
  cwd: string,
  budgetBytes: number = contentBudgetBytes(),
  links: LinkPolicy = {},
): Promise<EvaluationInput> {
  const pathOf = (given: string): InputPath => {
    const absolute = resolve(cwd, given);
    return { absolute, shown: displayPath(absolute, cwd) };
  };
  const input = pathOf(inputPath);
  const info = await statOf("content", input);
  if (info.isDirectory()) {
    if (documentsDir !== undefined) {
      throw new CliError(
        `${input.shown} is a project folder, whose own documents are the evidence; --documents is only for a content file`,
      );
    }
    const documents = await loadDocuments(input.absolute);
    if (documents.length === 0) {
      throw emptyProject(basename(input.absolute), input.absolute);
    }
    return { kind: "project", path: input.absolute, content: "", documents };
  }
  const content = await contentOf(input, budgetBytes, links);
  const documents =
    documentsDir === undefined
      ? undefined
      : await documentsIn("--documents folder", pathOf(documentsDir));
  return { kind: "file", path: input.absolute, content, documents };
}
