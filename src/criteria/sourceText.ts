import { decodeToonWithLines } from "../toon/decode.js";
import { isToonError } from "../toon/errors.js";
import { jsonProblemText, readUntrustedJson, withoutBom } from "../untrusted/json.js";
import { CatalogError, type CatalogPath } from "./errors.js";

export interface LocatedValue {
  value: unknown;
  lineOf(path: CatalogPath): number | undefined;
}

export const CATALOG_STRING_FIELDS = ["id", "version", "name", "program", "title"] as const;

/** Values a catalog carries as they are: JSON Schemas, function args, free-form metadata. */
const CATALOG_DATA_FIELDS = [
  "schema",
  "decodeOutputSchema",
  "decode_output_schema",
  "args",
  "fnArgs",
  "metadata",
];

/** Strict JSON, prototype poisoning, too-deep nesting and a key given twice refused with the line. */
export function readJson(input: string, source: string): LocatedValue {
  const text = withoutBom(input);
  if (text.trim() === "") {
    throw new CatalogError("expected a JSON object, found an empty file", { source, line: 1 });
  }
  const read = readUntrustedJson(text, { refuseDuplicateKeys: true });
  if (!read.ok) {
    const { line, column, path } = read.problem;
    throw new CatalogError(jsonProblemText(read.problem), { source, line, column, path });
  }
  return { value: read.value, lineOf: (path) => read.lineOf(path) };
}

/** TOON (spec v4 or the criteria dialect); `__proto__` keys refused as in JSON. */
export function readToon(input: string, source: string): LocatedValue {
  const text = withoutBom(input);
  if (text.trim() === "") {
    throw new CatalogError("expected a TOON catalog, found an empty file", { source, line: 1 });
  }
  try {
    const located = decodeToonWithLines(text, {
      source,
      stringFields: CATALOG_STRING_FIELDS,
      dataFields: CATALOG_DATA_FIELDS,
      refusePrototypeKeys: true,
    });
    return { value: located.value, lineOf: (path) => located.lineOf([...path]) };
  } catch (error) {
    if (isToonError(error)) {
      throw new CatalogError(
        `invalid TOON: ${error.reason}`,
        { source, line: error.line },
        { cause: error },
      );
    }
    throw error;
  }
}
