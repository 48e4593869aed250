import { describe, expect, it } from "vitest";
import { MAX_ANSWER_CHARS } from "../../src/judge/answerValues.js";
import { scanJsonObjects } from "../../src/judge/jsonObjectScan.js";
import { parseJudgeResponse } from "../../src/judge/parse.js";
import { scoreFivePoint } from "./criteria.js";

/** Inputs that made the scanner re-read the rest of the text once per opening brace. */
const ADVERSARIAL: Record<string, (n: number) => string> = {
  "open braces": (n) => "{".repeat(n),
  "open keys": (n) => '{"a":'.repeat(Math.ceil(n / 5)),
  "open braces with a quote": (n) => `"${"{".repeat(n)}`,
  "unclosed strings": (n) => '{"a": "'.repeat(Math.ceil(n / 7)),
  "malformed closed objects": (n) => '{"a" 1}'.repeat(Math.ceil(n / 7)),
  "single-quoted openers": (n) => "{'".repeat(Math.ceil(n / 2)),
  "valid objects": (n) => '{"a": 1}'.repeat(Math.ceil(n / 8)),
  "one object of bare keys": (n) => `{${"a: 1, ".repeat(Math.ceil(n / 6))}}`,
  "stray words": (n) => "{a b ".repeat(Math.ceil(n / 5)),
};

describe("scanJsonObjects work is linear in the text", () => {
  it.each(Object.entries(ADVERSARIAL))(
    "%s: twice the text, at most about twice the work",
    (_name, make) => {
      const small = make(20_000);
      const large = make(40_000);
      const stepsSmall = scanJsonObjects(small).steps;
      const stepsLarge = scanJsonObjects(large).steps;
      // Each character is looked at a bounded number of times, whatever the input.
      expect(stepsSmall).toBeLessThanOrEqual(small.length * 8);
      expect(stepsLarge).toBeLessThanOrEqual(large.length * 8);
      expect(stepsLarge).toBeLessThanOrEqual(stepsSmall * 2.2);
    },
  );

  it("counts every character of an ordinary answer at least once", () => {
    const text = 'Answer: {"reasoning": "ok", "score": 4} done';
    expect(scanJsonObjects(text).steps).toBeGreaterThanOrEqual(text.length);
  });

  it('scans 500 KB of {"a": to the end', () => {
    const text = '{"a":'.repeat(100_000);
    const scan = scanJsonObjects(text);
    expect(scan.objects).toEqual([]);
    expect(scan.steps).toBeLessThanOrEqual(text.length * 8);
  });

  it("scans 100 KB of { to the end", () => {
    const text = "{".repeat(100_000);
    expect(scanJsonObjects(text).objects).toEqual([]);
  });
});

describe("the answer length cap", () => {
  it("refuses a response over the cap as a judge error naming its size", () => {
    const text = `{"reasoning": "${"x".repeat(MAX_ANSWER_CHARS)}", "score": 4}`;
    const answer = parseJudgeResponse(text, scoreFivePoint);
    expect(answer.usable).toBe(false);
    expect(answer.judgeError).toContain(`${text.length} characters`);
  });

  it('refuses 500 KB of {"a": at once', () => {
    const answer = parseJudgeResponse('{"a":'.repeat(100_000), scoreFivePoint);
    expect(answer.usable).toBe(false);
    expect(answer.judgeError).toContain("500000 characters");
  });
});
