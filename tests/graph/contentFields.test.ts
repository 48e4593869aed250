/**
 * Structured content as fields and back: the research, the solution sought and the connection
 * pairs shown as labelled fields (known ones first, in the writer's order, then what a writer
 * added), and edited fields read back through each content's schema — with the field at fault
 * named, blank items dropped, and hostile keys, duplicates and oversized forms refused.
 */
import { describe, expect, it } from "vitest";
import {
  type ContentField,
  contentForm,
  contentFromForm,
  describeIssue,
  FIELD_FORM_LIMITS,
  type FieldEntry,
  listItems,
} from "../../src/graph/contentFields.js";
import {
  CONNECTION_PAIRS_STAGE,
  RESEARCH_STAGE,
  SOLUTION_STAGE,
  sectionStage,
} from "../../src/graph/stages.js";
import { fieldLabel, structuredContentOf } from "../../src/graph/structuredContent.js";

const research = structuredContentOf(RESEARCH_STAGE)!;
const solution = structuredContentOf(SOLUTION_STAGE)!;
const pairs = structuredContentOf(CONNECTION_PAIRS_STAGE)!;

const entries = (fields: readonly ContentField[]): FieldEntry[] =>
  fields.map(({ key, kind, text }) => ({ key, kind, text }));

describe("a structured content as fields", () => {
  it("shows the research's known fields in order, labelled, and keeps an added nested field as JSON", () => {
    const form = contentForm(research, {
      sources: ["Ministry call, section 4"],
      funder: "Harrowgate Water Fund: safe water for upland villages",
      priorities: ["spring capture", "women-led maintenance"],
      reviewerNotes: { checkedBy: "ops" },
    });
    expect(form.shape).toBe("object");
    if (form.shape !== "object") return;
    expect(form.fields.map((f) => f.key)).toEqual([
      "funder",
      "mission",
      "applicant",
      "project",
      "priorities",
      "eligibility",
      "evaluationCriteria",
      "fundingRange",
      "requiredSections",
      "deadlinesAndRules",
      "sources",
      "reviewerNotes",
    ]);
    const byKey = new Map(form.fields.map((f) => [f.key, f]));
    expect(byKey.get("priorities")).toMatchObject({
      label: "Priorities",
      kind: "list",
      text: "spring capture\nwomen-led maintenance",
      items: ["spring capture", "women-led maintenance"],
    });
    expect(byKey.get("evaluationCriteria")).toMatchObject({
      label: "Evaluation criteria",
      kind: "list",
      text: "",
    });
    expect(byKey.get("reviewerNotes")).toMatchObject({ kind: "json", label: "Reviewer notes" });
    expect(JSON.parse(byKey.get("reviewerNotes")?.text ?? "")).toEqual({ checkedBy: "ops" });
  });

  it("round-trips: fields read back give the same content", () => {
    const value = {
      problem: "Hand pumps fail within two years in 40% of villages",
      desiredOutcomes: ["pumps working after five years"],
      excludedApproaches: ["new boreholes"],
      fundingNote: 12000,
    };
    const form = contentForm(solution, value);
    if (form.shape !== "object") throw new Error("object expected");
    const back = contentFromForm(
      solution,
      { shape: "object", fields: entries(form.fields) },
      value,
    );
    // The fields the content leaves empty are sent as removed (null), and stay absent.
    expect(back).toMatchObject({ ok: true, value: { ...value, fundingNote: "12000" } });
    if (back.ok) expect(back.edit).toMatchObject({ preferredApproaches: null, evidence: null });
  });

  it("gives one set of fields per connection pair", () => {
    const form = contentForm(pairs, [
      { funderNeed: "repairs", applicantCapability: "trained mechanics", strength: "strong" },
      { funderNeed: "records", applicantCapability: "none" },
    ]);
    if (form.shape !== "list") throw new Error("list expected");
    expect(form.items).toHaveLength(2);
    expect(form.items[1]?.map((f) => [f.key, f.text])).toEqual([
      ["funderNeed", "records"],
      ["applicantCapability", "none"],
      ["evidence", ""],
      ["strength", ""],
    ]);
  });

  it("labels fields from camelCase and snake_case keys", () => {
    expect(fieldLabel("deadlinesAndRules")).toBe("Deadlines and rules");
    expect(fieldLabel("applicant_capability")).toBe("Applicant capability");
    expect(fieldLabel("x")).toBe("X");
  });
});

