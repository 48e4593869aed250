import { decodeToonWithLines } from "../toon/decode.js";
import { isToonError } from "../toon/errors.js";
import { jsonProblemText, readUntrustedJson, withoutBom } from "../untrusted/json.js";
import { CatalogError, type CatalogPath } from "./errors.js";

export { withoutBom } from "../untrusted/json.js";

/** A decoded catalog text and a way back from a path in it to the line it came from. */
export interface LocatedValue {
  value: unknown;
  lineOf(path: CatalogPath): number | undefined;
}

/** Scalar fields that stay strings even when they look like numbers (`version: 1.0`). */
export const CATALOG_STRING_FIELDS = ["id", "version", "name", "program", "title"] as const;

/**
 * Parses strict JSON with prototype-poisoning protection (readUntrustedJson): a syntax error,
 * nesting deeper than MAX_JSON_DEPTH, or a `__proto__` key (or `constructor.prototype`) anywhere
 * is a CatalogError with its line (and column or path). A leading BOM is ignored.
 */
export function readJson(input: string, source: string): LocatedValue {
  const text = withoutBom(input);
  if (text.trim() === "") {
    throw new CatalogError("expected a JSON object, found an empty file", { source, line: 1 });
  }
  const read = readUntrustedJson(text);
  if (!read.ok) {
    const { line, column, path } = read.problem;
    throw new CatalogError(jsonProblemText(read.problem), { source, line, column, path });
  }
  return { value: read.value, lineOf: (path) => read.lineOf(path) };
}

/**
 * Decodes TOON (spec v4 or the criteria dialect), with line numbers for paths; a `__proto__` key
 * (or `constructor.prototype`) anywhere is refused like in JSON.
 */
export function readToon(input: string, source: string): LocatedValue {
  const text = withoutBom(input);
  if (text.trim() === "") {
    throw new CatalogError("expected a TOON catalog, found an empty file", { source, line: 1 });
  }
  try {
    const located = decodeToonWithLines(text, {
      source,
      stringFields: CATALOG_STRING_FIELDS,
      refusePrototypeKeys: true,
    });
    return { value: located.value, lineOf: (path) => located.lineOf([...path]) };
  } catch (error) {
    if (isToonError(error)) {
      throw new CatalogError(
        `invalid TOON: ${error.reason}`,
        { source, line: error.line },
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}
