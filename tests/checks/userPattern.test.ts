/**
 * Catalog patterns run in linear time (re2js): patterns that backtrack for ever in JavaScript's
 * engine finish, ordinary patterns keep JavaScript's results, and what RE2 cannot run in linear
 * time is refused with a reason.
 */
import { describe, expect, it } from "vitest";
import { runFunctionCriterion } from "../../src/checks/functionCriterion.js";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import {
  checkPointFunctionArgs,
  POINT_FUNCTIONS,
  type PointFunctionName,
} from "../../src/pointFunctions/builtIn.js";
import type { PointFunctionResult } from "../../src/pointFunctions/contract.js";
import {
  compileUserPattern,
  MAX_PATTERN_LENGTH,
  patternProblem,
} from "../../src/pointFunctions/userPattern.js";
import { criterion } from "./helpers.js";

function run(name: PointFunctionName, text: string, args?: unknown): PointFunctionResult {
  return POINT_FUNCTIONS[name].fn(text, args);
}

/** 40 × "a" then "!": JavaScript's engine takes about 2^40 steps to fail on the patterns below. */
const SHORT_ATTACK = `${"a".repeat(40)}!`;
const LONG_ATTACK = `${"a".repeat(100_000)}!`;

describe("catastrophic patterns finish (the old engine would not return)", () => {
  it.each([
    ["matches", "(a+)+$"],
    ["imatches", "^(\\w+\\s?)*$"],
    ["matches", "^(a|aa)+$"],
    ["imatches", "^(([a-z])+.)+[A-Z]([a-z])+$"],
  ] as const)("%s %s fails on 40 × 'a' + '!' and on 100,000 characters", (name, source) => {
    expect(run(name, SHORT_ATTACK, source)).toBe(false);
    expect(run(name, LONG_ATTACK, source)).toBe(false);
    expect(run(`not_${name}`, LONG_ATTACK, source)).toBe(true);
  });

  it("(.*a){20}x — nested repetition — answers on long texts, matching where it should", () => {
    expect(run("matches", LONG_ATTACK, "(.*a){20}x")).toBe(false);
    expect(run("matches", `${"a".repeat(20)}x`, "(.*a){20}x")).toBe(true);
    expect(run("matches", `${"a".repeat(19)}x`, "(.*a){20}x")).toBe(false);
  });

  it("matches_all_of and matches_any_of run every pattern in linear time too", () => {
    const patterns = ["(a+)+$", "^(\\w+\\s?)*$", "a{3}"];
    expect(run("matches_all_of", LONG_ATTACK, patterns)).toBeCloseTo(1 / 3);
    expect(run("matches_any_of", LONG_ATTACK, patterns)).toBe(true);
  });

  it("a catalog with such a pattern loads, and its function criterion gives an answer", async () => {
    const catalog = parseCatalog(
      JSON.stringify({ id: "redos", points: [["matches", "(a+)+$"], "Names the site."] }),
      { format: "json", source: "redos.json" },
    );
    const outcome = await runFunctionCriterion(
      catalog.criteria[0]!,
      LONG_ATTACK,
      new FunctionRegistry(),
    );
    expect(outcome).toMatchObject({ evaluated: true, score: 0 });
  });
});

/** Patterns a catalog author writes, on texts that probe where RE2 and JavaScript could differ. */
const TEXTS = [
  "Funding of 40 percent for 3 years.",
  "Funding of 40\u00a0percent (non-breaking space).",
  "line one\r\nline two",
  "tab\tand\u2028separator",
  "Straße in Köln, ÄRZTE und ärzte",
  "path/to/file.json",
  "BUDGET: €125,000; match 1:1",
  "x",
  "",
  "email: office@example.org",
  "Zürich",
  "Amount due: 1 Quiz",
];

const ORDINARY: ReadonlyArray<readonly [string, string]> = [
  ["\\d+ percent", ""],
  ["\\d+\\s+percent", ""],
  ["\\d+\\S+", ""],
  ["[\\s]percent", ""],
  ["[^\\s]+@[^\\s]+\\.org", ""],
  ["one.line", ""],
  ["one\\r\\nline", ""],
  ["and.separator", ""],
  ["and[^]separator", ""],
  ["[]", ""],
  ["^Funding", ""],
  ["years\\.$", ""],
  ["^$", ""],
  ["percent|€", ""],
  ["(?:one|two)$", ""],
  ["\\bKöln\\b", ""],
  ["straße", "i"],
  ["ärzte", "i"],
  ["ÄRZTE", ""],
  ["k[öo]ln", "i"],
  ["\\u00e4rzte", ""],
  ["\\x41", "i"],
  ["\\cI", ""],
  ["path/to", ""],
  ["\\w+\\.json$", ""],
  ["(?<unit>\\d+) years", ""],
  ["\\d{2,3}", ""],
  ["\\d{4,}", ""],
  ["a+?x", ""],
  ["[a-c]x?", "i"],
  ["1:1", ""],
  ["€\\d{3},\\d{3}", ""],
  ["[.]json", ""],
  ["[\\]]", ""],
  ["(?<=\\$|€)\\d+", ""],
  ["(?<!un)funding", "i"],
  ["z.rich", "i"],
  ["^.$", ""],
  ["\\Amount", ""],
  ["\\Quiz|[\\z]", "i"],
  ["\\k", ""],
  ["\\8", ""],
];

