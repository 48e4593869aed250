import { EvalgateError, errorGuard } from "../errors.js";
import { formatJsonPath } from "../untrusted/prototypeKeys.js";

export type CatalogPath = ReadonlyArray<string | number>;

export interface CatalogErrorLocation {
  /** "<input>" when none was given. */
  source: string;
  /** 1-based (TOON always, JSON when it can be found). */
  line?: number;
  column?: number;
  path?: CatalogPath;
}

/** `$.criteria[2].weight`. */
export function formatCatalogPath(path: CatalogPath): string {
  return formatJsonPath(path);
}

const CATALOG_ERROR_CODES = ["CATALOG_INVALID", "CATALOG_NOT_FOUND"] as const;
export type CatalogErrorCode = (typeof CATALOG_ERROR_CODES)[number];

/**
 * A catalog that cannot be used (`CATALOG_INVALID`), or a file that does not exist
 * (`CATALOG_NOT_FOUND`: the only case where a caller may fall back to defaults).
 */
export class CatalogError extends EvalgateError<CatalogErrorCode> {
  readonly source: string;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly path: CatalogPath | undefined;
  readonly detail: string;

  constructor(
    detail: string,
    location: CatalogErrorLocation,
    options: { cause?: unknown; code?: CatalogErrorCode } = {},
  ) {
    const code = options.code ?? "CATALOG_INVALID";
    super(code, CatalogError.format(detail, location), options);
    this.source = location.source;
    this.line = location.line;
    this.column = location.column;
    this.path = location.path;
    this.detail = detail;
  }

  /** `criteria.toon:7 ($.criteria[1].weight): expected a number ≥ 0, got "-1"`. */
  static format(detail: string, location: CatalogErrorLocation): string {
    let where = location.source;
    if (location.line !== undefined) {
      where += `:${location.line}`;
      if (location.column !== undefined) where += `:${location.column}`;
    }
    if (location.path !== undefined && location.path.length > 0) {
      where += ` (${formatCatalogPath(location.path)})`;
    }
    return `${where}: ${detail}`;
  }
}

export function catalogNotFound(path: string, options: { cause?: unknown } = {}): CatalogError {
  return new CatalogError(
    "catalog file not found",
    { source: path },
    {
      ...options,
      code: "CATALOG_NOT_FOUND",
    },
  );
}

export const isCatalogError = errorGuard<CatalogError>(...CATALOG_ERROR_CODES);
export const isCatalogNotFoundError = errorGuard<CatalogError>("CATALOG_NOT_FOUND");
