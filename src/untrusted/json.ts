/**
 * JSON from outside, parsed by secure-json-parse (a `__proto__` key, or `constructor` holding
 * `prototype`, is an error), its nesting bounded before any parser sees it. A problem names its
 * line, column and JSON path and never quotes the text.
 */
import {
  findNodeAtLocation,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import secureJson from "secure-json-parse";
import {
  findPrototypeKey,
  formatJsonPath,
  type JsonPath,
  prototypeKeyReason,
} from "./prototypeKeys.js";

/** Far beyond any real document, far below a stack. */
const MAX_JSON_DEPTH = 256;

function firstTooDeep(text: string, maxDepth: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > maxDepth) return i;
    } else if (c === 125 || c === 93) depth--;
  }
  return undefined;
}

export interface JsonProblem {
  readonly kind: "syntax" | "depth" | "prototype" | "duplicate";
  /** What is wrong, without the location: "expected ',' between items". */
  readonly reason: string;
  readonly line?: number | undefined;
  readonly column?: number | undefined;
  readonly path?: JsonPath | undefined;
}

export interface JsonDocument {
  readonly ok: true;
  readonly value: unknown;
  lineOf(path: JsonPath): number | undefined;
}

export type JsonReading = JsonDocument | { readonly ok: false; readonly problem: JsonProblem };

const PARSE_OPTIONS = { protoAction: "error", constructorAction: "error" } as const;

/** What the parser expected, for the errors that name it (jsonc-parser's `…Expected` codes). */
const EXPECTED_TEXT: Readonly<Record<string, string>> = {
  PropertyNameExpected: "a property name in double quotes",
  ValueExpected:
    "a value (a string in double quotes, a number, true, false, null, an object or a list)",
  ColonExpected: "':' after the property name",
  CommaExpected: "',' between items",
  CloseBraceExpected: "'}' to close the object",
  CloseBracketExpected: "']' to close the list",
  EndOfFileExpected: "the end of the file after the top-level value",
};

/** The other errors, each as a whole sentence: what is wrong and how JSON writes it. */
const PROBLEM_TEXT: Readonly<Record<string, string>> = {
  InvalidNumberFormat:
    "a malformed number: JSON writes digits without a leading zero, a '+' or a trailing '.'",
  InvalidCommentToken: "a comment: JSON has none (remove it)",
  UnexpectedEndOfComment: "a comment that is never closed, and JSON has no comments",
  UnexpectedEndOfString: "a string that is never closed: expected its closing '\"'",
  UnexpectedEndOfNumber: "a number that stops short: expected its digits",
  InvalidUnicode: "a \\u escape without four hex digits after it",
  InvalidEscapeCharacter:
    "an unknown escape after '\\': JSON takes \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX",
  InvalidCharacter: "a tab or line break inside a string: write it as \\t or \\n",
};

/** What stands where a symbol JSON does not know was found, told by its first character. */
function foundSymbol(text: string, offset: number): string {
  const first = text[offset] ?? "";
  if (first === "'") return "a single-quoted text (JSON takes double quotes only)";
  if (/[A-Za-z_$]/.test(first)) {
    return "a word without double quotes (JSON quotes every name and text; its only bare words are true, false and null)";
  }
  return "a character JSON does not allow there";
}

