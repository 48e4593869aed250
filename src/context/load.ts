import type { Dirent } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { DocumentLoadError } from "./errors.js";
import type { SourceDocument } from "./types.js";

export const DOCUMENT_EXTENSIONS: ReadonlySet<string> = new Set([".md", ".txt", ".json"]);

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function listFiles(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw new DocumentLoadError(dir, errorText(error));
  }
  const files: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(path)));
    else if (entry.isFile() && DOCUMENT_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
      files.push(path);
    }
  }
  return files;
}

/**
 * Reads the .md, .txt and .json files of a folder and its subfolders, sorted by path. Each
 * document is named by its path relative to the folder, with "/" separators.
 */
export async function loadDocuments(dir: string): Promise<SourceDocument[]> {
  const root = dir;
  const files = (await listFiles(root))
    .map((path) => ({ path, name: relative(root, path).split(sep).join("/") }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const docs: SourceDocument[] = [];
  for (const { path, name } of files) {
    try {
      docs.push({ name, text: await readFile(path, "utf8") });
    } catch (error) {
      throw new DocumentLoadError(path, errorText(error));
    }
  }
  return docs;
}
