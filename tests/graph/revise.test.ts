import { describe, expect, it } from "vitest";
import {
  isWriterCall,
  pending,
  proposalRun,
  refusedResume,
  resume,
  start,
  values,
  writerPrompts,
} from "./proposalHarness.js";

const FEEDBACK = "Quote each eligibility rule with its RFP page.";

describe("revise path", () => {
  it("sends the feedback and the previous version to the generator, then judges and reviews again", async () => {
    const run = proposalRun();
    await start(run);
    const previous = (await values(run)).researchResults;
    expect(writerPrompts(run.model, "research")).toHaveLength(1);
    expect(writerPrompts(run.model, "research")[0]).not.toContain("Reviewer feedback:");

    const before = run.model.calls.length;
    await resume(run, { action: "revise", feedback: FEEDBACK, reviewer: "ana" });
    const made = run.model.calls.slice(before);
    expect(made.filter(isWriterCall)).toHaveLength(1);
    expect(made.filter((c) => !isWriterCall(c))).toHaveLength(5);

    const prompts = writerPrompts(run.model, "research");
    expect(prompts).toHaveLength(2);
    const revision = prompts[1] ?? "";
    expect(revision).toContain(`Reviewer feedback: ${FEEDBACK}`);
    expect(revision).toContain("Previous version (revise it; keep what was good):");
    expect(revision).toContain(JSON.stringify(previous, null, 2));
    expect(revision).toContain("Climate Resilience Fund 2025"); // still written from the RFP

    const paused = await pending(run);
    expect(paused?.node).toBe("reviewResearch");
    expect(paused?.value.type).toBe("evaluation_review");
    const state = await values(run);
    expect(state.researchStatus).toBe("awaiting_review");
    expect(state.revisionCounts).toEqual({ research: 1 });
    expect(state.revisionFeedback).toEqual({ research: FEEDBACK });
    expect(state.reviewHistory).toMatchObject([
      { contentId: "research", action: "revise", feedback: FEEDBACK, reviewer: "ana" },
    ]);
    // The second evaluation replaced the first.
    expect(state.researchEvaluation?.timestamp).not.toBe(
      state.reviewHistory[0]?.evaluation?.timestamp,
    );

    // A later stage is not written with the research's revision feedback.
    await resume(run, { action: "approve" });
    expect(writerPrompts(run.model, "solution")[0]).not.toContain("Reviewer feedback:");
  });

  it("a section's revision carries its feedback and previous text", async () => {
    const run = proposalRun();
    await start(run);
    for (let i = 0; i < 3; i += 1) await resume(run, { action: "approve" });
    expect((await pending(run))?.node).toBe("reviewProblemStatement");
    await resume(run, { action: "revise", feedback: "Cite the 2024 county report." });
    const [, second] = writerPrompts(run.model, "problem_statement");
    expect(second).toContain("Reviewer feedback: Cite the 2024 county report.");
    expect(second).toContain(
      "Previous version (revise it; keep what was good):\nProblem Statement text: specific",
    );
    const state = await values(run);
    expect(state.sections.problem_statement?.content).toBe(
      "Problem Statement text (revised): specific, sourced content with measurable targets.",
    );
    expect(state.sections.problem_statement?.status).toBe("awaiting_review");
    expect(state.revisionCounts).toEqual({ problem_statement: 1 });
  });

  it("after maxRevisions (run context) a revise is refused: revision_limit, which rejects revise and accepts approve", async () => {
    const run = proposalRun({
      context: { maxRevisions: 1 },
    });
    await start(run);
    await resume(run, { action: "revise", feedback: FEEDBACK });
    expect((await values(run)).revisionCounts).toEqual({ research: 1 });
    const writes = writerPrompts(run.model, "research").length;
    const calls = run.model.calls.length;

    // The second revise is escalated instead of sent to the writer.
    await resume(run, { action: "revise", feedback: "Again, shorter." });
    expect(run.model.calls.length).toBe(calls);
    expect(writerPrompts(run.model, "research")).toHaveLength(writes);
    const limit = await pending(run);
    expect(limit?.node).toBe("reviewResearch");
    expect(limit?.value).toMatchObject({
      type: "revision_limit",
      contentId: "research",
      actions: ["approve", "edit", "retry"],
      revisions: { count: 1, max: 1 },
    });
    expect(limit?.value.description).toMatch(
      /^The Research was revised 1 time \(the maximum is 1\)\. Approve it, edit it yourself, or evaluate again\.\n/,
    );
    expect(limit?.value.evaluationRef?.passed).toBe(true); // the reviewer still sees the evaluation
    let state = await values(run);
    expect(state.researchStatus).toBe("awaiting_review");
    expect(state.revisionCounts).toEqual({ research: 1 });
    expect(state.revisionFeedback).toEqual({ research: FEEDBACK });

    // The escalated review refuses another revise and asks again; the thread stays paused there.
    const refused = await refusedResume(run, { action: "revise", feedback: "Please, once more." });
    expect(refused.problem).toContain("revision limit");
    expect((await pending(run))?.value).toMatchObject({
      type: "revision_limit",
      revisions: { count: 1, max: 1 },
    });
    expect(run.model.calls.length).toBe(calls);

    await resume(run, { action: "approve", reviewer: "lead" });
    state = await values(run);
    expect(state.researchStatus).toBe("approved");
    expect(state.reviewHistory.at(-1)).toMatchObject({ action: "approve", reviewer: "lead" });
    expect((await pending(run))?.node).toBe("reviewSolution");
    // The limit is per stage: the solution can still be revised.
    await resume(run, { action: "revise", feedback: "Name the excluded approaches." });
    expect((await values(run)).revisionCounts).toEqual({ research: 1, solution: 1 });
    expect((await pending(run))?.value.type).toBe("evaluation_review");
  });

  it("the graph option maxRevisions applies when the run context sets none", async () => {
    const run = proposalRun({ graph: { maxRevisions: 0 } });
    await start(run);
    await resume(run, { action: "revise", feedback: FEEDBACK });
    expect((await pending(run))?.value).toMatchObject({
      type: "revision_limit",
      revisions: { count: 0, max: 0 },
    });
    expect(writerPrompts(run.model, "research")).toHaveLength(1);
  });

  it("the run context's maxRevisions wins over the graph option", async () => {
    const run = proposalRun({
      graph: { maxRevisions: 0 },
      context: { maxRevisions: 2 },
    });
    await start(run);
    await resume(run, { action: "revise", feedback: FEEDBACK });
    await resume(run, { action: "revise", feedback: "And the deadlines." });
    expect(writerPrompts(run.model, "research")).toHaveLength(3);
    expect((await values(run)).revisionCounts).toEqual({ research: 2 });
    await resume(run, { action: "revise", feedback: "Third time." });
    expect((await pending(run))?.value.type).toBe("revision_limit");
  });
});
