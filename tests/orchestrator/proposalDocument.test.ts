/**
 * The proposal document from a thread's state, and its Markdown: the body is the proposal's
 * sections in config order, appendix A the research, solution sought and connection pairs as
 * labelled fields, appendix B each stage's gate record and decisions; an unfinished thread is a
 * draft naming what is left; errors of stages that moved on are superseded. Section text that
 * tries to be HTML stays text, and field values cannot become Markdown.
 */
import { describe, expect, it } from "vitest";
import { demoteHeadings, markdownText, withoutRawHtml } from "../../src/graph/markdownText.js";
import type { DecisionRecord, ProcessingStatus } from "../../src/graph/model.js";
import { loadProposalConfig, proposalStages } from "../../src/graph/proposalGraph.js";
import type { OverallProposalStateType } from "../../src/graph/state.js";
import {
  buildProposalDocument,
  ProposalDocumentSchema,
  threadErrors,
} from "../../src/proposal/document.js";
import { renderProposalMarkdown } from "../../src/proposal/markdown.js";
import type { EvaluationResult } from "../../src/scoring/result.js";
import { SECTION_IDS } from "../proposalStages.js";

const STAGES = proposalStages(loadProposalConfig());

function evaluation(score: number, passed: boolean, verdict: "pass" | "borderline" | "fail") {
  return {
    passed,
    timestamp: "2026-02-01T09:00:00.000Z",
    evaluator: "evalgate",
    overallScore: score,
    scores: {},
    strengths: [],
    weaknesses: [],
    suggestions: [],
    feedback: "",
    verdict,
    criteria: [{ id: "c1", evaluated: true }],
    catalog: { id: "c", version: "1" },
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    warnings: [],
  } as unknown as EvaluationResult;
}

function decision(contentId: string, action: DecisionRecord["action"], extra = {}): DecisionRecord {
  return {
    contentId,
    contentType: contentId,
    action,
    reviewer: "noor",
    decidedAt: "2026-02-01T10:15:00.000Z",
    evaluation: null,
    staled: [],
    ...extra,
  };
}

const HOSTILE = [
  "Our plan <script>alert('x')</script> is sound.",
  "",
  "# A heading the writer added",
  "",
  "<img src=x onerror=alert(1)> and `<b>code</b>` stay as they are in code.",
  "",
  "```html",
  "<div>in a fence</div>",
  "```",
].join("\n");

/** Every stage accepted, as a finished run leaves them. */
function finishedState(): OverallProposalStateType {
  const sections = Object.fromEntries(
    SECTION_IDS.map((id) => [
      id,
      {
        id,
        status: (id === "budget" ? "edited" : "approved") as ProcessingStatus,
        content: id === "methodology" ? HOSTILE : `The ${id} of the Saltmarsh Wardens bid.`,
        evaluation: evaluation(0.82, true, "pass"),
      },
    ]),
  );
  return {
    rfpDocument: "\n  Saltmarsh Restoration Fund 2027 — call for proposals\nDetails follow.",
    researchResults: {
      funder: "Saltmarsh Fund *(national)*",
      applicant: "Estuary Wardens Trust",
      project: "Wardens of the Marsh",
      priorities: ["- marsh <b>restoration</b>", "1. volunteer wardens"],
    },
    researchStatus: "approved",
    researchEvaluation: evaluation(0.9, true, "pass"),
    solutionSoughtResults: { problem: "Marsh loss of 3% a year" },
    solutionSoughtStatus: "approved",
    solutionSoughtEvaluation: evaluation(0.7, false, "borderline"),
    connectionPairs: [
      { funderNeed: "wardens", applicantCapability: "40 trained volunteers", strength: "strong" },
    ],
    connectionPairsStatus: "approved",
    connectionPairsEvaluation: evaluation(0.8, true, "pass"),
    sections,
    revisionCounts: { solution: 1 },
    revisionFeedback: { solution: "Quote the call." },
    reviewHistory: [
      decision("research", "approve"),
      decision("solution", "revise", { feedback: "Quote the call." }),
      decision("solution", "approve", { comment: "Borderline, but fine" }),
      decision("budget", "edit"),
    ],
    errors: [
      "[evaluate research] model error (timeout): the judge timed out",
      "[generate budget] processing error (processing): no text",
    ],
  } as unknown as OverallProposalStateType;
}

