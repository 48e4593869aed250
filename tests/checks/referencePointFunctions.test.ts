/**
 * The reference-based point functions rouge_l and levenshtein_similarity: their args (a reference
 * text or { reference?, min?, … }), the reference given by the evaluation when the args name none,
 * the similarity or the threshold they answer, their not_ variants, and how a criterion reports
 * them — an error is never a score. Values are computed by hand beside each case.
 */
import { describe, expect, it } from "vitest";
import { runFunctionCriterion } from "../../src/checks/functionCriterion.js";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { isCatalogError } from "../../src/criteria/errors.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import {
  checkPointFunctionArgs,
  isBuiltInPointFunctionName,
  isPointFunctionName,
  POINT_FUNCTIONS,
  type PointFunctionName,
} from "../../src/pointFunctions/builtIn.js";
import type { PointFunctionResult } from "../../src/pointFunctions/contract.js";
import { criterion } from "./helpers.js";

function run(
  name: PointFunctionName,
  text: string,
  args: unknown,
  reference?: string,
): PointFunctionResult {
  return POINT_FUNCTIONS[name].fn(text, args, reference === undefined ? {} : { reference });
}

const IDEAL = "The project trains forty nurses in rural clinics by March.";

describe("rouge_l", () => {
  it("is built in, with a not_ variant, and answers the F-measure for a bare reference", () => {
    expect(isPointFunctionName("rouge_l")).toBe(true);
    expect(isPointFunctionName("not_rouge_l")).toBe(true);
    // text: we train forty nurses in clinics (6 words); reference: 10 words.
    // LCS forty·nurses·in·clinics = 4; P = 4/6, R = 4/10, F = 2·(2/3)·(2/5)/(2/3 + 2/5) = 1/2.
    expect(run("rouge_l", "We train forty nurses in clinics", IDEAL)).toBeCloseTo(0.5, 12);
    expect(run("not_rouge_l", "We train forty nurses in clinics", IDEAL)).toBeCloseTo(0.5, 12);
    expect(run("rouge_l", IDEAL.toUpperCase(), IDEAL)).toBe(1);
  });

  it("gives the value worked out in criteria-configuration.md", () => {
    // forty nurses will be trained in clinics (7) / we train forty nurses in rural clinics by
    // march (9): LCS forty·nurses·in·clinics = 4, P = 4/7, R = 4/9, F = (32/63) / (64/63) = 0.5.
    const reference = "We train forty nurses in rural clinics by March.";
    const text = "Forty nurses will be trained in clinics.";
    expect(run("rouge_l", text, { reference })).toBeCloseTo(0.5, 12);
    expect(run("rouge_l", text, { reference, min: 0.5 })).toBe(true);
  });

  it("with min, answers whether the F-measure reaches it (equal counts as reached)", () => {
    const text = "We train forty nurses in clinics";
    expect(run("rouge_l", text, { reference: IDEAL, min: 0.5 })).toBe(true);
    expect(run("rouge_l", text, { reference: IDEAL, min: 0.51 })).toBe(false);
    expect(run("not_rouge_l", text, { reference: IDEAL, min: 0.51 })).toBe(true);
    // 1 − 3/7 is 4/7 to the last bit; a threshold written as 4/7 is reached.
    expect(run("levenshtein_similarity", "kitten", { reference: "sitting", min: 4 / 7 })).toBe(
      true,
    );
  });

  it("takes the evaluation's reference when the args name none, the args' own first", () => {
    // "forty nurses" against the context's reference: LCS 2, P = 1, R = 2/10, F = 0.4/1.2 = 1/3.
    expect(run("rouge_l", "forty nurses", {}, IDEAL)).toBeCloseTo(1 / 3, 12);
    expect(run("rouge_l", "forty nurses", undefined, IDEAL)).toBeCloseTo(1 / 3, 12);
    expect(run("rouge_l", "forty nurses", null, IDEAL)).toBeCloseTo(1 / 3, 12);
    expect(run("rouge_l", "forty nurses", { min: 0.3 }, IDEAL)).toBe(true);
    expect(run("rouge_l", "forty nurses", { reference: "forty nurses" }, IDEAL)).toBe(1);
  });

  it("is an error, never a score, without a reference or with one that has no word", () => {
    const none = run("rouge_l", "forty nurses", {});
    expect(none).toEqual({
      error: expect.stringMatching(/^rouge_l: no reference answer: give one in the args/),
    });
    expect(run("not_rouge_l", "forty nurses", { min: 0.5 })).toHaveProperty("error");
    expect(run("rouge_l", "forty nurses", {}, "— … —")).toEqual({
      error: "rouge_l: the reference has no word (letters or digits) to compare with",
    });
  });

  it("is an error for texts too long to compare", () => {
    const result = run("rouge_l", "word ".repeat(6_000), { reference: "word ".repeat(5_000) });
    expect(result).toEqual({
      error:
        "rouge_l: too long to compare: 6,000 × 5,000 words is above the 25,000,000 cells it computes",
    });
  });
});