describe("ordinary patterns give JavaScript's results", () => {
  it.each(ORDINARY)("%s (flags %j) on every sample text", (source, flags) => {
    const javascript = new RegExp(source, flags);
    const name: PointFunctionName = flags === "i" ? "imatches" : "matches";
    for (const text of TEXTS) {
      expect(run(name, text, source), `${source} on ${JSON.stringify(text)}`).toBe(
        javascript.test(text),
      );
    }
  });

  it("keeps the results that matter most, written out", () => {
    expect(run("matches", "40\u00a0percent", "\\d+\\s+percent")).toBe(true);
    expect(run("matches", "a\rb", "a.b")).toBe(false);
    expect(run("imatches", "ÄRZTE", "ärzte")).toBe(true);
    expect(run("matches", "cost $40", "(?<=\\$)\\d+")).toBe(true);
    expect(run("matches", "cost 40", "(?<=\\$)\\d+")).toBe(false);
  });
});

describe("patterns that cannot run in linear time, or at all, are refused", () => {
  it.each([
    ["(a)\\1", /backreference "\\\\1" is not supported: patterns run in linear time/],
    ["(?<w>a)\\k<w>", /backreference "\\\\k<…>" is not supported/],
    ["(?:a)(b)\\1", /backreference "\\\\1" is not supported/],
    ["(?<=a)x\\1", /octal escape "\\\\1" is not supported: write it as \\x01/],
    ["budget(?= total)", /lookahead "\(\?=" is not supported: patterns run in linear time/],
    ["budget(?!ed)", /lookahead "\(\?!" is not supported/],
    ["(unclosed", /missing closing \)/],
    ["a{1001}", /invalid repeat count/],
    ["((a{100}){100}){100}", /invalid repeat count/],
    ["(?<=(a))b", /invalid capture in lookbehind/],
    [`a${"b".repeat(MAX_PATTERN_LENGTH)}`, /1001 characters long, over the limit of 1000/],
  ])("%s", (source, reason) => {
    expect(patternProblem(source)).toMatch(reason);
    const compiled = compileUserPattern(source);
    expect("problem" in compiled).toBe(true);
    // the run-time answer is an error, never a pass or a fail
    expect(run("matches", "aa", source)).toEqual({
      error: expect.stringContaining("matches: expected a valid regular expression string"),
    });
  });

  it("the reason reaches catalog validation: the criterion's place and the pattern's problem", () => {
    expect(checkPointFunctionArgs("imatches", "(\\w+)\\s\\1")).toBe(
      'imatches: expected a valid regular expression string, got the string "(\\\\w+)\\\\s\\\\1" ' +
        '(backreference "\\\\1" is not supported: patterns run in linear time (RE2), which backreferences do not allow)',
    );
    const text = JSON.stringify({
      id: "bad",
      points: ["Names the site.", { fn: "matches_any_of", fnArgs: ["ok", "x(?=y)"] }],
    });
    expect(() => parseCatalog(text, { format: "json", source: "bad.json" })).toThrow(
      /bad\.json:1 \(\$\.points\[1\]\): matches_any_of: expected a non-empty array of valid regular expression strings, got an array of 2 items \(item 2: lookahead/,
    );
  });

  it("a function criterion with a refused pattern is a judge error, not a score", async () => {
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "matches", args: "(a)\\1" }),
      "aa",
      new FunctionRegistry(),
    );
    expect(outcome.evaluated).toBe(false);
    expect(outcome.judgeError).toMatch(/backreference/);
  });
});

describe("contains_word runs in linear time and keeps whole-word semantics", () => {
  it.each([
    ["In Zürich, the partners meet.", "Zürich", false, true],
    ["Zürichsee is a lake.", "Zürich", false, false],
    ["IN ZÜRICH.", "zürich", true, true],
    ["IN ZÜRICH.", "zürich", false, false],
    ["co_funded", "funded", false, false],
    ["funded.", "funded", false, true],
    ["a (b+c) d", "(b+c)", false, true],
    ["x(b+c)", "(b+c)", false, false],
    ["word2", "word", false, false],
  ] as const)("%j contains the word %j (ignoreCase %s): %s", (text, word, ignoreCase, found) => {
    expect(run("contains_word", text, { word, ignoreCase })).toBe(found);
  });

  it("does not slow down on long texts of near misses", () => {
    expect(run("contains_word", "ab".repeat(100_000), "aba")).toBe(false);
  });
});