describe("the proposal document", () => {
  it("puts the sections in config order in the body, the inputs in appendix A and every stage's gate in appendix B", () => {
    const document = buildProposalDocument({
      threadId: "t-salt",
      values: finishedState(),
      stages: STAGES,
      finished: true,
    });
    expect(ProposalDocumentSchema.parse(document)).toEqual(document);
    expect(document.state).toBe("complete");
    expect(document.title).toBe(
      "Wardens of the Marsh — a proposal by Estuary Wardens Trust to Saltmarsh Fund *(national)*",
    );
    expect(document.respondsTo).toBe("Saltmarsh Restoration Fund 2027 — call for proposals");
    expect(document.sections.map((s) => s.stage)).toEqual([...SECTION_IDS]);
    expect(document.inputs.map((i) => [i.stage, i.shape])).toEqual([
      ["research", "object"],
      ["solution", "object"],
      ["connection_pairs", "list"],
    ]);
    expect(document.pending).toEqual([]);
    const solution = document.gates.find((g) => g.stage === "solution");
    expect(solution).toMatchObject({
      verdict: "borderline",
      passed: false,
      round: 2,
      decisions: [
        { action: "revise", reviewer: "noor", feedback: "Quote the call." },
        { action: "approve", reviewer: "noor", comment: "Borderline, but fine" },
      ],
    });
    expect(document.gates.find((g) => g.stage === "budget")).toMatchObject({
      status: "edited",
      scoredBeforeEdit: true,
      judged: true,
    });
    // Both stages moved on: their errors are history, not current.
    expect(document.errors.current).toEqual([]);
    expect(document.errors.superseded.map((e) => e.stage)).toEqual(["research", "budget"]);
  });

  it("is a draft for an unfinished thread, naming what is not yet written or approved", () => {
    const values = finishedState();
    values.sections.timeline = {
      id: "timeline",
      status: "awaiting_review",
      content: "Draft timeline.",
    };
    delete values.sections.conclusion;
    const document = buildProposalDocument({
      threadId: "t",
      values,
      stages: STAGES,
      finished: false,
    });
    expect(document.state).toBe("draft");
    expect(document.pending.map((p) => [p.stage, p.status])).toEqual([
      ["timeline", "awaiting_review"],
      ["conclusion", "not_started"],
    ]);
    const md = renderProposalMarkdown(document);
    expect(md).toContain(
      "> **Draft.** This proposal is not finished: not every stage is written and approved yet.\n> Not yet written or approved: Timeline (waiting for a reviewer), Conclusion (not started).",
    );
    expect(md).toContain(
      "## Timeline\n\n_Not approved yet (waiting for a reviewer)._\n\nDraft timeline.",
    );
    expect(md).toContain("## Conclusion\n\n_Not written yet._");
    // Finished with a stage not accepted is still a draft.
    const stuck = buildProposalDocument({ threadId: "t", values, stages: STAGES, finished: true });
    expect(stuck.state).toBe("draft");
  });

  it("gives no score for an evaluation that judged no criterion: never a silent zero", () => {
    const values = finishedState();
    values.researchEvaluation = {
      ...evaluation(0, false, "borderline"),
      criteria: [{ id: "c1", evaluated: false, judgeError: "no answer" }],
    } as unknown as EvaluationResult;
    const document = buildProposalDocument({
      threadId: "t",
      values,
      stages: STAGES,
      finished: true,
    });
    expect(document.gates[0]).toMatchObject({ judged: false, overallScore: null });
    const row = renderProposalMarkdown(document)
      .split("\n")
      .find((l) => l.startsWith("| Research |"));
    expect(row).toContain("| Research | approved | not evaluated | borderline |");
  });

  it("names the catalog version each stage was judged with: the registry's when a store supplied it", () => {
    const values = finishedState();
    values.researchEvaluation = {
      ...evaluation(0.9, true, "pass"),
      catalog: { id: "research", version: "1.0.1", registryVersion: "research@1.0.1" },
    } as unknown as EvaluationResult;
    const document = buildProposalDocument({
      threadId: "t",
      values,
      stages: STAGES,
      finished: true,
    });
    expect(document.gates[0]?.judgedWith).toBe("research@1.0.1");
    expect(document.gates[1]?.judgedWith).toBe("c@1");
    const row = renderProposalMarkdown(document)
      .split("\n")
      .find((l) => l.startsWith("| Research |"));
    expect(row).toContain("| yes | research@1.0.1 |");
  });

  it("keeps the current error of a stage that still stands on it, and supersedes the rest", () => {
    const values = finishedState();
    values.researchStatus = "error";
    values.errors = [
      "[evaluate research] first failure",
      "[evaluate research] second failure",
      "[load RFP] no RFP",
      "[evaluate nowhere] a stage this graph does not have",
    ];
    const errors = threadErrors(values, STAGES);
    expect(errors.current).toEqual([
      { stage: "research", message: "[evaluate research] second failure" },
      { message: "[load RFP] no RFP" },
      { message: "[evaluate nowhere] a stage this graph does not have" },
    ]);
    expect(errors.superseded).toEqual([
      { stage: "research", message: "[evaluate research] first failure" },
    ]);
  });
});