describe("edited fields read back", () => {
  it("takes lists one item a line, with or without bullets; an emptied field is removed", () => {
    expect(listItems("- one\n\n* two\n   three  \n-\n")).toEqual(["one", "two", "three", "-"]);
    const current = {
      funder: "Harrowgate Water Fund",
      priorities: ["spring capture"],
      sources: ["Ministry call, section 4"],
    };
    const read = contentFromForm(
      research,
      {
        shape: "object",
        fields: [
          { key: "funder", kind: "text", text: "  Harrowgate Water Fund\nsecond line  " },
          { key: "priorities", kind: "list", text: "- spring capture\n- maintenance" },
          { key: "sources", kind: "list", text: "   \n" },
        ],
      },
      current,
    );
    expect(read).toEqual({
      ok: true,
      value: {
        funder: "Harrowgate Water Fund\nsecond line",
        priorities: ["spring capture", "maintenance"],
      },
      edit: {
        funder: "Harrowgate Water Fund\nsecond line",
        priorities: ["spring capture", "maintenance"],
        sources: null,
      },
    });
  });

  it("keeps the fields a form leaves out, and refuses emptying or leaving out a required one", () => {
    const current = {
      funder: "Harrowgate Water Fund",
      priorities: ["spring capture"],
      eligibility: ["registered charity"],
      sources: ["Ministry call, section 4"],
    };
    // A partial form: only the eligibility is sent; the other fields keep their content.
    const partial = contentFromForm(
      research,
      {
        shape: "object",
        fields: [{ key: "eligibility", kind: "list", text: "- upland villages" }],
      },
      current,
    );
    expect(partial).toMatchObject({
      ok: true,
      value: { ...current, eligibility: ["upland villages"] },
    });
    // Emptying the required funder is refused, naming it; so is a research with nothing to keep.
    const emptied = contentFromForm(
      research,
      { shape: "object", fields: [{ key: "funder", kind: "text", text: " " }] },
      current,
    );
    expect(emptied.ok).toBe(false);
    if (!emptied.ok) {
      expect(emptied.issues.map((i) => describeIssue(research, i))).toEqual([
        "Funder: is required: it cannot be left out or emptied",
      ]);
    }
    const nothing = contentFromForm(research, {
      shape: "object",
      fields: [{ key: "sources", kind: "list", text: "- p. 4" }],
    });
    expect(nothing.ok).toBe(false);
    if (!nothing.ok) {
      expect(nothing.issues.map((i) => describeIssue(research, i))).toEqual([
        "Funder: is required: it cannot be left out or emptied",
        "Priorities: is required: it cannot be left out or emptied",
      ]);
    }
  });

  it("names the fields at fault in a pair", () => {
    const read = contentFromForm(pairs, {
      shape: "list",
      items: [
        [
          { key: "funderNeed", kind: "text", text: "repairs" },
          { key: "applicantCapability", kind: "text", text: "mechanics" },
        ],
        [
          { key: "funderNeed", kind: "text", text: "" },
          { key: "applicantCapability", kind: "text", text: "" },
          { key: "strength", kind: "text", text: "" },
        ],
        [
          { key: "funderNeed", kind: "text", text: "records" },
          { key: "strength", kind: "text", text: "very strong" },
        ],
      ],
    });
    expect(read.ok).toBe(false);
    if (read.ok) return;
    // The blank second item is dropped, but the issues name the third as the form shows it:
    // the page marks that item's fields, the terminal's form names the item the reviewer wrote.
    expect(read.issues.map((i) => i.path)).toEqual([
      [2, "applicantCapability"],
      [2, "strength"],
    ]);
    expect(read.issues.map((i) => describeIssue(pairs, i))).toEqual([
      "Applicant capability (pair 3): is required: it cannot be left out or emptied",
      "Strength (pair 3): is one of strong, moderate, weak",
    ]);
  });

  it("refuses a list made only of blank items", () => {
    const read = contentFromForm(pairs, {
      shape: "list",
      items: [[{ key: "funderNeed", kind: "text", text: "   " }]],
    });
    expect(read).toMatchObject({ ok: false, issues: [{ message: "there is no connection pair" }] });
  });

  it("refuses hostile or malformed keys, duplicates, bad JSON and oversized forms", () => {
    for (const key of [
      "__proto__",
      "constructor",
      "prototype",
      "has space",
      "1st",
      "a".repeat(65),
      "",
    ]) {
      const read = contentFromForm(research, {
        shape: "object",
        fields: [
          { key: "funder", kind: "text", text: "F" },
          { key, kind: "text", text: "x" },
        ],
      });
      expect(read.ok, JSON.stringify(key)).toBe(false);
      if (!read.ok) expect(read.issues[0]?.message).toContain("is not a field name");
    }
    const twice = contentFromForm(research, {
      shape: "object",
      fields: [
        { key: "funder", kind: "text", text: "F" },
        { key: "funder", kind: "text", text: "G" },
      ],
    });
    expect(twice).toMatchObject({
      ok: false,
      issues: [{ path: ["funder"], message: "is given twice" }],
    });
    const json = contentFromForm(research, {
      shape: "object",
      fields: [
        { key: "funder", kind: "text", text: "F" },
        { key: "notes", kind: "json", text: '{"__proto__": {"admin": true}}' },
      ],
    });
    expect(json).toMatchObject({ ok: false, issues: [{ path: ["notes"] }] });
    if (!json.ok) expect(json.issues[0]?.message).toContain('"__proto__" is not allowed');
    const many = Array.from({ length: FIELD_FORM_LIMITS.fields + 1 }, (_, i) => ({
      key: `f${i}`,
      kind: "text" as const,
      text: "x",
    }));
    expect(contentFromForm(research, { shape: "object", fields: many })).toMatchObject({
      ok: false,
      issues: [{ message: `has more than ${FIELD_FORM_LIMITS.fields} fields` }],
    });
    // A form of the other shape.
    expect(contentFromForm(pairs, { shape: "object", fields: [] })).toMatchObject({ ok: false });
  });

  it("a text stage has no structured type", () => {
    expect(structuredContentOf(sectionStage("budget", "Budget"))).toBeUndefined();
  });
});
