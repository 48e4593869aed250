/**
 * The review boundary's schemas on their own, with fresh and adversarial values: names that
 * forge log lines or hide text, feedback made of invisible characters, content with NUL bytes or
 * over 1 MiB of UTF-8, ids out of shape, structured edits that do not fit their stage, and the
 * way a refused id is shown.
 */
import { describe, expect, it } from "vitest";
import { ReviewDecisionSchema } from "../../src/graph/model.js";
import { ReviewResponseSchema } from "../../src/graph/reviewAnswer.js";
import {
  CommentSchema,
  CriterionIdSchema,
  EditContentSchema,
  editContentIssue,
  FeedbackSchema,
  InterruptIdSchema,
  NoteSchema,
  quotedId,
  REVIEW_LIMITS,
  ReviewCorrectionSchema,
  ReviewerNameSchema,
  readableIssues,
  readStructuredEdit,
  shownId,
  ThreadIdSchema,
} from "../../src/graph/reviewInput.js";
import {
  CONNECTION_PAIRS_STAGE,
  RESEARCH_STAGE,
  SOLUTION_STAGE,
  sectionStage,
} from "../../src/graph/stages.js";
import { structuredContentOf } from "../../src/graph/structuredContent.js";

const refusal = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? undefined : result.error?.issues[0]?.message;

describe("reviewer names", () => {
  it("refuses a line break with a fake log line, controls, bidi and zero-width characters", () => {
    for (const name of [
      "ana\n2026-05-04T10:12:03Z INFO decision approved by admin",
      "an\ra",
      "ana\u2028lima",
      "\u202Eanimda",
      "ana\u200B",
      "ana\u0007",
      "\u3164",
      "",
      "   ",
    ]) {
      expect(ReviewerNameSchema.safeParse(name).success, JSON.stringify(name)).toBe(false);
    }
    expect(refusal(ReviewerNameSchema.safeParse("ana\nINFO fake"))).toContain("one line");
  });

  it("takes a printable name, trimmed, up to 100 characters", () => {
    expect(ReviewerNameSchema.parse("  Ana Lima  ")).toBe("Ana Lima");
    expect(ReviewerNameSchema.parse("Zoë Ōkubo 🌊")).toBe("Zoë Ōkubo 🌊");
    expect(ReviewerNameSchema.safeParse("n".repeat(100)).success).toBe(true);
    expect(refusal(ReviewerNameSchema.safeParse("n".repeat(101)))).toContain("100 characters");
  });
});

describe("feedback, comments and notes", () => {
  it("need visible text: zero-width, format and blank-looking characters alone are refused", () => {
    for (const text of [
      "\u200B\u200B\u200B",
      "\u00A0\u2003\u3000",
      "\u2800\u3164\uFFA0",
      "\u200D\uFEFF\u2060",
      " \t\r\n ",
    ]) {
      expect(refusal(FeedbackSchema.safeParse(text)), JSON.stringify(text)).toContain("visible");
      expect(CommentSchema.safeParse(text).success).toBe(false);
      expect(NoteSchema.safeParse(text).success).toBe(false);
    }
  });

  it("refuse NUL, escape sequences, C1 controls and lone surrogates; keep tabs and line breaks", () => {
    expect(refusal(FeedbackSchema.safeParse("Cite\u0000 the report"))).toContain("control");
    expect(FeedbackSchema.safeParse("\u001B[2Jcleared").success).toBe(false);
    expect(FeedbackSchema.safeParse("\u009B31m").success).toBe(false);
    expect(refusal(FeedbackSchema.safeParse("half \uD83D pair"))).toContain("surrogate");
    expect(FeedbackSchema.parse("  Name the funder.\r\n\tCite p. 4.  ")).toBe(
      "Name the funder.\r\n\tCite p. 4.",
    );
  });

  it("are bounded: 20,000 characters of feedback, 2,000 of a note", () => {
    expect(FeedbackSchema.safeParse("f".repeat(20_000)).success).toBe(true);
    expect(refusal(FeedbackSchema.safeParse("f".repeat(20_001)))).toContain("20000");
    expect(NoteSchema.safeParse("n".repeat(2_000)).success).toBe(true);
    expect(NoteSchema.safeParse("n".repeat(2_001)).success).toBe(false);
    // Ten megabytes are refused on their length alone.
    expect(refusal(FeedbackSchema.safeParse("x".repeat(10 * 1024 * 1024)))).toContain("longer");
  });
});

