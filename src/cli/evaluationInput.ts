/**
 * What `evaluate` judges: a FILE is the content; a DIRECTORY is a project whose documents are the
 * evidence.
 */

import type { Stats } from "node:fs";
import { stat } from "node:fs/promises";
import { basename, extname, resolve } from "node:path";
import { loadDocuments } from "../context/load.js";
import type { SourceDocument } from "../context/types.js";
import { contentBudgetBytes } from "../engine/contentBudget.js";
import { emptyProject } from "../engine/errors.js";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";
import type { LinkPolicy } from "../untrusted/regularFile.js";
import { readContentText } from "./contentFile.js";
import { displayPath } from "./displayPath.js";
import { CliError, InputFileError } from "./errors.js";

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
  const text = await readContentText(path, budgetBytes, links);
  if (extname(path.absolute).toLowerCase() !== ".json") return text;
  const read = readUntrustedJson(text);
  if (read.ok) return read.value;
  const problem = describeJsonProblem(read.problem);
  const hint = read.problem.kind === "prototype" ? "" : "; rename it to .txt to judge it as text";
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
