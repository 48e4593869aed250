/**
 * Reading what a judge's reasoning concludes, and the consistency check built on it, measured on
 * labelled corpora of judge answers (tests/fixtures/judge-answers/consistency*.json):
 *   - consistency.json: written before the check (135 consistent, 47 inconsistent);
 *   - consistency-holdout.json: written after the check's first version and measured once with it
 *     (2/40 false alarms, 16/20 caught); the check was then adjusted for its misses;
 *   - consistency-holdout2.json: written after that adjustment, measured once, not tuned on.
 * The rates are printed; docs/security.md quotes them with this command:
 *   npx vitest run tests/judge/reasoningConsistency.test.ts
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { reasoningContradiction } from "../../src/engine/screening.js";
import { MAX_REASONING_CHARS, readReasoningStance } from "../../src/judge/reasoningStance.js";

const Corpus = z.array(
  z.object({ reasoning: z.string().min(1), met: z.boolean(), consistent: z.boolean() }).strict(),
);

function load(name: string) {
  const url = new URL(`../fixtures/judge-answers/${name}`, import.meta.url);
  return Corpus.parse(JSON.parse(readFileSync(url, "utf8")));
}

function measure(name: string) {
  const entries = load(name);
  const flagged = (e: (typeof entries)[number]) =>
    reasoningContradiction(e.reasoning, e.met, e.met ? "1" : "0") !== undefined;
  const clean = entries.filter((e) => e.consistent);
  const contradicting = entries.filter((e) => !e.consistent);
  const alarms = clean.filter(flagged).length;
  const caught = contradicting.filter(flagged).length;
  console.info(
    `${name}: ${alarms}/${clean.length} consistent answers held (${((alarms / clean.length) * 100).toFixed(1)}% false alarms), ${caught}/${contradicting.length} contradictions caught (${((caught / contradicting.length) * 100).toFixed(1)}%)`,
  );
  return { clean: clean.length, contradicting: contradicting.length, alarms, caught };
}

describe("the consistency check on labelled judge answers", () => {
  it("the corpus written before the check: at most 5% false alarms, at least 80% caught", () => {
    const rates = measure("consistency.json");
    expect(rates.clean).toBeGreaterThanOrEqual(100);
    expect(rates.contradicting).toBeGreaterThanOrEqual(40);
    expect(rates.alarms / rates.clean).toBeLessThanOrEqual(0.05);
    expect(rates.caught / rates.contradicting).toBeGreaterThanOrEqual(0.8);
  });

  it("the first holdout (adjusted for after its first measurement): the rates reached", () => {
    const rates = measure("consistency-holdout.json");
    expect(rates.alarms).toBeLessThanOrEqual(1);
    expect(rates.caught).toBeGreaterThanOrEqual(19);
  });

  it("the second holdout (never tuned on): the rates it measured", () => {
    const rates = measure("consistency-holdout2.json");
    expect(rates.alarms).toBeLessThanOrEqual(1);
    expect(rates.caught).toBeGreaterThanOrEqual(18);
  });

  it("holds answers that mention weaknesses while passing in every corpus no more than the bound", () => {
    const passing = ["consistency.json", "consistency-holdout2.json"]
      .flatMap((name) => load(name))
      .filter((e) => e.consistent && e.met);
    const weaknesses = passing.filter((e) =>
      /\b(?:lack|lacks|missing|not|no|weak|gap|absent|although|but)\b/i.test(e.reasoning),
    );
    expect(weaknesses.length).toBeGreaterThanOrEqual(40);
    const held = weaknesses.filter(
      (e) => reasoningContradiction(e.reasoning, true, "1") !== undefined,
    );
    expect(held.length / weaknesses.length).toBeLessThanOrEqual(0.05);
  });
});

describe("reading the verdict of a reasoning", () => {
  it.each([
    ["a negated verdict on the criterion", "The requirement has not been fulfilled.", "not met"],
    ["a negative verdict adjective", "Criterion unmet; the annex is blank.", "not met"],
    ["failing the check", "The knockout check fails for this applicant.", "not met"],
    ["fails to with a verdict verb", "It fails to satisfy the criterion on co-funding.", "not met"],
    [
      "an inability to judge",
      "Whether the pilot works cannot be determined from the text.",
      "not met",
    ],
    [
      "absence without any praise",
      "The staffing table is missing and no CVs are attached.",
      "not met",
    ],
    ["a double negation", "It is not true that the criterion is unmet.", "met"],
    ["nothing missing", "Nothing required is missing from the annex list.", "met"],
    ["a negated weakness", "The plan is not vague: every step has a date.", "met"],
    [
      "a concession then a verdict",
      "Although the layout is cluttered, the requirement is satisfied.",
      "met",
    ],
    [
      "a positive concession then a negative verdict",
      "While the writing is lively, it does not satisfy the criterion.",
      "not met",
    ],
    [
      "the last verdict decides",
      "It meets the formal rules, but it fails the criterion itself.",
      "not met",
    ],
    [
      "a hypothetical is no finding",
      "Without the annex the criterion would not be met.",
      undefined,
    ],
    ["a reported view is no finding", "The applicant claims the criterion is met.", undefined],
    [
      "praise and blame together decide nothing",
      "The budget is clear; the timeline is vague.",
      undefined,
    ],
    [
      "a weakness set aside",
      "The CV of one partner is missing, which is a minor issue.",
      undefined,
    ],
    ["a softened negation", "The overhead rate is not given explicitly.", undefined],
  ])("%s", (_name, text, verdict) => {
    expect(readReasoningStance(text).verdict).toBe(verdict);
  });

  it("calls an unreserved positive reading glowing, and a hedged or mixed one not", () => {
    expect(readReasoningStance("Completely satisfies the criterion.").glowing).toBe(true);
    expect(readReasoningStance("Outstanding; every point is covered.").glowing).toBe(true);
    expect(readReasoningStance("Largely satisfies the criterion.").glowing).toBe(false);
    expect(readReasoningStance("Fully meets it, though one table is missing.").glowing).toBe(true);
    expect(readReasoningStance("Fully meets the criterion. The budget is vague.").glowing).toBe(
      false,
    );
  });

  it("reads contractions and typographic apostrophes", () => {
    expect(readReasoningStance("It doesn’t meet the criterion.").verdict).toBe("not met");
    expect(readReasoningStance("The bar can't be said to be met.").verdict).toBe("not met");
  });

  it("a figure over or under a limit is no verdict; exceeding the criterion itself is", () => {
    // A budget rule: staying under the cap passes it, going over fails it.
    for (const reasoning of [
      "Costs do not exceed the cap.",
      "The request does not exceed the 50,000 EUR limit.",
    ]) {
      expect(reasoningContradiction(reasoning, true, "pass"), reasoning).toBeUndefined();
    }
    for (const reasoning of [
      "The total exceeds the funding cap.",
      "Personnel costs exceed 60% of the budget.",
    ]) {
      expect(reasoningContradiction(reasoning, false, "fail"), reasoning).toBeUndefined();
    }
    // Met, not more: no contradiction of a pass.
    expect(
      reasoningContradiction("The proposal meets but does not exceed the requirement.", true, "4"),
    ).toBeUndefined();
    expect(readReasoningStance("Exceeds the criterion.").glowing).toBe(true);
  });

  it("reads a long reasoning only up to its bound, in one pass", () => {
    const long = `${"The budget is clear and complete. ".repeat(1_000)}The criterion is not met.`;
    expect(long.length).toBeGreaterThan(MAX_REASONING_CHARS);
    expect(readReasoningStance(long).verdict).toBe("met");
    expect(readReasoningStance("x ".repeat(200_000)).verdict).toBeUndefined();
  });
});

describe("double negatives", () => {
  // Each negator below is spent on the negative term it reaches first: the sentence says that
  // nothing is wrong, a flaw denied outright, so it reads met and (nothing negative) decisive.
  const doubles = [
    "No ineligible costs are included.",
    "The budget is not unclear.",
    "The plan is complete, without any missing sections.",
    "None of the costs are ineligible.",
    "No gaps remain.",
    "The budget contains no gaps.",
  ];

  it.each(doubles)("beside a pass, not flagged: %s", (text) => {
    expect(readReasoningStance(text)).toMatchObject({ verdict: "met", glowing: true });
    expect(reasoningContradiction(text, true, "pass")).toBeUndefined();
  });

  it.each(doubles)("beside a fail, flagged as fully met: %s", (text) => {
    // The clause is the lower-cased sentence (no clause opener, no ";" or ":" to cut at).
    const clause = text.toLowerCase();
    expect(reasoningContradiction(text, false, "fail")).toBe(
      `the judge's reasoning says it is fully met ("${clause}") but its score fail fails`,
    );
  });

  it.each([
    ["The budget is not justified.", "the budget is not justified."],
    ["No evaluation plan is given.", "no evaluation plan is given."],
  ])("a plain negative beside a pass is still flagged: %s", (text, clause) => {
    // "justified" and "given" are presence words turned by a negator no negative term took.
    expect(reasoningContradiction(text, true, "pass")).toBe(
      `the judge's reasoning says it is not met ("${clause}") but its score pass passes`,
    );
  });

  it.each([
    // "not" and "without" are both spent on "gaps": two negators, so the gaps are there.
    ["a triple negation", "The budget is not without gaps."],
    // The clause's denial turns the double negative back: some ineligible costs are included.
    ["a denied double negative", "It is not true that no ineligible costs are included."],
    // "no" is six words before "ineligible", out of its reach of five: a flaw as stated.
    ["a negation out of reach", "No line in the detailed travel cost table is ineligible."],
  ])("%s reads as a flaw, flagged beside a pass", (_name, text) => {
    expect(readReasoningStance(text)).toMatchObject({ verdict: "not met", glowing: false });
    expect(reasoningContradiction(text, true, "pass")).toContain("says it is not met");
  });

  it.each([
    // "not" reaches two words ahead: it stays with "compensate", so the absence is no double negative.
    "Good formatting does not compensate for the absence of a methodology.",
    // The negator denies the thing first named: "no mitigation", "no evidence".
    "There is no mitigation for the gaps.",
    "No evidence of gaps is given.",
  ])(
    "a negator that denies something else is no double negative: %s beside a fail is not flagged",
    (text) => {
      expect(readReasoningStance(text).glowing).toBe(false);
      expect(reasoningContradiction(text, false, "fail")).toBeUndefined();
    },
  );
});

describe("the contradiction message", () => {
  it("names the clause and the score, and nothing when the score is undecided", () => {
    expect(reasoningContradiction("The requirement is not addressed.", true, "0.9")).toBe(
      'the judge\'s reasoning says it is not met ("the requirement is not addressed.") but its score 0.9 passes',
    );
    expect(reasoningContradiction("Clearly meets the criterion.", false, "2")).toContain(
      "says it is fully met",
    );
    expect(
      reasoningContradiction("The requirement is not addressed.", null, "n/a"),
    ).toBeUndefined();
    expect(reasoningContradiction("", true, "1")).toBeUndefined();
  });
});