/** The first error's reason; an unknown symbol is followed by what was expected there instead. */
function syntaxReason(text: string, errors: readonly ParseError[]): string {
  const [first, next] = errors;
  if (first === undefined) return "not parseable";
  const code = printParseErrorCode(first.error);
  const expected = EXPECTED_TEXT[code];
  if (expected !== undefined) return `expected ${expected}`;
  if (code === "InvalidSymbol") {
    const nextCode = next === undefined ? undefined : printParseErrorCode(next.error);
    const wanted =
      (nextCode === undefined ? undefined : EXPECTED_TEXT[nextCode]) ??
      EXPECTED_TEXT.EndOfFileExpected;
    return `expected ${wanted}, found ${foundSymbol(text, first.offset)}`;
  }
  return PROBLEM_TEXT[code] ?? code;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** LF, CRLF and a lone CR (old Mac files) each end a line. */
function lineAt(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const breaks = before.match(/\r\n|\r|\n/g)?.length ?? 0;
  const lineStart = Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r")) + 1;
  return { line: breaks + 1, column: offset - lineStart + 1 };
}

function strictTree(text: string, errors: ParseError[] = []): Node | undefined {
  return parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
}

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

function syntaxProblem(text: string): JsonProblem {
  const errors: ParseError[] = [];
  strictTree(text, errors);
  const at = errors[0] === undefined ? {} : lineAt(text, errors[0].offset);
  return { kind: "syntax", reason: syntaxReason(text, errors), ...at };
}

function prototypeProblem(text: string): JsonProblem {
  const value: unknown = JSON.parse(text);
  const found = findPrototypeKey(value);
  if (found === undefined) return { kind: "prototype", reason: "a forbidden prototype key" };
  const line = lineOfPath(text, strictTree(text), found.path);
  return { kind: "prototype", reason: prototypeKeyReason(found), line, path: found.path };
}

/** A key an object gives twice (JSON.parse would keep the last and drop the first), with its line. */
function duplicateKeyProblem(text: string, tree: Node | undefined): JsonProblem | undefined {
  const stack: Array<{ node: Node; path: JsonPath }> = [];
  if (tree !== undefined) stack.push({ node: tree, path: [] });
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    const seen = new Set<string>();
    for (const [index, child] of (node.children ?? []).entries()) {
      if (node.type === "array") stack.push({ node: child, path: [...path, index] });
      const [name, value] = child.children ?? [];
      if (node.type !== "object" || name === undefined || value === undefined) continue;
      const key = String(name.value);
      if (seen.has(key)) {
        return {
          kind: "duplicate",
          reason: `the key ${JSON.stringify(key)} is given twice in one object: say it once`,
          ...lineAt(text, child.offset),
          path: [...path, key],
        };
      }
      seen.add(key);
      stack.push({ node: value, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * Parses JSON text from outside (strict: no comments, no trailing commas; a leading BOM ignored).
 * Refuses, with the place, a syntax error, nesting deeper than `maxDepth` and a prototype key;
 * with `refuseDuplicateKeys`, a key an object gives twice (a catalog's `"critical": true` hidden
 * by a later `"critical": false`).
 */
export function readUntrustedJson(
  input: string,
  options: { maxDepth?: number; refuseDuplicateKeys?: boolean } = {},
): JsonReading {
  const text = withoutBom(input);
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const deep = firstTooDeep(text, maxDepth);
  if (deep !== undefined) {
    return {
      ok: false,
      problem: {
        kind: "depth",
        reason: `nested more than ${maxDepth} levels deep (objects and lists)`,
        ...lineAt(text, deep),
      },
    };
  }
  let value: unknown;
  try {
    value = secureJson.parse(text, null, PARSE_OPTIONS);
  } catch {
    try {
      JSON.parse(text);
    } catch {
      return { ok: false, problem: syntaxProblem(text) };
    }
    return { ok: false, problem: prototypeProblem(text) };
  }
  let tree: Node | undefined | null = null;
  if (options.refuseDuplicateKeys === true) {
    tree = strictTree(text);
    const duplicate = duplicateKeyProblem(text, tree);
    if (duplicate !== undefined) return { ok: false, problem: duplicate };
  }
  return {
    ok: true,
    value,
    lineOf(path) {
      if (tree === null) tree = strictTree(text);
      return lineOfPath(text, tree, path);
    },
  };
}

export function jsonProblemText(problem: JsonProblem): string {
  return problem.kind === "prototype" || problem.kind === "duplicate"
    ? problem.reason
    : `invalid JSON: ${problem.reason}`;
}

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

export function parseUntrustedJson(
  text: string,
  refuse: (problem: JsonProblem, description: string) => Error,
): unknown {
  const read = readUntrustedJson(text);
  if (!read.ok) throw refuse(read.problem, describeJsonProblem(read.problem));
  return read.value;
}
