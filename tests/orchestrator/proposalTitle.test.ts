/**
 * A proposal is titled as a proposal: from its research (project, applicant, funder), as plain
 * text, with the RFP's title only as the request it responds to — its Markdown marks taken off,
 * never escaped into the title (`# \# Request for Proposals…` was the old title).
 */
import { describe, expect, it } from "vitest";
import { loadProposalConfig, proposalStages } from "../../src/graph/proposalGraph.js";
import type { OverallProposalStateType } from "../../src/graph/state.js";
import { buildProposalDocument } from "../../src/proposal/document.js";
import { renderProposalMarkdown } from "../../src/proposal/markdown.js";
import { plainMarkdownLine, proposalTitle, rfpTitle } from "../../src/proposal/title.js";

const RFP = [
  "# Request for Proposals: Community Climate Resilience Grants, 2025 Cycle",
  "",
  "**Issued by:** The Calder Bay Community Foundation",
].join("\n");

const RESEARCH = {
  funder: "The Calder Bay Community Foundation",
  mission: "Communities of the bay region thrive together.",
  applicant: "Harbor Neighbors Alliance",
  project: "Cool and Dry Homes",
  priorities: ["reach the most exposed residents first"],
};

describe("the RFP's title", () => {
  it("is its first line with text, read as Markdown: marks, escapes, links and code ticks taken off", () => {
    expect(rfpTitle(RFP)).toBe(
      "Request for Proposals: Community Climate Resilience Grants, 2025 Cycle",
    );
    expect(rfpTitle("\n\n  ## **Heat** grants for _older_ renters ##\nmore")).toBe(
      "Heat grants for older renters",
    );
    expect(plainMarkdownLine("\\# Not a heading: [the call](https://x.test) `v2`")).toBe(
      "# Not a heading: the call v2",
    );
    expect(plainMarkdownLine("> - Quoted *list* item")).toBe("Quoted list item");
    expect(rfpTitle("---\n```\n")).toBeUndefined();
    expect(rfpTitle(undefined)).toBeUndefined();
    expect(rfpTitle(`# ${"Long ".repeat(60)}`)).toHaveLength(120);
  });
});

describe("the proposal's title", () => {
  it("names the project, the applicant and the funder from the research", () => {
    expect(proposalTitle({ researchResults: RESEARCH, rfpDocument: RFP })).toBe(
      "Cool and Dry Homes — a proposal by Harbor Neighbors Alliance to The Calder Bay Community Foundation",
    );
  });

  it("leaves out what the research does not give, and reads an older research's 'Name: mission'", () => {
    const { project: _p, ...noProject } = RESEARCH;
    expect(proposalTitle({ researchResults: noProject })).toBe(
      "A proposal by Harbor Neighbors Alliance to The Calder Bay Community Foundation",
    );
    const { applicant: _a, ...noApplicant } = RESEARCH;
    expect(proposalTitle({ researchResults: noApplicant })).toBe(
      "Cool and Dry Homes — a proposal to The Calder Bay Community Foundation",
    );
    const older = { funder: "Calder Bay Community Foundation: resilient coastal neighbourhoods" };
    expect(proposalTitle({ researchResults: older })).toBe(
      "A proposal to Calder Bay Community Foundation",
    );
  });

  it("before any research: a proposal in response to the RFP; with neither, the fallback", () => {
    expect(proposalTitle({ rfpDocument: RFP })).toBe(
      "A proposal in response to Request for Proposals: Community Climate Resilience Grants, 2025 Cycle",
    );
    expect(proposalTitle({ researchResults: { sources: ["p. 1"] }, rfpDocument: RFP })).toBe(
      "A proposal in response to Request for Proposals: Community Climate Resilience Grants, 2025 Cycle",
    );
    expect(proposalTitle({}, "thread-7")).toBe("thread-7");
  });

  it("is plain text in the document and its Markdown: the RFP's title only as 'in response to'", () => {
    const values = {
      rfpDocument: RFP,
      researchResults: RESEARCH,
      researchStatus: "approved",
      sections: {},
      reviewHistory: [],
      revisionCounts: {},
      errors: [],
    } as unknown as OverallProposalStateType;
    const document = buildProposalDocument({
      threadId: "t1",
      title: "thread title",
      values,
      stages: proposalStages(loadProposalConfig()),
      finished: false,
    });
    expect(document.title).toBe(
      "Cool and Dry Homes — a proposal by Harbor Neighbors Alliance to The Calder Bay Community Foundation",
    );
    expect(document.respondsTo).toBe(
      "Request for Proposals: Community Climate Resilience Grants, 2025 Cycle",
    );
    const md = renderProposalMarkdown(document);
    const [first, , second] = md.split("\n");
    expect(first).toBe(
      "# Cool and Dry Homes — a proposal by Harbor Neighbors Alliance to The Calder Bay Community Foundation",
    );
    expect(second).toBe(
      "_In response to Request for Proposals: Community Climate Resilience Grants, 2025 Cycle_",
    );
    expect(md).not.toContain("\\#");
  });
});
