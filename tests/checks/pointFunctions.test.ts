import { describe, expect, it } from "vitest";
import {
  checkPointFunctionArgs,
  isPointFunctionName,
  POINT_FUNCTIONS,
  type PointFunctionName,
} from "../../src/pointFunctions/builtIn.js";
import type { PointFunctionResult } from "../../src/pointFunctions/contract.js";

function run(name: PointFunctionName, text: string, args?: unknown): PointFunctionResult {
  return POINT_FUNCTIONS[name].fn(text, args);
}

const REQUIRED: PointFunctionName[] = [
  "contains",
  "icontains",
  "contains_any_of",
  "contains_all_of",
  "contains_at_least_n_of",
  "contains_word",
  "starts_with",
  "ends_with",
  "matches",
  "imatches",
  "matches_all_of",
  "word_count_between",
  "is_json",
];

const TEXT =
  "The consortium is based in Hamburg. Our AI platform reduces energy use by 30 percent.";

describe("point function table", () => {
  it("has every required function and its not_ variant, each with a schema and description", () => {
    for (const name of REQUIRED) {
      for (const variant of [name, `not_${name}`]) {
        expect(isPointFunctionName(variant), variant).toBe(true);
        const definition = POINT_FUNCTIONS[variant as PointFunctionName];
        expect(typeof definition.fn).toBe("function");
        expect(definition.description.length).toBeGreaterThan(10);
        expect(typeof definition.argsSchema.safeParse).toBe("function");
      }
    }
    expect(isPointFunctionName("nonexistent")).toBe(false);
    expect(isPointFunctionName("not_nonexistent")).toBe(false);
    expect(isPointFunctionName("toString")).toBe(false);
  });
});

describe("substring functions", () => {
  it("contains is case-sensitive, icontains is not", () => {
    expect(run("contains", TEXT, "Hamburg")).toBe(true);
    expect(run("contains", TEXT, "hamburg")).toBe(false);
    expect(run("icontains", TEXT, "hamburg")).toBe(true);
    expect(run("icontains", TEXT, "berlin")).toBe(false);
    expect(run("not_contains", TEXT, "hamburg")).toBe(true);
    expect(run("not_contains", TEXT, "Hamburg")).toBe(false);
    expect(run("not_icontains", TEXT, "HAMBURG")).toBe(false);
    expect(run("contains", "", "x")).toBe(false);
  });

  it("contains_any_of is true when one term is present", () => {
    expect(run("contains_any_of", TEXT, ["Berlin", "Hamburg"])).toBe(true);
    expect(run("contains_any_of", TEXT, ["Berlin", "Munich"])).toBe(false);
    expect(run("not_contains_any_of", TEXT, ["Berlin", "Munich"])).toBe(true);
    expect(run("icontains_any_of", TEXT, ["HAMBURG"])).toBe(true);
  });

  it("contains_all_of gives the fraction found; not_ gives 1 − fraction", () => {
    expect(run("contains_all_of", TEXT, ["Hamburg", "AI"])).toBe(1);
    expect(run("contains_all_of", TEXT, ["Hamburg", "AI", "blockchain", "Berlin"])).toBe(0.5);
    expect(run("contains_all_of", TEXT, ["blockchain"])).toBe(0);
    expect(run("not_contains_all_of", TEXT, ["Hamburg", "AI", "blockchain", "Berlin"])).toBe(0.5);
    expect(run("not_contains_all_of", TEXT, ["Hamburg", "blockchain", "Berlin"])).toBeCloseTo(
      2 / 3,
    );
    expect(run("icontains_all_of", TEXT, ["hamburg", "ai"])).toBe(1);
  });

  it("contains_at_least_n_of counts distinct terms", () => {
    expect(run("contains_at_least_n_of", TEXT, [2, ["Hamburg", "AI", "Berlin"]])).toBe(true);
    expect(run("contains_at_least_n_of", TEXT, [3, ["Hamburg", "AI", "Berlin"]])).toBe(false);
    expect(run("not_contains_at_least_n_of", TEXT, [3, ["Hamburg", "AI", "Berlin"]])).toBe(true);
  });

  it("contains_word matches whole words only, with an ignoreCase option", () => {
    expect(run("contains_word", TEXT, "AI")).toBe(true);
    expect(run("contains_word", "PAINT and TRAIN", "AI")).toBe(false);
    expect(run("contains_word", TEXT, "ai")).toBe(false);
    expect(run("contains_word", TEXT, { word: "ai", ignoreCase: true })).toBe(true);
    expect(run("contains_word", TEXT, "energy use")).toBe(true);
    expect(run("contains_word", "Straße in Hamburg-Altona", "Hamburg")).toBe(true);
    expect(run("contains_word", "Hamburger", "Hamburg")).toBe(false);
    expect(run("contains_word", "Größe", "Größ")).toBe(false);
    expect(run("contains_word", "costs (EUR) total", "(EUR)")).toBe(true);
    expect(run("not_contains_word", "PAINT", "AI")).toBe(true);
  });

  it("starts_with and ends_with ignore surrounding whitespace", () => {
    expect(run("starts_with", "  \nExecutive summary: ...", "Executive summary")).toBe(true);
    expect(run("starts_with", TEXT, "consortium")).toBe(false);
    expect(run("ends_with", `${TEXT}\n\n`, "30 percent.")).toBe(true);
    expect(run("ends_with", TEXT, "Hamburg.")).toBe(false);
    expect(run("not_starts_with", TEXT, "The")).toBe(false);
    expect(run("not_ends_with", TEXT, "Hamburg.")).toBe(true);
  });
});