describe("the proposal as Markdown", () => {
  const md = renderProposalMarkdown(
    buildProposalDocument({
      threadId: "t-salt",
      values: finishedState(),
      stages: STAGES,
      finished: true,
    }),
  );

  it("has the title, the sections in order, then the two appendices", () => {
    const headings = md.split("\n").filter((l) => /^##? /.test(l));
    expect(headings).toEqual([
      "# Wardens of the Marsh — a proposal by Estuary Wardens Trust to Saltmarsh Fund \\*(national)\\*",
      "## Problem Statement",
      "## Methodology",
      "## Budget",
      "## Timeline",
      "## Conclusion",
      "## Appendix A: research, solution sought and connection pairs",
      "## Appendix B: gate results and decisions",
    ]);
    expect(md).not.toContain("Draft");
    expect(md).toContain(
      "\n_In response to Saltmarsh Restoration Fund 2027 — call for proposals_\n",
    );
  });

  it("keeps a section's Markdown but never its raw HTML, and moves its headings under the section's", () => {
    expect(md).not.toMatch(/<script|<img/);
    expect(md).toContain("Our plan &lt;script>alert('x')&lt;/script> is sound.");
    expect(md).toContain("### A heading the writer added");
    // In code, text shows as written anyway: left alone.
    expect(md).toContain("`<b>code</b>`");
    expect(md).toContain("```html\n<div>in a fence</div>\n```");
  });

  it("shows the inputs as labelled fields whose values cannot become Markdown or HTML", () => {
    expect(md).toContain("**Funder:** Saltmarsh Fund \\*(national)\\*");
    expect(md).toContain(
      "**Priorities:**\n\n- \\- marsh \\<b\\>restoration\\</b\\>\n- 1\\. volunteer wardens",
    );
    expect(md).toContain("#### Pair 1\n\n**Funder need:** wardens");
  });

  it("lists every stage's gate record and the decisions, with the words of the gate outcomes", () => {
    const rows = md.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Stage"));
    expect(rows).toHaveLength(8);
    expect(rows[1]).toBe(
      "| Solution Sought | approved | 0.70 | borderline | — | no | c@1 | 2 | revise by noor (2026-02-01 10:15): “Quote the call.”; approve by noor (2026-02-01 10:15): “Borderline, but fine” |",
    );
    expect(rows[5]).toContain("| Budget | edited by a reviewer | 0.82 (before the edit) | pass |");
    expect(md).toContain("**Earlier errors (superseded: the stage has moved on since)**");
    expect(md).not.toContain("\n**Errors**\n");
  });
});

describe("Markdown text helpers", () => {
  it("escape what Markdown would read, keep what is plain", () => {
    expect(markdownText("a | b * c _d_ [x](y) <i> & ~ # !")).toBe(
      "a \\| b \\* c \\_d\\_ \\[x\\](y) \\<i\\> &amp; \\~ \\# \\!",
    );
    expect(markdownText("- item\n+ item\n3. item\n---\n1.5 million")).toBe(
      "\\- item  \n\\+ item  \n3\\. item  \n\\---  \n1.5 million",
    );
    expect(withoutRawHtml("x <!-- c --> <?php ?> </p> a<b `<i>` ``<x>`` ` <y>")).toBe(
      "x &lt;!-- c --> &lt;?php ?> &lt;/p> a&lt;b `<i>` ``<x>`` ` &lt;y>",
    );
    expect(demoteHeadings("# A\n###### F\n#nope\n```\n# code\n```", 2)).toBe(
      "### A\n###### F\n#nope\n```\n# code\n```",
    );
  });
});
