import { describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { checkQuote, quoteSource, wordsOf } from "../../src/engine/evidence.js";
import { jsonAnswer, ScriptedChatModel } from "../doubles/index.js";
import { catalogOf, judgeOf } from "./helpers.js";

const PROPOSAL = [
  "Our consortium of three municipalities will pilot a shared  permit portal in 2026.",
  "The portal cuts the average processing time from 41 to 12 days, measured on 2,300 cases.",
  "Two councils have expressed informal interest in joining the second phase.",
].join("\n");

const MADE_UP = "signed letters of intent with 12 councils";

function oneCheckCatalog() {
  return catalogOf({
    id: "support",
    name: "Support",
    version: "1",
    criteria: [
      {
        id: "partners",
        title: "Partner commitment",
        description: "Partners have committed to the project.",
        weight: 1,
        method: { kind: "check" },
      },
    ],
  });
}

async function evaluateWithQuotes(quotes: readonly string[], result: "pass" | "fail" = "pass") {
  const model = new ScriptedChatModel({
    script: [jsonAnswer({ reasoning: "Partners are committed, see the quote.", quotes, result })],
  });
  return evaluateContent({
    content: PROPOSAL,
    catalog: oneCheckCatalog(),
    model: judgeOf(model),
  });
}

describe("checkQuote: a judge's quote against the content", () => {
  const source = quoteSource(PROPOSAL);

  it("finds a quote word for word despite case, punctuation and whitespace", () => {
    expect(
      checkQuote(
        "our consortium of three MUNICIPALITIES will pilot a shared permit portal",
        source,
      ),
    ).toEqual({
      verified: true,
      similarity: 1,
    });
  });

  it("tolerates a small difference: one word of nine left out of the quote's stretch", () => {
    // "cuts the processing time from 41 to 12 days" misses "average": 8 of its 8 words are in
    // a stretch of 9 (the window allows two extra words), so it is found with similarity 1.
    expect(checkQuote("cuts the processing time from 41 to 12 days", source)).toEqual({
      verified: true,
      similarity: 1,
    });
    // One word changed of ten: 9 / 10 of the words are there.
    expect(checkQuote("the portal cuts the mean processing time from 41 to", source)).toEqual({
      verified: true,
      similarity: 0.9,
    });
  });

  it("a long quote may miss one word in ten, never more: words added to a true quote are flagged", () => {
    // The whole content (41 words) and "and signed letters of commitment": the content's one
    // "of" matches one of the quote's two, so 41 of 46 words are found (0.891), 5 missing where
    // 46 words allow 4.
    const padded = `${PROPOSAL} and signed letters of commitment`;
    expect(checkQuote(padded, source)).toEqual({ verified: false, similarity: 0.891 });
    // With "and signed" only: 41 of 43 words (0.953), 2 missing where 43 allow 4.
    expect(checkQuote(`${PROPOSAL} and signed`, source)).toEqual({
      verified: true,
      similarity: 0.953,
    });
  });

  it("flags the made-up quote: at best 2 of its 7 words share a stretch of the content", () => {
    // "…from 41 to 12 days, measured on 2,300 cases. Two councils…": "12" and "councils" fall in
    // one stretch of nine words; "of" (consortium of three) is far from both: 2 / 7 = 0.286.
    expect(checkQuote(MADE_UP, source)).toEqual({ verified: false, similarity: 0.286 });
  });

  it("short quotes count only word for word", () => {
    expect(checkQuote("two councils", source).verified).toBe(true);
    expect(checkQuote("three councils", source)).toEqual({ verified: false, similarity: 0.5 });
  });

  it("a quote with no words is never verified", () => {
    expect(checkQuote(" … — ", source)).toEqual({ verified: false, similarity: 0 });
  });

  it("normalises Unicode compatibility forms and case", () => {
    expect(wordsOf("ＰＯＲＴＡＬ Ünïcode")).toEqual(["portal", "ünïcode"]);
  });
});

describe("checked evidence in evaluateContent", () => {
  it("a made-up quote is flagged on the criterion and forces human review", async () => {
    const result = await evaluateWithQuotes([MADE_UP]);
    const [partners] = result.criteria;
    expect(partners?.met).toBe(true);
    expect(partners?.quotes).toHaveLength(1);
    expect(partners?.quotes?.[0]).toMatchObject({ text: MADE_UP, verified: false });
    expect(result.passed).toBe(false);
    expect(result.verdict).toBe("borderline");
    expect(result.humanReviewRequired).toBe(true);
    expect(result.humanReviewReasons).toEqual([
      `criterion partners was met on quotes the content does not contain ("${MADE_UP}")`,
    ]);
    expect(result.warnings).toContain(
      `partners: the judge quoted "${MADE_UP}", which the content does not contain`,
    );
    expect(result.evidence).toEqual({ quotes: 1, verified: 0, unverified: 1 });
  });

  it("the ways a judge writes 'nothing to quote' are no quotes, as in the table's quotes cell", async () => {
    const result = await evaluateWithQuotes(["N/A", "none", "…"]);
    expect(result.criteria[0]?.quotes).toBeUndefined();
    expect(result.evidence).toBeUndefined();
    expect(result.humanReviewRequired).toBe(false);
    expect(result.passed).toBe(true);
  });

  it("a verified quote supports the pass: no review, the quote shown as verified", async () => {
    const quote = "Two councils have expressed informal interest";
    const result = await evaluateWithQuotes([quote]);
    expect(result.passed).toBe(true);
    expect(result.humanReviewRequired).toBe(false);
    expect(result.criteria[0]?.quotes).toEqual([{ text: quote, verified: true, similarity: 1 }]);
    expect(result.evidence).toEqual({ quotes: 1, verified: 1, unverified: 0 });
  });

  it("one verified quote beside a missing one: the missing one is flagged, the pass stands", async () => {
    const result = await evaluateWithQuotes([
      "Two councils have expressed informal interest",
      MADE_UP,
    ]);
    expect(result.passed).toBe(true);
    expect(result.criteria[0]?.quotes?.map((q) => q.verified)).toEqual([true, false]);
    expect(result.warnings).toContain(
      `partners: the judge quoted "${MADE_UP}", which the content does not contain`,
    );
  });

  it("a failed criterion with a missing quote is flagged but needs no reviewer to fail", async () => {
    const result = await evaluateWithQuotes([MADE_UP], "fail");
    expect(result.passed).toBe(false);
    expect(result.humanReviewRequired).toBe(false);
    expect(result.criteria[0]?.quotes?.[0]?.verified).toBe(false);
  });

  it("a quote from a source document the judge was given counts as found", async () => {
    const model = new ScriptedChatModel({
      script: [
        jsonAnswer({
          reasoning: "The call text requires it and the content meets it.",
          quotes: ["applicants must name at least two partner municipalities"],
          result: "pass",
        }),
      ],
    });
    const result = await evaluateContent({
      content: PROPOSAL,
      catalog: oneCheckCatalog(),
      model: judgeOf(model),
      documents: [
        { name: "call.txt", text: "Applicants must name at least two partner municipalities." },
      ],
    });
    expect(result.criteria[0]?.quotes?.[0]?.verified).toBe(true);
    expect(result.passed).toBe(true);
  });

  it("an answer without quotes is scored as before, with no evidence figures", async () => {
    const result = await evaluateWithQuotes([]);
    expect(result.passed).toBe(true);
    expect(result.criteria[0]?.quotes).toBeUndefined();
    expect(result.evidence).toBeUndefined();
  });
});