describe("regular-expression functions", () => {
  it("matches and imatches", () => {
    expect(run("matches", TEXT, "\\d+ percent")).toBe(true);
    expect(run("matches", TEXT, "^the consortium")).toBe(false);
    expect(run("imatches", TEXT, "^the consortium")).toBe(true);
    expect(run("not_matches", TEXT, "\\d+ percent")).toBe(false);
    expect(run("not_imatches", TEXT, "berlin|munich")).toBe(true);
  });

  it("matches_all_of gives the fraction of patterns that match", () => {
    expect(run("matches_all_of", TEXT, ["Hamburg", "\\d+"])).toBe(1);
    expect(run("matches_all_of", TEXT, ["Hamburg", "^Berlin", "AI", "\\bMunich\\b"])).toBe(0.5);
    expect(run("not_matches_all_of", TEXT, ["Hamburg", "^Berlin", "AI", "Munich"])).toBe(0.5);
    expect(run("matches_any_of", TEXT, ["^Berlin", "AI"])).toBe(true);
  });

  it("an invalid regular expression is an error, never a throw, and stays an error when negated", () => {
    const result = run("matches", TEXT, "([unclosed");
    expect(result).toEqual({
      error: expect.stringMatching(/^matches: expected a valid regular expression string/),
    });
    expect(run("not_matches", TEXT, "(")).toEqual({
      error: expect.stringMatching(
        /^not_matches: expected a valid regular expression string, got the string "\("/,
      ),
    });
    expect(run("matches_all_of", TEXT, ["Hamburg", "*oops"])).toEqual({
      error: expect.stringContaining("valid regular expression strings"),
    });
    expect(run("imatches", TEXT, "[z-a]")).toHaveProperty("error");
  });
});

describe("structure functions", () => {
  it("word_count_between is inclusive", () => {
    expect(run("word_count_between", "one two three", [3, 5])).toBe(true);
    expect(run("word_count_between", "one two three", [1, 3])).toBe(true);
    expect(run("word_count_between", "one two three", [4, 10])).toBe(false);
    expect(run("word_count_between", "   ", [0, 0])).toBe(true);
    expect(run("word_count_between", "a\n\tb   c", [3, 3])).toBe(true);
    expect(run("not_word_count_between", "one two three", [4, 10])).toBe(true);
  });

  it("is_json accepts any JSON value and rejects fenced or broken JSON", () => {
    expect(run("is_json", '{"questions": ["Q1"]}')).toBe(true);
    expect(run("is_json", "  [1, 2]\n")).toBe(true);
    expect(run("is_json", "42")).toBe(true);
    expect(run("is_json", '{"a": 1,}')).toBe(false);
    expect(run("is_json", '```json\n{"a": 1}\n```')).toBe(false);
    expect(run("is_json", "")).toBe(false);
    expect(run("not_is_json", "plain prose")).toBe(true);
    expect(run("is_json", "{}", null)).toBe(true);
  });
});

