import { basename, dirname, extname } from "node:path";
import { withoutBom } from "../untrusted/json.js";
import { type LinkPolicy, readRegularTextFile } from "../untrusted/regularFile.js";
import { CatalogError, catalogNotFound } from "./errors.js";
import type { FunctionAllowance } from "./functionRefs.js";
import type { Catalog } from "./model.js";
import { type CatalogFormat, type ParseCatalogOptions, parseLocatedCatalog } from "./parse.js";
import { checkCatalogReferences } from "./references.js";

export const MAX_CATALOG_FILE_BYTES = 2 * 1024 * 1024;

export interface LoadCatalogOptions {
  /** Functions the application allows beyond built-ins and the catalog's folder. */
  functions?: FunctionAllowance;
  onFindings?: ParseCatalogOptions["onFindings"];
  /** Read through a symbolic link (default: refused). Never into /proc, /sys, /dev. */
  followSymlinks?: boolean;
}

/** By extension, else by the first character (`{` means JSON). */
export function catalogFormatOf(path: string, text: string): CatalogFormat {
  const ext = extname(path).toLowerCase();
  if (ext === ".json") return "json";
  if (ext === ".toon") return "toon";
  return text.trimStart().startsWith("{") ? "json" : "toon";
}

/** A regular file only (never a FIFO or device: checked before opening). */
async function readCatalogText(path: string, links: LinkPolicy): Promise<string> {
  const read = await readRegularTextFile(path, MAX_CATALOG_FILE_BYTES, links);
  if (read.ok) return read.text;
  const { kind, reason, fileType } = read.problem;
  if (kind === "missing") throw catalogNotFound(path);
  if (fileType === "a directory") {
    throw new CatalogError("expected a catalog file, found a directory", { source: path });
  }
  throw new CatalogError(`the catalog file ${reason}`, { source: path });
}

/**
 * Reads a catalog file in any supported form: a missing file is CATALOG_NOT_FOUND, an invalid one
 * a CatalogError naming the line or path — never a silent fallback.
 *
 * @example
 * const catalog = await loadCatalog("data/criteria/ifb_profi.toon");
 */
export async function loadCatalog(
  path: string,
  options: LoadCatalogOptions = {},
): Promise<Catalog> {
  if ([".yaml", ".yml"].includes(extname(path).toLowerCase())) {
    throw new CatalogError("YAML is not read: write the catalog as TOON or JSON", { source: path });
  }
  const text = await readCatalogText(path, { followSymlinks: options.followSymlinks === true });
  const fallbackId = basename(path, extname(path));
  const format = catalogFormatOf(path, withoutBom(text));
  const { catalog, locate } = parseLocatedCatalog(text, {
    format,
    source: path,
    fallbackId,
    onFindings: options.onFindings,
  });
  const [problem, ...more] = await checkCatalogReferences(
    catalog,
    dirname(path),
    options.functions,
  );
  if (problem !== undefined) {
    const others = more.length === 0 ? "" : ` (and ${more.length} more)`;
    throw new CatalogError(`${problem.message}${others}`, {
      source: path,
      ...locate(problem.path),
    });
  }
  return catalog;
}
