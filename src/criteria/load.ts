import { readFile } from "node:fs/promises";
import { basename, dirname, extname } from "node:path";
import { CatalogError, CatalogNotFoundError } from "./errors.js";
import type { FunctionAllowance } from "./functionRefs.js";
import type { Catalog } from "./model.js";
import { type CatalogFormat, type ParseCatalogOptions, parseLocatedCatalog } from "./parse.js";
import { checkCatalogReferences } from "./references.js";
import { withoutBom } from "./sourceText.js";

export interface LoadCatalogOptions {
  /**
   * Functions the application allows beyond the catalog's folder (a FunctionRegistry: its
   * registered functions and the package functions it allows by name). Without it, a function
   * criterion may name only built-in point functions and modules inside the catalog's folder.
   */
  functions?: FunctionAllowance;
  /** Receives the meta-rubric's findings on the catalog as written (`catalog validate` lists them). */
  onFindings?: ParseCatalogOptions["onFindings"];
}

/** `.json` → JSON, `.toon` → TOON; anything else by its first character (`{` means JSON). */
export function catalogFormatOf(path: string, text: string): CatalogFormat {
  const ext = extname(path).toLowerCase();
  if (ext === ".json") return "json";
  if (ext === ".toon") return "toon";
  return text.trimStart().startsWith("{") ? "json" : "toon";
}

function isErrnoCode(error: unknown, code: string): boolean {
  return error instanceof Error && "code" in error && error.code === code;
}

/**
 * Reads a catalog file in any supported form (by extension, then by shape) and returns the
 * normalised, validated `Catalog`. Every file it names stays inside its folder, and its function
 * criteria name only built-in, folder-local or application-allowed functions. A missing file is a `CatalogNotFoundError`; a file that exists
 * but is invalid is a `CatalogError` naming the line or path — never a silent fallback.
 *
 * @example
 * const catalog = await loadCatalog("data/criteria/ifb_profi.toon");
 * console.log(catalog.name, catalog.criteria.map((c) => c.id), catalog.warnings);
 */
export async function loadCatalog(
  path: string,
  options: LoadCatalogOptions = {},
): Promise<Catalog> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isErrnoCode(error, "ENOENT")) throw new CatalogNotFoundError(path, { cause: error });
    if (isErrnoCode(error, "EISDIR")) {
      throw new CatalogError("expected a catalog file, found a directory", { source: path });
    }
    throw new CatalogError(
      `cannot read the catalog file: ${String(error)}`,
      { source: path },
      {
        cause: error,
      },
    );
  }
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