describe("levenshtein_similarity", () => {
  it("answers 1 − distance / the longer length, surrounding whitespace ignored", () => {
    // kitten / sitting: 3 edits over 7.
    expect(run("levenshtein_similarity", "  kitten\n", "sitting")).toBeCloseTo(4 / 7, 12);
    expect(run("not_levenshtein_similarity", "kitten", "sitting")).toBeCloseTo(3 / 7, 12);
  });

  it("folds case only when asked, and thresholds with min", () => {
    expect(run("levenshtein_similarity", "GRANT-42", { reference: "grant-42" })).toBe(1 - 5 / 8);
    expect(
      run("levenshtein_similarity", "GRANT-42", { reference: "grant-42", ignoreCase: true }),
    ).toBe(1);
    // grant-42 / grant-24: two substitutions over 8 → 0.75.
    expect(run("levenshtein_similarity", "grant-42", { reference: "grant-24", min: 0.75 })).toBe(
      true,
    );
    expect(run("levenshtein_similarity", "grant-42", { reference: "grant-24", min: 0.8 })).toBe(
      false,
    );
  });

  it("uses the evaluation's reference, and is an error without one or above the cap", () => {
    expect(run("levenshtein_similarity", "flaw", {}, "lawn")).toBe(0.5);
    expect(run("levenshtein_similarity", "flaw", {})).toHaveProperty("error");
    const tooLong = run("levenshtein_similarity", "a".repeat(10_000), "b".repeat(2_501));
    expect(tooLong).toEqual({
      error:
        "levenshtein_similarity: too long to compare: 10,000 × 2,501 characters is above the 25,000,000 cells it computes; rouge_l compares long texts",
    });
  });
});

describe("their args, as a catalog's validation reads them", () => {
  it("accepts a reference text or the object forms", () => {
    for (const [name, args] of [
      ["rouge_l", "a reference"],
      ["rouge_l", { reference: "a reference", min: 0.4 }],
      ["rouge_l", {}],
      ["rouge_l", undefined],
      ["not_rouge_l", { min: 1 }],
      ["levenshtein_similarity", null],
      ["embedding_similarity", undefined],
      ["levenshtein_similarity", { reference: "GR-1", ignoreCase: true, min: 0 }],
      ["embedding_similarity", { reference: "a reference", model: "nomic-embed-text" }],
      ["embedding_similarity", { min: 0.8 }],
    ] as const) {
      expect(checkPointFunctionArgs(name, args), `${name} ${JSON.stringify(args)}`).toBeUndefined();
    }
    expect(isBuiltInPointFunctionName("embedding_similarity")).toBe(true);
    expect(isBuiltInPointFunctionName("not_embedding_similarity")).toBe(true);
    expect(isPointFunctionName("embedding_similarity")).toBe(false);
  });

  it("refuses args that do not fit, saying what was expected and what came", () => {
    expect(checkPointFunctionArgs("rouge_l", { reference: "x", min: 2 })).toBe(
      `rouge_l: expected a reference text, { reference?, min? } (e.g. { "reference": "…", "min": 0.5 }), or nothing (the evaluation's reference), got an object ("min" is the number 2, more than 1)`,
    );
    expect(checkPointFunctionArgs("rouge_l", "...")).toBe(
      `rouge_l: expected a reference text, { reference?, min? } (e.g. { "reference": "…", "min": 0.5 }), or nothing (the evaluation's reference), got the string "..." (the reference has no word (letters or digits) to compare with)`,
    );
    expect(checkPointFunctionArgs("levenshtein_similarity", { reference: "x", typo: 1 })).toMatch(
      /^levenshtein_similarity: expected a reference text, \{ reference\?, min\?, ignoreCase\? \}, or nothing \(the evaluation's reference\), got an object/,
    );
    expect(checkPointFunctionArgs("embedding_similarity", { model: "" })).toMatch(
      /^embedding_similarity: expected a reference text, \{ reference\?, min\?, model\? \}, or nothing/,
    );
    expect(checkPointFunctionArgs("embedding_similarity", ["a", "b"])).toMatch(
      /got an array of 2 items$/,
    );
  });

  it("a catalog naming them with bad args does not load, and says where", () => {
    const text = JSON.stringify({
      id: "answers",
      points: ["Mentions the nurses.", ["rouge_l", { reference: "forty nurses", min: -0.1 }]],
    });
    const error = (() => {
      try {
        parseCatalog(text, { format: "json", source: "answers.json" });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(isCatalogError(error)).toBe(true);
    expect(String((error as Error).message)).toContain("answers.json");
    expect(String((error as Error).message)).toContain("rouge_l: expected a reference text");
  });
});

describe("in a function criterion", () => {
  it("scores the similarity, with the registry's reference when the args give none", async () => {
    const registry = new FunctionRegistry({ reference: IDEAL });
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "rouge_l", args: {} }),
      "We train forty nurses in clinics",
      registry,
    );
    expect(outcome).toMatchObject({ evaluated: true, score: 0.5, native: 0.5 });
    expect(outcome.reasoning).toBe("Function 'rouge_l' evaluated to 0.5.");
  });

  it("withReference keeps the registrations and changes only the reference", async () => {
    const registry = new FunctionRegistry({ reference: "flaw" }).register(
      "app:length",
      (content) => String(content).length / 10,
    );
    const other = registry.withReference("lawn");
    expect(other.reference).toBe("lawn");
    expect(registry.reference).toBe("flaw");
    expect(other.has("app:length")).toBe(true);
    const lev = await other.resolve("levenshtein_similarity");
    expect(await lev.invoke("flaw", {})).toBe(0.5);
    expect(await (await registry.resolve("levenshtein_similarity")).invoke("flaw", {})).toBe(1);
    expect(await (await other.resolve("app:length")).invoke("abcde", undefined)).toBe(0.5);
    expect(registry.withReference(undefined).reference).toBeUndefined();
  });

  it("reports a missing reference as not evaluated, never a zero", async () => {
    const outcome = await runFunctionCriterion(
      criterion({ kind: "function", name: "rouge_l", args: { min: 0.5 } }),
      "We train forty nurses",
      new FunctionRegistry(),
    );
    expect(outcome.evaluated).toBe(false);
    expect(outcome.score).toBeNull();
    expect(outcome.judgeError).toMatch(/^rouge_l: no reference answer/);
  });
});
