/** JSON from outside: refused syntax, depth and prototype keys, with their place, never quoting the text. */
import { describe, expect, it } from "vitest";
import {
  describeJsonProblem,
  type JsonProblem,
  readUntrustedJson,
} from "../../src/untrusted/json.js";
import { findPrototypeKey, formatJsonPath } from "../../src/untrusted/prototypeKeys.js";

function problemOf(text: string): JsonProblem {
  const read = readUntrustedJson(text);
  if (read.ok) throw new Error(`expected a refusal, got ${JSON.stringify(read.value)}`);
  return read.problem;
}

describe("readUntrustedJson", () => {
  it("reads ordinary JSON, with the line of any path", () => {
    const read = readUntrustedJson(
      '{\n  "grant": {\n    "amount": 125000,\n    "tags": ["a", "b"]\n  }\n}',
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value).toEqual({ grant: { amount: 125000, tags: ["a", "b"] } });
    expect(Object.getPrototypeOf(read.value)).toBe(Object.prototype);
    expect(read.lineOf(["grant", "amount"])).toBe(3);
    expect(read.lineOf(["grant", "tags", 1])).toBe(4);
    // a path that does not exist: its nearest ancestor
    expect(read.lineOf(["grant", "missing"])).toBe(2);
  });

  it.each([
    ['{"panel": {"__proto__": {"isAdmin": true}}}', ["panel", "__proto__"]],
    ['[{"ok": 1}, {"__proto__": null}]', [1, "__proto__"]],
    ['{"__proto__": 7}', ["__proto__"]],
    // escaped spellings decode to the same key
    ['{"a": {"\\u005f_proto__": {"x": 1}}}', ["a", "__proto__"]],
    ['{"a": {"\\u005F\\u005Fproto\\u005f\\u005F": {"x": 1}}}', ["a", "__proto__"]],
    ['{"\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f": {}}', ["__proto__"]],
    [
      '{"deep": [[{"constructor": {"prototype": {"polluted": 1}}}]]}',
      ["deep", 0, 0, "constructor", "prototype"],
    ],
    ['{"\\u0063onstructor": {"prototype": 1}}', ["constructor", "prototype"]],
  ] as const)("refuses %s at its path", (text, path) => {
    const problem = problemOf(text);
    expect(problem.path).toEqual(path);
    expect(problem.line).toBe(1);
    expect(problem.kind).toBe("prototype");
    expect(problem.reason).toMatch(/not allowed/);
    // nothing was polluted on the way
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("names the line of a prototype key deep in a document", () => {
    const text = [
      "{",
      '  "criteria": [',
      '    { "id": "impact", "weight": 1 },',
      '    { "id": "budget",',
      '      "weight": 1,',
      '      "__proto__": { "critical": true } }',
      "  ]",
      "}",
    ].join("\n");
    const problem = problemOf(text);
    expect(problem.line).toBe(6);
    expect(problem.path).toEqual(["criteria", 1, "__proto__"]);
    expect(describeJsonProblem(problem)).toBe(
      'line 6 ($.criteria[1].__proto__): the key "__proto__" is not allowed (it would set the prototype of an object)',
    );
  });

  it("allows `constructor` and `prototype` keys that cannot reach a prototype", () => {
    const read = readUntrustedJson(
      '{"constructor": "a builder", "prototype": {"stage": 2}, "levels": {"constructor": 1}}',
    );
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const value = read.value as { prototype: { stage: number }; levels: object };
    expect(value.prototype.stage).toBe(2);
    expect(Object.getPrototypeOf(value.levels)).toBe(Object.prototype);
  });

  const VALUE =
    "a value (a string in double quotes, a number, true, false, null, an object or a list)";
  const BARE =
    "a word without double quotes (JSON quotes every name and text; its only bare words are true, false and null)";
  const SINGLE = "a single-quoted text (JSON takes double quotes only)";

  it.each([
    ['{"a": 1,}', 1, 9, "expected a property name in double quotes"],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, "expected ',' between items"],
    ["[1, 2", 1, 6, "expected ']' to close the list"],
    ['// note\n{"a": 1}', 1, 1, "a comment: JSON has none (remove it)"],
    ["", 1, 1, `expected ${VALUE}`],
    // What the parser expected there, and what it found instead (never the text itself).
    [
      '{\n  "id": "x",\n  name: "y"\n}',
      3,
      3,
      `expected a property name in double quotes, found ${BARE}`,
    ],
    ["{'id': 1}", 1, 2, `expected a property name in double quotes, found ${SINGLE}`],
    ['{"a": tru}', 1, 7, `expected ${VALUE}, found ${BARE}`],
    ['{"a": #}', 1, 7, `expected ${VALUE}, found a character JSON does not allow there`],
    ['{"a": 1} x', 1, 10, `expected the end of the file after the top-level value, found ${BARE}`],
    ['{"a": 1.}', 1, 7, "a number that stops short: expected its digits"],
    ['{"a": "x\ty"}', 1, 7, "a tab or line break inside a string: write it as \\t or \\n"],
  ] as const)("a syntax error in %j is located at %i:%i", (text, line, column, expected) => {
    const problem = problemOf(text);
    expect(problem).toMatchObject({ line, column });
    expect(problem.kind).toBe("syntax");
    expect(describeJsonProblem(problem)).toBe(
      `line ${line}, column ${column}: invalid JSON: ${expected}`,
    );
  });

  it("never quotes the text in a problem (a file may hold secrets)", () => {
    const secret = "sk-live-7f3a9c2e";
    for (const text of [
      `{"token": "${secret}" "x": 1}`,
      `{"token": "${secret}", "__proto__": {}}`,
      `${secret}`,
    ]) {
      const problem = problemOf(text);
      expect(describeJsonProblem(problem)).not.toContain(secret);
    }
  });

  it("refuses nesting deeper than the limit before parsing, naming where", () => {
    const deep = `${"[".repeat(300)}${"]".repeat(300)}`;
    const problem = problemOf(`{"x":\n${deep}}`);
    expect(problem).toMatchObject({
      kind: "depth",
      reason: expect.stringMatching(/nested more than 256 levels/),
    });
    expect(problem.line).toBe(2);
    expect(readUntrustedJson("[[[1]]]", { maxDepth: 2 }).ok).toBe(false);
    expect(readUntrustedJson("[[1]]", { maxDepth: 2 }).ok).toBe(true);
  });

  it("refuses a key given twice only when asked, naming the second one's place", () => {
    const text = '{"a": [{"b": 1},\n {"b": 2, "c": {"d": 1}, "b": 3}]}';
    expect(readUntrustedJson(text).ok).toBe(true);
    const read = readUntrustedJson(text, { refuseDuplicateKeys: true });
    expect(read.ok ? undefined : read.problem).toEqual({
      kind: "duplicate",
      reason: 'the key "b" is given twice in one object: say it once',
      line: 2,
      column: 26,
      path: ["a", 1, "b"],
    });
    expect(
      readUntrustedJson('{"a": {"b": 1}, "c": {"b": 1}}', { refuseDuplicateKeys: true }).ok,
    ).toBe(true);
  });

  it("ignores a leading byte-order mark", () => {
    const read = readUntrustedJson('\uFEFF{"a": 1}');
    expect(read.ok && read.value).toEqual({ a: 1 });
  });
});

describe("findPrototypeKey on decoded values", () => {
  it("finds an own __proto__ key made by defineProperty, and nothing in ordinary values", () => {
    const hostile: Record<string, unknown> = { a: [1, { b: 2 }] };
    Object.defineProperty(hostile.a as unknown[], "1", {
      value: Object.defineProperty({}, "__proto__", { value: { x: 1 }, enumerable: true }),
      enumerable: true,
    });
    expect(findPrototypeKey(hostile)?.path).toEqual(["a", 1, "__proto__"]);
    expect(findPrototypeKey({ a: [1, "two", null, { c: { d: [] } }] })).toBeUndefined();
    expect(findPrototypeKey("text")).toBeUndefined();
  });

  it("walks any depth without recursion", () => {
    let value: unknown = { __leaf: true };
    for (let i = 0; i < 20_000; i++) value = [value];
    expect(findPrototypeKey(value)).toBeUndefined();
  });

  it("formats paths as JSON paths", () => {
    expect(formatJsonPath(["criteria", 2, "odd key", "__proto__"])).toBe(
      '$.criteria[2]["odd key"].__proto__',
    );
  });
});
