import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { errorMessageOf } from "../pointFunctions/contract.js";
import { readRegularTextFile } from "../untrusted/regularFile.js";
import { documentsUnreadable } from "./errors.js";
import type { SourceDocument } from "./types.js";

export const DOCUMENT_EXTENSIONS: ReadonlySet<string> = new Set([".md", ".txt", ".json"]);

/** The largest document read. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** The most documents one folder (with its subfolders) may hold. */
export const MAX_DOCUMENT_FILES = 5_000;
/** The most bytes all documents of one folder may hold together. */
export const MAX_DOCUMENTS_TOTAL_BYTES = 64 * 1024 * 1024;

/**
 * The document files under `dir`: regular files with a document extension, in subfolders too.
 * Anything else is skipped: FIFOs, sockets and devices (reading them would block or never end),
 * and symbolic links (a link could lead out of the folder).
 */
async function listFiles(dir: string, found: string[] = []): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    throw documentsUnreadable(dir, errorMessageOf(error));
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await listFiles(path, found);
    else if (entry.isFile() && DOCUMENT_EXTENSIONS.has(extname(entry.name).toLowerCase())) {
      found.push(path);
      if (found.length > MAX_DOCUMENT_FILES) {
        throw documentsUnreadable(dir, `more than ${MAX_DOCUMENT_FILES} documents`);
      }
    }
  }
  return found;
}

/**
 * Reads the .md, .txt and .json files of a folder and its subfolders, sorted by path. Each
 * document is named by its path relative to the folder, with "/" separators. Only regular files
 * are read (FIFOs, sockets, devices and symbolic links in the folder are skipped; a file that
 * turns into one before it is opened is refused), each at most MAX_DOCUMENT_BYTES, at most
 * MAX_DOCUMENT_FILES of them and MAX_DOCUMENTS_TOTAL_BYTES in all.
 */
export async function loadDocuments(dir: string): Promise<SourceDocument[]> {
  const root = dir;
  const files = (await listFiles(root))
    .map((path) => ({ path, name: relative(root, path).split(sep).join("/") }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const docs: SourceDocument[] = [];
  let total = 0;
  for (const { path, name } of files) {
    const read = await readRegularTextFile(path, MAX_DOCUMENT_BYTES);
    if (!read.ok) throw documentsUnreadable(path, `the document ${read.problem.reason}`);
    total += Buffer.byteLength(read.text, "utf8");
    if (total > MAX_DOCUMENTS_TOTAL_BYTES) {
      throw documentsUnreadable(
        root,
        `the documents hold more than ${MAX_DOCUMENTS_TOTAL_BYTES.toLocaleString("en-US")} bytes in all`,
      );
    }
    docs.push({ name, text: read.text });
  }
  return docs;
}
