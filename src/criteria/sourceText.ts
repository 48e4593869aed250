import {
  findNodeAtLocation,
  type ParseError,
  parse,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { isToonError } from "../toon/errors.js";
import { decodeToonWithLines } from "../toon/index.js";
import { CatalogError, type CatalogPath } from "./errors.js";
import { firstTooDeep, MAX_JSON_DEPTH } from "./jsonDepth.js";

/** A decoded catalog text and a way back from a path in it to the line it came from. */
export interface LocatedValue {
  value: unknown;
  lineOf(path: CatalogPath): number | undefined;
}

/** Scalar fields that stay strings even when they look like numbers (`version: 1.0`). */
export const CATALOG_STRING_FIELDS = ["id", "version", "name", "program", "title"] as const;

function lineAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const JSON_ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: "an unexpected character",
  InvalidNumberFormat: "a malformed number",
  PropertyNameExpected: "a property name in double quotes",
  ValueExpected: "a value",
  ColonExpected: "':' after the property name",
  CommaExpected: "',' between items",
  CloseBraceExpected: "'}' to close the object",
  CloseBracketExpected: "']' to close the array",
  EndOfFileExpected: "the end of the file after the top-level value",
  InvalidCommentToken: "no comment (comments are not JSON)",
  UnexpectedEndOfComment: "the end of the comment",
  UnexpectedEndOfString: "the closing '\"' of the string",
  UnexpectedEndOfNumber: "the rest of the number",
  InvalidUnicode: "a valid \\u escape",
  InvalidEscapeCharacter: "a valid escape sequence",
  InvalidCharacter: "a valid character in the string",
};

/** The text without a leading UTF-8 byte-order mark (editors on Windows write one). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parses strict JSON, reporting the first syntax error with its line and column. A leading BOM is
 * ignored; nesting deeper than MAX_JSON_DEPTH is refused with its line before parsing.
 */
export function readJson(input: string, source: string): LocatedValue {
  const text = withoutBom(input);
  const deep = firstTooDeep(text);
  if (deep !== undefined) {
    throw new CatalogError(
      `invalid JSON: nested more than ${MAX_JSON_DEPTH} levels deep (objects and lists)`,
      { source, ...lineAt(text, deep.offset) },
    );
  }
  if (text.trim() === "") {
    throw new CatalogError("expected a JSON object, found an empty file", { source, line: 1 });
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    disallowComments: true,
    allowTrailingComma: false,
  });
  const first = errors[0];
  if (first !== undefined) {
    const code = printParseErrorCode(first.error);
    const { line, column } = lineAt(text, first.offset);
    throw new CatalogError(`invalid JSON: expected ${JSON_ERROR_TEXT[code] ?? code}`, {
      source,
      line,
      column,
    });
  }
  const tree = parseTree(text);
  return {
    value,
    lineOf(path) {
      if (tree === undefined) return undefined;
      for (let depth = path.length; depth >= 0; depth--) {
        const node = findNodeAtLocation(tree, [...path.slice(0, depth)]);
        if (node !== undefined) {
          const at = node.parent?.type === "property" ? node.parent.offset : node.offset;
          return lineAt(text, at).line;
        }
      }
      return undefined;
    },
  };
}

/** Decodes TOON (spec v4 or the seed dialect), with line numbers for paths. */
export function readToon(input: string, source: string): LocatedValue {
  const text = withoutBom(input);
  if (text.trim() === "") {
    throw new CatalogError("expected a TOON catalog, found an empty file", { source, line: 1 });
  }
  try {
    const located = decodeToonWithLines(text, { source, stringFields: CATALOG_STRING_FIELDS });
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