describe("argument validation", () => {
  const cases: [PointFunctionName, unknown, RegExp][] = [
    ["contains", 5, /^contains: expected a non-empty string, got the number 5$/],
    ["contains", "", /^contains: expected a non-empty string, got the string ""$/],
    ["not_icontains", undefined, /^not_icontains: expected a non-empty string, got nothing$/],
    [
      "contains_any_of",
      "Hamburg",
      /expected a non-empty array of non-empty strings, got the string/,
    ],
    ["contains_all_of", [], /expected a non-empty array .*, got an array of 0 items$/],
    ["contains_all_of", ["ok", 3], /got an array of 2 items \(item 2 is the number 3\)$/],
    [
      "contains_any_of",
      ["grant", "budget", "", "aims", "staff", "risk"],
      /^contains_any_of: expected a non-empty array of non-empty strings, got an array of 6 items \(item 3 is empty\)$/,
    ],
    ["icontains_all_of", ["a", null], /got an array of 2 items \(item 2 is null\)$/],
    [
      "contains_at_least_n_of",
      [1, ["a", ""]],
      /got an array of 2 items \(item 2 of item 2 is empty\)$/,
    ],
    ["contains_at_least_n_of", [0, ["a"]], /\(item 1 is the number 0, less than 1\)$/],
    ["contains_at_least_n_of", [4, ["a", "b"]], /expected \[n, \[terms\]\]/],
    ["contains_at_least_n_of", [1.5, ["a", "b"]], /expected \[n, \[terms\]\]/],
    ["contains_at_least_n_of", ["a", "b"], /got an array of 2 items/],
    ["contains_word", { word: "" }, /expected a word, or \{ word, ignoreCase\? \}/],
    ["contains_word", { word: "AI", caseless: true }, /got an object$/],
    ["matches", null, /^matches: expected a valid regular expression string, got null$/],
    ["matches_all_of", "x", /expected a non-empty array of valid regular expression strings/],
    ["word_count_between", [10, 5], /expected \[min, max\] with whole numbers 0 ≤ min ≤ max/],
    ["word_count_between", [-1, 5], /expected \[min, max\]/],
    ["word_count_between", 100, /got the number 100$/],
    ["is_json", true, /^is_json: expected no args, got the boolean true$/],
    ["starts_with", ["a"], /^starts_with: expected a non-empty string, got an array of 1 item$/],
  ];

  it.each(cases)("%s with %j gives an error result", (name, args, message) => {
    const result = run(name, TEXT, args);
    expect(result).toEqual({ error: expect.stringMatching(message) });
    expect(checkPointFunctionArgs(name, args)).toMatch(message);
  });

  it("a negated function reports bad args as an error under its own name", () => {
    expect(run("not_contains_all_of", TEXT, "x")).toEqual({
      error: expect.stringMatching(/^not_contains_all_of: expected/),
    });
  });

  it("checkPointFunctionArgs accepts fitting args and names unknown functions", () => {
    expect(checkPointFunctionArgs("contains", "Hamburg")).toBeUndefined();
    expect(checkPointFunctionArgs("not_contains_at_least_n_of", [1, ["a"]])).toBeUndefined();
    expect(checkPointFunctionArgs("is_json", undefined)).toBeUndefined();
    expect(
      checkPointFunctionArgs("contains_word", { word: "AI", ignoreCase: true }),
    ).toBeUndefined();
    expect(checkPointFunctionArgs("containz", "x")).toMatch(/^unknown point function 'containz'/);
  });

  it("a text that is not a string is an error, not a throw", () => {
    const fn = POINT_FUNCTIONS.contains.fn as (text: unknown, args: unknown) => PointFunctionResult;
    expect(fn(undefined, "x")).toEqual({
      error: "contains: expected the text to check, got nothing",
    });
  });
});
