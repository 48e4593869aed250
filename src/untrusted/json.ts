/**
 * JSON from outside (catalogs, rubrics, blueprints, schemas, content, configs, stored rows), parsed
 * with prototype-poisoning protection: secure-json-parse refuses a `__proto__` key anywhere and a
 * `constructor` key holding a `prototype` (`protoAction` and `constructorAction` both 'error'), so
 * no document can give an object hidden fields through its prototype. Nesting is bounded before
 * any parser sees the text. A problem is reported with its line, column and JSON path, and never
 * quotes the text (the file may hold anything).
 */
import {
  findNodeAtLocation,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import secureJson from "secure-json-parse";
import { firstTooDeep, MAX_JSON_DEPTH } from "./jsonDepth.js";
import { formatJsonPath, type JsonPath } from "./jsonPath.js";
import { findPrototypeKey, prototypeKeyReason } from "./prototypeKeys.js";

export { MAX_JSON_DEPTH } from "./jsonDepth.js";
export { formatJsonPath, type JsonPath } from "./jsonPath.js";
export { findPrototypeKey, prototypeKeyReason } from "./prototypeKeys.js";

/** Why a JSON text was refused, and where. */
export interface JsonProblem {
  /** A syntax error, nesting beyond the limit, or a key that could reach a prototype. */
  readonly kind: "syntax" | "depth" | "prototype";
  /**
   * What is wrong, without the location: "expected ',' between items", "nested more than 256
   * levels deep (objects and lists)", 'the key "__proto__" is not allowed (…)'.
   */
  readonly reason: string;
  /** 1-based line and column of the problem in the text (BOM removed), when known. */
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  /** The JSON path of the refused key (`["criteria", 0, "__proto__"]`), for a prototype key. */
  readonly path?: JsonPath | undefined;
}

/** A parsed document, and where in its text a path of it is written. */
export interface JsonDocument {
  readonly ok: true;
  readonly value: unknown;
  /** The 1-based line of the value at `path`, else of its nearest existing ancestor. */
  lineOf(path: JsonPath): number | undefined;
}

export type JsonReading = JsonDocument | { readonly ok: false; readonly problem: JsonProblem };

const PARSE_OPTIONS = { protoAction: "error", constructorAction: "error" } as const;

const JSON_ERROR_TEXT: Readonly<Record<string, string>> = {
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

/** The 1-based line and column of a character offset. */
export function lineAt(text: string, offset: number): { line: number; column: number } {
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

function strictTree(text: string, errors: ParseError[] = []): Node | undefined {
  return parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
}

/** Where a path is written: the property holding it (its key's line), else the value. */
function lineOfPath(text: string, tree: Node | undefined, path: JsonPath): number | undefined {
  if (tree === undefined) return undefined;
  for (let depth = path.length; depth >= 0; depth--) {
    const node = findNodeAtLocation(tree, [...path.slice(0, depth)]);
    if (node !== undefined) {
      const at = node.parent?.type === "property" ? node.parent.offset : node.offset;
      return lineAt(text, at).line;
    }
  }
  return undefined;
}

/** The first syntax error, located by jsonc-parser's scanner (which never quotes the text). */
function syntaxProblem(text: string, error: unknown): JsonProblem {
  const errors: ParseError[] = [];
  strictTree(text, errors);
  const first = errors[0];
  if (first !== undefined) {
    const code = printParseErrorCode(first.error);
    return {
      kind: "syntax",
      reason: `expected ${JSON_ERROR_TEXT[code] ?? code}`,
      ...lineAt(text, first.offset),
    };
  }
  // The scanner found nothing the built-in parser refused: report the position it names.
  const message = error instanceof Error ? error.message : "";
  const position = /position (\d+)/.exec(message)?.[1];
  return {
    kind: "syntax",
    reason: "not parseable",
    ...(position === undefined ? {} : lineAt(text, Number(position))),
  };
}

function prototypeProblem(text: string): JsonProblem {
  const value: unknown = JSON.parse(text);
  const found = findPrototypeKey(value);
  if (found === undefined) return { kind: "prototype", reason: "a forbidden prototype key" };
  const line = lineOfPath(text, strictTree(text), found.path);
  return { kind: "prototype", reason: prototypeKeyReason(found), line, path: found.path };
}

/**
 * Parses JSON text from outside. Refuses, with the place: a syntax error (strict JSON: no
 * comments, no trailing commas), nesting deeper than `maxDepth` (default MAX_JSON_DEPTH), and a
 * key that could reach a prototype (`__proto__`, or `constructor` holding `prototype`, written
 * plainly or with `\u` escapes). A leading BOM is ignored.
 *
 * @example
 * const read = readUntrustedJson(text);
 * if (!read.ok) throw new Error(`${file}:${read.problem.line}: ${read.problem.reason}`);
 */
export function readUntrustedJson(input: string, options: { maxDepth?: number } = {}): JsonReading {
  const text = withoutBom(input);
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const deep = firstTooDeep(text, maxDepth);
  if (deep !== undefined) {
    return {
      ok: false,
      problem: {
        kind: "depth",
        reason: `nested more than ${maxDepth} levels deep (objects and lists)`,
        ...lineAt(text, deep.offset),
      },
    };
  }
  let value: unknown;
  try {
    value = secureJson.parse(text, null, PARSE_OPTIONS);
  } catch {
    try {
      JSON.parse(text);
    } catch (syntaxError) {
      return { ok: false, problem: syntaxProblem(text, syntaxError) };
    }
    return { ok: false, problem: prototypeProblem(text) };
  }
  let tree: Node | undefined | null = null;
  return {
    ok: true,
    value,
    lineOf(path) {
      if (tree === null) tree = strictTree(text);
      return lineOfPath(text, tree, path);
    },
  };
}

/**
 * What is wrong, without the location: "invalid JSON: expected ',' between items", or the
 * prototype key's reason.
 */
export function jsonProblemText(problem: JsonProblem): string {
  return problem.kind === "prototype" ? problem.reason : `invalid JSON: ${problem.reason}`;
}

/**
 * A problem as one line, location first: `line 3, column 5: invalid JSON: expected a value`,
 * `line 6 ($.criteria[1].__proto__): the key "__proto__" is not allowed (…)`.
 */
export function describeJsonProblem(problem: JsonProblem): string {
  const parts: string[] = [];
  if (problem.line !== undefined) {
    parts.push(
      problem.column === undefined
        ? `line ${problem.line}`
        : `line ${problem.line}, column ${problem.column}`,
    );
  }
  if (problem.path !== undefined) parts.push(`(${formatJsonPath(problem.path)})`);
  const text = jsonProblemText(problem);
  return parts.length === 0 ? text : `${parts.join(" ")}: ${text}`;
}

/**
 * Parses JSON text from outside, throwing what `refuse` makes of the problem (the caller's own
 * error, naming its file). For callers that need no line lookup.
 */
export function parseUntrustedJson(
  text: string,
  refuse: (problem: JsonProblem, description: string) => Error,
): unknown {
  const read = readUntrustedJson(text);
  if (!read.ok) throw refuse(read.problem, describeJsonProblem(read.problem));
  return read.value;
}
