import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DependencyMapSchema,
  PACKAGE_DEPENDENCIES_FILE,
  transitiveDependents,
} from "../../src/graph/proposalConfig.js";
import {
  input,
  isWriterCall,
  pending,
  proposalRun,
  refusedResume,
  resume,
  SECTION_IDS,
  start,
  switchableResponder,
  values,
  writerPrompts,
} from "./proposalHarness.js";

const OLD = (id: string) => `Approved earlier: the ${id} as first written.`;

/** Research, solution, pairs and every section but the problem statement approved with content. */
function preapproved() {
  const sections = Object.fromEntries(
    SECTION_IDS.filter((id) => id !== "problem_statement").map((id) => [
      id,
      { id, content: OLD(id), status: "approved" as const },
    ]),
  );
  return input({
    researchResults: { funder: "Calder Bay Community Foundation", priorities: ["resilience"] },
    researchStatus: "approved",
    solutionSoughtResults: { problem: "flood risk" },
    solutionSoughtStatus: "approved",
    connectionPairs: [{ funderNeed: "flood resilience", applicantCapability: "retrofit crews" }],
    connectionPairsStatus: "approved",
    sections,
  });
}

const EDITED = "Our edited problem statement: 1,240 households displaced in 2024.";

describe("edit path and stale marking", () => {
  it("generates only the missing stage, then an edit replaces it and regenerates every approved dependent in order", async () => {
    const run = proposalRun();
    await run.graph.invoke(preapproved(), run.config);
    // Only the problem statement was written and judged.
    expect(run.model.calls.filter(isWriterCall)).toHaveLength(1);
    expect(writerPrompts(run.model, "problem_statement")).toHaveLength(1);
    expect(run.model.calls).toHaveLength(6);
    expect((await pending(run))?.node).toBe("reviewProblemStatement");

    const expected = transitiveDependents(
      DependencyMapSchema.parse(JSON.parse(readFileSync(PACKAGE_DEPENDENCIES_FILE, "utf8"))),
      "problem_statement",
    );
    expect(new Set(expected)).toEqual(new Set(["methodology", "conclusion", "budget", "timeline"]));

    await resume(run, { action: "edit", content: EDITED, reviewer: "ana" });
    let state = await values(run);
    expect(state.sections.problem_statement).toMatchObject({ content: EDITED, status: "edited" });
    const record = state.reviewHistory.at(-1);
    expect(record).toMatchObject({
      contentId: "problem_statement",
      action: "edit",
      reviewer: "ana",
    });
    // In graph order, every transitive dependent that had been approved.
    expect(record?.staled).toEqual(["methodology", "budget", "timeline", "conclusion"]);
    // Non-dependents keep their approval; the earlier stages are never written again.
    expect([state.researchStatus, state.solutionSoughtStatus, state.connectionPairsStatus]).toEqual(
      ["approved", "approved", "approved"],
    );
    // The first dependent is already being regenerated; the others wait, stale.
    expect((await pending(run))?.node).toBe("reviewMethodology");
    expect(state.sections.methodology?.status).toBe("awaiting_review");
    for (const id of ["budget", "timeline", "conclusion"]) {
      expect(state.sections[id]).toMatchObject({ status: "stale", content: OLD(id) });
    }
    const methodologyPrompt = writerPrompts(run.model, "methodology")[0] ?? "";
    expect(methodologyPrompt).toContain(`## Problem Statement\n${EDITED}`);

    const order = ["methodology", "budget", "timeline", "conclusion"];
    for (const [i, id] of order.entries()) {
      expect((await pending(run))?.value.contentId).toBe(id);
      await resume(run, { action: "approve" });
      expect(writerPrompts(run.model, id)).toHaveLength(1);
      const later = order[i + 1];
      if (later !== undefined) expect(writerPrompts(run.model, later)).toHaveLength(1);
    }
    expect(await pending(run)).toBeUndefined();
    state = await values(run);
    for (const id of order) {
      expect(state.sections[id]?.status).toBe("approved");
      expect(state.sections[id]?.content).not.toBe(OLD(id));
    }
    expect(state.sections.problem_statement?.status).toBe("edited");
    expect(writerPrompts(run.model, "research")).toHaveLength(0);
    expect(writerPrompts(run.model, "problem_statement")).toHaveLength(1);
    // The regenerated conclusion reads the edited statement and the regenerated sections.
    const conclusion = writerPrompts(run.model, "conclusion")[0] ?? "";
    expect(conclusion).toContain(EDITED);
    expect(conclusion).toContain("## Budget\nBudget text: specific");
    expect(conclusion).not.toContain(OLD("budget"));
  });

  it("an approved stage that is not a dependent stays approved and is not regenerated", async () => {
    // problem_statement → methodology → conclusion only: budget and timeline do not depend on it.
    const run = proposalRun({
      graph: {
        dependencies: {
          dependents: { problem_statement: ["methodology"], methodology: ["conclusion"] },
        },
      },
    });
    await run.graph.invoke(preapproved(), run.config);
    await resume(run, { action: "edit", content: EDITED });
    let state = await values(run);
    expect(state.reviewHistory.at(-1)?.staled).toEqual(["methodology", "conclusion"]);
    expect(state.sections.budget).toMatchObject({ status: "approved", content: OLD("budget") });
    expect(state.sections.timeline).toMatchObject({ status: "approved", content: OLD("timeline") });

    await resume(run, { action: "approve" }); // methodology
    expect((await pending(run))?.value.contentId).toBe("conclusion");
    await resume(run, { action: "approve" });
    expect(await pending(run)).toBeUndefined();
    expect(writerPrompts(run.model, "budget")).toHaveLength(0);
    expect(writerPrompts(run.model, "timeline")).toHaveLength(0);
    state = await values(run);
    expect(state.sections.budget?.content).toBe(OLD("budget"));
    expect(state.sections.conclusion?.status).toBe("approved");
  });

  it("a dependent that was never approved is not marked stale", async () => {
    const run = proposalRun();
    await start(run);
    const written = (await values(run)).researchResults;
    await resume(run, { action: "edit", content: '{"funder": "Calder Bay CF", "sources": []}' });
    const state = await values(run);
    expect(state.researchStatus).toBe("edited");
    // The fields the edit leaves out are kept; an empty list removes its field.
    expect(state.researchResults).toEqual({ ...written, funder: "Calder Bay CF" });
    expect(state.reviewHistory.at(-1)?.staled).toEqual([]);
    // The run goes on to the next stage needing work.
    expect((await pending(run))?.node).toBe("reviewSolution");
  });

  it("an edit of structured content in prose, or in JSON that does not fit, is refused and the review stays", async () => {
    const run = proposalRun();
    await start(run);
    await resume(run, { action: "approve" });
    await resume(run, { action: "approve" });
    expect((await pending(run))?.node).toBe("reviewConnectionPairs");
    const before = await values(run);
    const prose = await refusedResume(run, {
      action: "edit",
      content: "Retrofit crews meet the flood need.",
    });
    expect(prose).toMatchObject({ field: "content" });
    expect(prose.problem).toMatch(
      /Connection Pairs takes a JSON list of objects .*plain text cannot replace it/,
    );
    expect(prose.fix).toContain("Send the connection pairs as a JSON list of objects");
    const missing = await refusedResume(run, {
      action: "edit",
      content: '[{"funderNeed": "flood resilience"}]',
    });
    expect(missing.problem).toMatch(/; pair 1 applicantCapability: is required/);
    const strength = await refusedResume(run, {
      action: "edit",
      content: '[{"funderNeed": "a", "applicantCapability": "b", "strength": "huge"}]',
    });
    expect(strength.problem).toMatch(/; pair 1 strength: is one of strong, moderate, weak/);
    const after = await values(run);
    expect(after.connectionPairs).toEqual(before.connectionPairs);
    expect(after.connectionPairsStatus).toBe("awaiting_review");
    expect((await pending(run))?.node).toBe("reviewConnectionPairs");
  });

  it("an edit after a failed generation is stored in the stage's shape (object, list, text)", async () => {
    const fault = { active: true };
    const run = proposalRun({
      responder: switchableResponder(fault, () => "Sorry, no JSON today.", "writer"),
    });
    await start(run);
    expect((await pending(run))?.value.type).toBe("generation_error");
    // Nothing was written: the edit must give every required field.
    const partial = await refusedResume(run, {
      action: "edit",
      content: '{"funder": "Calder Bay CF"}',
    });
    expect(partial.problem).toMatch(/; priorities: is required/);
    await resume(run, {
      action: "edit",
      content: '{"funder": "Calder Bay CF", "priorities": ["flood resilience"]}',
    });
    let state = await values(run);
    expect(state.researchResults).toEqual({
      funder: "Calder Bay CF",
      priorities: ["flood resilience"],
    });
    expect(state.researchStatus).toBe("edited");

    // The solution fails too; prose cannot stand for it, its fields as JSON can.
    expect((await pending(run))?.value).toMatchObject({
      type: "generation_error",
      contentId: "solution",
    });
    const prose = await refusedResume(run, {
      action: "edit",
      content: "The funder wants fewer flood evictions.",
    });
    expect(prose.problem).toMatch(/plain text cannot replace it/);
    // A text where a list is asked for is a wrong type, refused rather than turned into a list.
    const wrongType = await refusedResume(run, {
      action: "edit",
      content:
        '{"problem": "The funder wants fewer flood evictions.", "desiredOutcomes": "no evictions"}',
    });
    expect(wrongType.problem).toMatch(/; desiredOutcomes: takes a list of text items, not string/);
    await resume(run, {
      action: "edit",
      content:
        '{"problem": "The funder wants fewer flood evictions.", "desiredOutcomes": ["no evictions"]}',
    });
    state = await values(run);
    expect(state.solutionSoughtResults).toEqual({
      problem: "The funder wants fewer flood evictions.",
      desiredOutcomes: ["no evictions"],
    });

    await resume(run, {
      action: "edit",
      content: '[{"funderNeed": "flood resilience", "applicantCapability": "retrofit crews"}]',
    });
    state = await values(run);
    expect(state.connectionPairs).toEqual([
      { funderNeed: "flood resilience", applicantCapability: "retrofit crews" },
    ]);

    await resume(run, { action: "edit", content: '{"not": "a section"}' });
    state = await values(run);
    expect(state.sections.problem_statement).toMatchObject({
      content: '{"not": "a section"}',
      status: "edited",
    });
  });
});
