/**
 * The terminal's edit form of structured content: written from the content (a heading per field,
 * lists one item a line), read back as an edit of it by the edit rule — round trips, headings in
 * any case, lines escaped so a value cannot pose as a heading or a note, JSON in the form's place,
 * an emptied field removed, a deleted heading's field kept — and refusals that name the line or
 * the field.
 */
import { describe, expect, it } from "vitest";
import { readFieldForm, writeFieldForm } from "../../src/cli/review/fieldForm.js";
import { FIELD_FORM_LIMITS } from "../../src/graph/contentFields.js";
import { CONNECTION_PAIRS_STAGE, RESEARCH_STAGE, SOLUTION_STAGE } from "../../src/graph/stages.js";
import { applyContentEdit, structuredContentOf } from "../../src/graph/structuredContent.js";

const research = structuredContentOf(RESEARCH_STAGE)!;
const solution = structuredContentOf(SOLUTION_STAGE)!;
const pairs = structuredContentOf(CONNECTION_PAIRS_STAGE)!;

/** The content a decision with the form's edit stores: the edit applied to `current`. */
function readBack(type: typeof research, text: string, current?: unknown): unknown {
  const read = readFieldForm(type, text, current);
  if (!read.ok) throw new Error(read.problems.join("\n"));
  const applied = applyContentEdit(type, current, JSON.parse(read.json));
  if (!applied.ok) throw new Error(JSON.stringify(applied.issues));
  return applied.value;
}

describe("the edit form, written and read back", () => {
  it("round-trips the research, values that look like markup included", () => {
    const value = {
      funder: "Moorland Water Trust\n# not a heading\n\\ a backslash line\n<!-- not a note -->",
      priorities: ["peat restoration", "- a dash inside"],
      sources: ["call p. 3"],
      reviewerNotes: { checked: ["funder"], by: "```ops```" },
    };
    const form = writeFieldForm(research, value);
    expect(form).toContain(
      "## Funder\nMoorland Water Trust\n\\# not a heading\n\\\\ a backslash line\n\\<!-- not a note -->\n",
    );
    expect(form).toContain("## Priorities\n- peat restoration\n- - a dash inside\n");
    expect(form).toContain("## Eligibility\n\n");
    expect(form).toContain("## reviewerNotes\n````json\n");
    expect(readBack(research, form, value)).toEqual(value);
  });

  it("removes a field left empty, keeps one whose heading is deleted, and keeps the required ones", () => {
    const value = {
      funder: "Moorland Water Trust",
      priorities: ["peat restoration"],
      eligibility: ["registered charity"],
      sources: ["call p. 3"],
    };
    const form = writeFieldForm(research, value);
    expect(form).toContain("A field left empty is removed (Funder and Priorities cannot be)");
    const emptied = form.replace("## Sources\n- call p. 3\n", "## Sources\n\n");
    expect(readBack(research, emptied, value)).toEqual({
      funder: value.funder,
      priorities: value.priorities,
      eligibility: value.eligibility,
    });
    const deleted = form.replace("## Eligibility\n- registered charity\n", "");
    expect(readBack(research, deleted, value)).toEqual(value);
    const noFunder = form.replace("## Funder\nMoorland Water Trust\n", "## Funder\n\n");
    const read = readFieldForm(research, noFunder, value);
    expect(read).toEqual({
      ok: false,
      problems: ["Funder: is required: it cannot be left out or emptied"],
    });
  });

  it("round-trips connection pairs, one `# Pair <n>` block each; an empty list offers one blank pair", () => {
    const value = [
      { funderNeed: "peat survey", applicantCapability: "ecologists", strength: "strong" },
      { funderNeed: "school visits", applicantCapability: "none", evidence: "—" },
    ];
    const form = writeFieldForm(pairs, value);
    expect(form).toContain("# Pair 1\n\n## Funder need\npeat survey\n");
    expect(form).toContain("# Pair 2\n");
    expect(readBack(pairs, form, value)).toEqual(value);
    const blank = writeFieldForm(pairs, []);
    expect(blank).toContain("# Pair 1\n\n## Funder need\n\n## Applicant capability\n");
  });

  it("reads headings in any case, by label or key, adds and removes pairs, and takes JSON instead of the form", () => {
    expect(
      readBack(
        solution,
        "## PROBLEM\nPeat loss\n\n##   desired outcomes  \n* wetter bogs\n\n## desiredOutcomes2\nextra",
      ),
    ).toEqual({
      problem: "Peat loss",
      desiredOutcomes: ["wetter bogs"],
      desiredOutcomes2: "extra",
    });
    const edited = [
      "# Pair 1",
      "## funderNeed",
      "survey",
      "## Applicant Capability",
      "ecologists",
      "# Pair 7",
      "## Funder need",
      "signage",
      "## Applicant capability",
      "a print shop",
    ].join("\n");
    expect(readBack(pairs, edited)).toEqual([
      { funderNeed: "survey", applicantCapability: "ecologists" },
      { funderNeed: "signage", applicantCapability: "a print shop" },
    ]);
    const current = { funder: "Moor Trust", priorities: ["peat"] };
    expect(readBack(research, '  {"funder": "As JSON"}', current)).toEqual({
      funder: "As JSON",
      priorities: ["peat"],
    });
  });
});

