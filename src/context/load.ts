import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { errorMessageOf } from "../pointFunctions/contract.js";
import { readRegularTextFile } from "../untrusted/regularFile.js";
import { documentsUnreadable } from "./errors.js";
import type { SourceDocument } from "./types.js";

const DOCUMENT_EXTENSIONS: ReadonlySet<string> = new Set([".md", ".txt", ".json"]);

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Per folder, subfolders included. */
const MAX_DOCUMENT_FILES = 5_000;
const MAX_DOCUMENTS_TOTAL_BYTES = 64 * 1024 * 1024;

/** Regular files only: FIFOs, sockets and devices would block; symbolic links could lead out. */
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

/** The .md, .txt and .json files of a folder and its subfolders, sorted, each and all bounded. */
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
