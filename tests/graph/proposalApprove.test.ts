import { describe, expect, it } from "vitest";
import type { DecisionRecord } from "../../src/graph/model.js";
import { stageNodeNames } from "../../src/graph/stages.js";
import {
  isWriterCall,
  pending,
  proposalRun,
  refusedResume,
  resume,
  SECTION_IDS,
  STAGE_IDS,
  start,
  values,
  writerPrompts,
} from "./proposalHarness.js";

/** The shipped catalogs have 5 LLM criteria each: one writer call plus five judge calls a stage. */
const JUDGE_CALLS_PER_STAGE = 5;

describe("proposal graph: approve path", () => {
  it("writes, judges and pauses at every stage in order; approving all eight finishes the run", async () => {
    const run = proposalRun();
    await start(run);
    const approvedInOrder: string[] = [];
    for (const [index, stageId] of STAGE_IDS.entries()) {
      const paused = await pending(run);
      expect(paused?.node).toBe(stageNodeNames({ id: stageId }).review);
      expect(paused?.value).toMatchObject({ type: "evaluation_review", contentId: stageId });
      expect(paused?.value.evaluationRef?.passed).toBe(true);

      const before = run.model.calls.length;
      await resume(run, { action: "approve", reviewer: "ana" });
      approvedInOrder.push(stageId);
      const made = run.model.calls.slice(before);
      if (index < STAGE_IDS.length - 1) {
        // Only the next stage's writer and judge are called: nothing already judged is judged again.
        expect(made.filter(isWriterCall)).toHaveLength(1);
        expect(made.filter((c) => !isWriterCall(c))).toHaveLength(JUDGE_CALLS_PER_STAGE);
        expect(writerPrompts(run.model, STAGE_IDS[index + 1] ?? "")).toHaveLength(1);
      } else {
        expect(made).toHaveLength(0);
      }
    }

    expect(await pending(run)).toBeUndefined();
    const state = await run.graph.getState(run.config);
    expect(state.next).toEqual([]);
    const v = state.values;
    expect([v.researchStatus, v.solutionSoughtStatus, v.connectionPairsStatus]).toEqual([
      "approved",
      "approved",
      "approved",
    ]);
    for (const id of SECTION_IDS) {
      expect(v.sections[id]?.status).toBe("approved");
      expect(v.sections[id]?.content).toContain("specific, sourced content");
      expect(v.sections[id]?.evaluation?.passed).toBe(true);
    }
    expect(v.reviewHistory).toHaveLength(8);
    expect(v.reviewHistory.map((r: DecisionRecord) => r.contentId)).toEqual(approvedInOrder);
    expect(
      v.reviewHistory.every((r: DecisionRecord) => r.action === "approve" && r.reviewer === "ana"),
    ).toBe(true);
    expect(v.reviewHistory.every((r: DecisionRecord) => r.evaluation?.passed === true)).toBe(true);
    expect(v.isInterrupted).toBe(false);
    expect(v.errors).toEqual([]);
    expect(run.model.calls).toHaveLength(8 * (1 + JUDGE_CALLS_PER_STAGE));

    // The conclusion is written from everything before it.
    const [conclusion] = writerPrompts(run.model, "conclusion");
    for (const title of ["Problem Statement", "Methodology", "Budget", "Timeline"]) {
      expect(conclusion).toContain(`## ${title}\n${title} text: specific, sourced content`);
    }
    expect(conclusion).toContain("Calder Bay Community Foundation"); // the research
    expect(conclusion).toContain("retrofit crews"); // the connection pairs
    expect(conclusion).toContain("Climate Resilience Fund 2025"); // the RFP
    // A section is never given itself or a later one as context.
    const [budget] = writerPrompts(run.model, "budget");
    expect(budget).toContain("## Methodology\n");
    expect(budget).not.toContain("## Timeline\n");
    expect(budget).not.toContain("## Budget\n");
  });

  it("an invalid resume value throws, keeps the thread paused and calls no model", async () => {
    const run = proposalRun();
    await start(run);
    const before = run.model.calls.length;
    const paused = await pending(run);

    const ids = new Set([paused?.id]);
    for (const [bad, field] of [
      [{ action: "edit" }, "content"], // edit without content
      [{ action: "edit", content: "   " }, "content"],
      [{ action: "revise" }, "feedback"], // revise without feedback
      [{ action: "publish" }, "action"],
      [{ action: "approve", extra: true }, "(answer)"],
    ] as const) {
      const refusal = await refusedResume(run, bad);
      expect(refusal.field, JSON.stringify(bad)).toBe(field);
      const still = await pending(run);
      expect(still?.node).toBe("reviewResearch");
      expect(ids.has(still?.id)).toBe(false);
      ids.add(still?.id);
    }
    expect(run.model.calls.length).toBe(before);
    expect((await values(run)).researchStatus).toBe("awaiting_review");
    expect((await values(run)).reviewHistory).toEqual([]);

    // The same pause then takes a valid decision.
    await resume(run, { action: "approve" });
    expect((await values(run)).researchStatus).toBe("approved");
    expect((await pending(run))?.node).toBe("reviewSolution");
  });

  it("resuming a thread that is not paused changes nothing", async () => {
    const run = proposalRun();
    await resume(run, { action: "approve" }).catch(() => undefined);
    const state = await run.graph.getState(run.config);
    expect(state.next).toEqual([]);
    expect(run.model.calls).toHaveLength(0);
  });

  it("without an RFP nothing is written: an error entry and the run ends", async () => {
    const run = proposalRun();
    const out = await run.graph.invoke({ rfpDocument: "  ", applicantInput: "x" }, run.config);
    expect(out.errors).toEqual([
      "[load RFP] no RFP: give rfpDocument (the text of the request for proposals)",
    ]);
    expect(run.model.calls).toHaveLength(0);
    expect((await run.graph.getState(run.config)).next).toEqual([]);
  });
});