describe("an edit form that does not fit", () => {
  const problems = (type: typeof research, text: string, current?: unknown) => {
    const read = readFieldForm(type, text, current);
    return read.ok ? [] : read.problems;
  };

  it("names the line of text outside a field, an unknown heading, a field before the first pair", () => {
    expect(problems(research, "Just prose about the funder.\nOver two lines.")).toEqual([
      "line 1: text before the first field heading",
    ]);
    expect(problems(research, "## Funder\nA\n## Favourite food\nsoup")).toEqual([
      'line 3: "Favourite food" is not a field of the research',
    ]);
    expect(problems(pairs, "## Funder need\nx\n# Pair 1\n## Applicant capability\ny")).toEqual([
      'line 1: a field before the first "# Pair" line',
    ]);
  });

  it("names the field at fault by its label, twice-given fields and the schema's rules", () => {
    expect(problems(research, "## Funder\nA\n## funder\nB")).toEqual(["Funder: is given twice"]);
    expect(problems(research, "## Funder\n\n## Sources\n")).toEqual([
      "Funder: is required: it cannot be left out or emptied",
      "Priorities: is required: it cannot be left out or emptied",
    ]);
    expect(problems(pairs, "# Pair 1\n## Funder need\nsurvey\n## Strength\nenormous")).toEqual([
      "Applicant capability (pair 1): is required: it cannot be left out or emptied",
      "Strength (pair 1): is one of strong, moderate, weak",
    ]);
    expect(
      problems(research, '## Funder\nA\n## notes\n```json\n{"__proto__": 1}\n```')[0],
    ).toContain('"__proto__" is not allowed');
  });

  it("checks JSON put in the form's place against the schema, as the review boundary does", () => {
    expect(problems(pairs, '[{"funderNeed": "survey"}]')).toEqual([
      "the connection pairs takes a JSON list of objects (funderNeed, applicantCapability, evidence, …); pair 1 applicantCapability: is required: it cannot be left out or emptied",
    ]);
    expect(problems(research, '{"funder": 42}', { funder: "A", priorities: ["b"] })).toEqual([
      "the research takes a JSON object of its fields (funder, mission, applicant, …); funder: takes text, not a number",
    ]);
    expect(problems(research, '{"funder": "A", "__proto__": {"x": 1}}')[0]).toContain(
      "this is not usable JSON",
    );
    expect(problems(research, '{"funder": ')[0]).toContain("this is not usable JSON");
  });

  it("refuses more items than the form takes", () => {
    const many = Array.from(
      { length: FIELD_FORM_LIMITS.items + 1 },
      (_, i) => `# Pair ${i + 1}\n## Funder need\nn${i}\n## Applicant capability\nc${i}`,
    ).join("\n");
    expect(problems(pairs, many)).toEqual([`has more than ${FIELD_FORM_LIMITS.items} items`]);
  });
});