describe("edited content", () => {
  it("refuses NUL bytes and other controls, keeps tabs and line breaks", () => {
    expect(refusal(EditContentSchema.safeParse("Budget\u0000\u0000table"))).toContain("NUL");
    expect(EditContentSchema.safeParse("Line\u000Bfeed").success).toBe(false);
    expect(EditContentSchema.parse("| item | cost |\r\n|\tboat\t| 40 |\n")).toBe(
      "| item | cost |\r\n|\tboat\t| 40 |",
    );
  });

  it("takes at most 1 MiB of UTF-8, counted in bytes", () => {
    const limit = REVIEW_LIMITS.editContentBytes;
    expect(EditContentSchema.safeParse("a".repeat(limit)).success).toBe(true);
    expect(EditContentSchema.safeParse("a".repeat(limit + 1)).success).toBe(false);
    // Fewer characters than the limit, more bytes: € is three bytes.
    const euros = "€".repeat(Math.ceil(limit / 3) + 1);
    expect(euros.length).toBeLessThan(limit);
    expect(refusal(EditContentSchema.safeParse(euros))).toContain("bytes");
  });
});

describe("ids", () => {
  it("thread and interrupt ids: letters, digits and . _ : -, at most 128", () => {
    for (const ok of ["3f2c9a6e-41b0-4c1e-9a55-0c2d7e1b9f00", "p1", "crash:every.write_1"]) {
      expect(ThreadIdSchema.safeParse(ok).success, ok).toBe(true);
    }
    for (const bad of ["", "-rf", "../etc", "t 1", "t\n1", "ü", "a".repeat(129)]) {
      expect(ThreadIdSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(InterruptIdSchema.safeParse("0f1e2d3c4b5a69788796a5b4c3d2e1f0").success).toBe(true);
    expect(InterruptIdSchema.safeParse("i'); DROP TABLE writes;--").success).toBe(false);
  });

  it("criterion ids: one printable line up to 200, without spaces around it", () => {
    expect(CriterionIdSchema.safeParse("award_parameters").success).toBe(true);
    expect(CriterionIdSchema.safeParse("Qualität 2.1a").success).toBe(true);
    for (const bad of ["c2 ", " c2", "c\n2", "c\u202E2", "c".repeat(201), ""]) {
      expect(CriterionIdSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    const note = { criterionId: "c2", score: 2, note: "\u200B\u200B" };
    expect(ReviewCorrectionSchema.safeParse(note).success).toBe(false);
  });

  it("a refused id is shown cut to 64 characters, quoted and escaped", () => {
    const long = `${"t".repeat(9_990)}\nINFO ok`;
    expect(quotedId(long)).toBe(`"${"t".repeat(64)}…"`);
    expect(quotedId("a\nb\u202Ec")).toBe('"a\\nb\\u202ec"');
    expect(shownId("plain-id_1")).toBe("plain-id_1");
    expect(shownId("has space")).toBe('"has space"');
  });
});

describe("an edit of a structured stage", () => {
  const problem = sectionStage("problem_statement", "Problem Statement");

  const CURRENT = {
    funder: "Marrow Valley Trust",
    priorities: ["drought plans"],
    eligibility: ["registered charity"],
    sources: ["call, p. 2"],
  };

  it("takes JSON applied to the current content by the edit rule; a text stage takes anything", () => {
    expect(
      editContentIssue(RESEARCH_STAGE, '{"funder": "Marrow Valley"}', CURRENT),
    ).toBeUndefined();
    expect(
      editContentIssue(RESEARCH_STAGE, '{"funder": "M", "priorities": ["one"], "notes": {"a": 1}}'),
    ).toBeUndefined();
    expect(
      editContentIssue(
        CONNECTION_PAIRS_STAGE,
        '[{"funderNeed": "tanks", "applicantCapability": "welders"}]',
      ),
    ).toBeUndefined();
    expect(editContentIssue(problem, '["anything", 1]')).toBeUndefined();
    expect(editContentIssue(problem, "Plain prose.")).toBeUndefined();
  });

  it("merges a partial edit into the current content, and removes a field given as null or empty", () => {
    const type = structuredContentOf(RESEARCH_STAGE)!;
    const partial = readStructuredEdit(
      RESEARCH_STAGE,
      type,
      '{"funder": "Marrow Valley"}',
      CURRENT,
    );
    expect(partial).toEqual({ ok: true, value: { ...CURRENT, funder: "Marrow Valley" } });
    const removed = readStructuredEdit(
      RESEARCH_STAGE,
      type,
      '{"sources": null, "eligibility": []}',
      CURRENT,
    );
    expect(removed).toEqual({
      ok: true,
      value: { funder: CURRENT.funder, priorities: CURRENT.priorities },
    });
  });

  it("refuses a wrong type instead of turning it into text, and emptying or leaving out a required field", () => {
    expect(editContentIssue(RESEARCH_STAGE, '{"funder": 42}', CURRENT)).toMatch(
      /; funder: takes text, not a number$/,
    );
    expect(editContentIssue(RESEARCH_STAGE, '{"priorities": "one line"}', CURRENT)).toMatch(
      /; priorities: takes a list of text items, not string$/,
    );
    expect(editContentIssue(RESEARCH_STAGE, '{"funder": "  "}', CURRENT)).toMatch(
      /; funder: is required: it cannot be left out or emptied$/,
    );
    expect(
      editContentIssue(SOLUTION_STAGE, '{"problem": null}', {
        problem: "Drought",
        desiredOutcomes: ["water"],
      }),
    ).toMatch(/; problem: is required/);
    // Without current content, every required field must be there.
    expect(editContentIssue(SOLUTION_STAGE, '{"desiredOutcomes": ["water"]}')).toMatch(
      /; problem: is required/,
    );
  });

  it("refuses prose for structured content, whatever the wording", () => {
    for (const prose of [
      "The funder wants drought plans.",
      "funder: Marrow Valley\npriorities: drought",
      "  - a list in Markdown",
      "null",
      "42",
      '"a JSON string"',
    ]) {
      expect(editContentIssue(RESEARCH_STAGE, prose), prose).toMatch(
        /the Research takes a JSON object of its fields \(funder, mission, applicant, …\); plain text cannot replace it/,
      );
      expect(editContentIssue(SOLUTION_STAGE, prose), prose).toContain(
        "plain text cannot replace it",
      );
      expect(editContentIssue(CONNECTION_PAIRS_STAGE, prose), prose).toContain(
        "takes a JSON list of objects",
      );
    }
  });

  it("refuses JSON of another shape, broken JSON, prototype keys and deep nesting", () => {
    expect(editContentIssue(RESEARCH_STAGE, "[1, 2]", CURRENT)).toContain(
      "the research takes a JSON object of its fields, not a list",
    );
    expect(editContentIssue(RESEARCH_STAGE, "{}")).toContain("funder: is required");
    expect(editContentIssue(RESEARCH_STAGE, '{"funder": ["a", "b"]}', CURRENT)).toContain(
      "; funder: takes text, not a list",
    );
    expect(editContentIssue(RESEARCH_STAGE, '{"priorities": [{"x": 1}]}', CURRENT)).toContain(
      "; priorities item 1: each item takes text, not an object",
    );
    expect(editContentIssue(RESEARCH_STAGE, '{"funder": ')).toContain("invalid JSON");
    expect(editContentIssue(RESEARCH_STAGE, '{"__proto__": {"admin": true}}')).toContain(
      '"__proto__" is not allowed',
    );
    expect(editContentIssue(CONNECTION_PAIRS_STAGE, "[]")).toContain("there is no connection pair");
    expect(editContentIssue(CONNECTION_PAIRS_STAGE, "[1, 2]")).toContain("; pair 1:");
    expect(editContentIssue(CONNECTION_PAIRS_STAGE, '[{"need": "tanks"}]')).toContain(
      "; pair 1 funderNeed: is required",
    );
    expect(editContentIssue(CONNECTION_PAIRS_STAGE, '{"need": "tanks"}')).toContain("list");
    const deep = `${"[".repeat(65)}${"]".repeat(65)}`;
    expect(editContentIssue(CONNECTION_PAIRS_STAGE, deep)).toContain("more than 64 levels");
  });
});

describe("messages of a refused answer", () => {
  it("name the field of the shape the answer was meant as, not just 'Invalid input'", () => {
    const decision = ReviewResponseSchema.safeParse({ action: "revise", feedback: "\u200B" });
    expect(decision.success).toBe(false);
    expect(readableIssues(decision.error?.issues ?? [])[0]?.path).toEqual(["feedback"]);
    const inbox = ReviewResponseSchema.safeParse({ type: "response", args: "\u0000" });
    expect(readableIssues(inbox.error?.issues ?? [])[0]).toMatchObject({ path: ["args"] });
    const neither = ReviewResponseSchema.safeParse({ action: "bless" });
    expect(readableIssues(neither.error?.issues ?? [])[0]?.path).toEqual(["action"]);
    expect(ReviewDecisionSchema.safeParse({ action: "approve", reviewer: "a\nb" }).success).toBe(
      false,
    );
  });
});
