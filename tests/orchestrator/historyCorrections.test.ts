/**
 * A decision's corrections are kept in the thread's own history (graph state), not only as
 * calibration labels: `ReviewOrchestrator.history()` and a resume straight through the graph (as
 * Studio resumes) both show each corrected criterion with the judge's score beside the reviewer's.
 * Corrections that do not fit the evaluation the reviewer saw are refused by the graph itself: the
 * thread stays paused at the same review.
 */
import { join } from "node:path";
import { Command, MemorySaver } from "@langchain/langgraph";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { type Checkpointer, createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { scriptedProposalResponder } from "../devserver/proposalResponder.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { askedAgain } from "../graph/helpers.js";
import { tempDir } from "./helpers.js";

const ROOT = join(import.meta.dirname, "..", "..");

/**
 * The funding catalog in data/criteria: c1 a pass/fail knockout check, c2 and c3 rated 1–5. The
 * scripted judge answers 0.75 of each scale: c1 pass, c2 and c3 4 on 1–5 (0.75).
 */
function fundingGate() {
  const model = new ScriptedChatModel({ responder: scriptedProposalResponder(0.75) });
  return buildEvaluationGraph({ model, criteriaDir: join(ROOT, "data", "criteria") });
}

const input = {
  content: "A Hamburg company builds tidal sensors for harbour flood warnings.",
  contentType: "funding",
  criteriaPath: "ifb_profi.toon",
};

const CORRECTIONS = [
  { criterionId: "c2", score: 2, note: "an incremental sensor, not a new technique" },
  { criterionId: "c1", level: "fail" },
];

/** By hand: c2 4 → 2 on 1–5 is 0.75 → 0.25 on 0–1; c1 pass → fail is 1 → 0. */
const RECORDED = [
  {
    criterionId: "c2",
    judgeScore: 0.75,
    judgeNative: 4,
    reviewerScore: 0.25,
    reviewerNative: 2,
    note: "an incremental sensor, not a new technique",
  },
  {
    criterionId: "c1",
    judgeScore: 1,
    judgeNative: "pass",
    reviewerScore: 0,
    reviewerNative: "fail",
  },
];

describe("corrections in the thread's history, through ReviewOrchestrator", () => {
  let temp: ReturnType<typeof tempDir>;
  let checkpointer: Checkpointer;
  let reviews: ReviewOrchestrator<ReturnType<typeof fundingGate>>;

  beforeEach(async () => {
    temp = tempDir();
    checkpointer = await createCheckpointer({
      sqlitePath: join(temp.dir, "checkpoints.sqlite"),
      env: {},
    });
    reviews = new ReviewOrchestrator({ graph: fundingGate(), checkpointer });
  });
  afterEach(async () => {
    await reviews.close();
    await checkpointer.close();
    temp.remove();
  });

  it("history() shows the corrected criteria with their titles, and none on a decision without", async () => {
    const started = await reviews.start(input, { threadId: "funded" });
    if (started.state !== "paused" || started.review === undefined) throw new Error("not paused");
    const titles = new Map(started.review.evaluation?.criteria.map((c) => [c.id, c.title]));
    await reviews.submitDecision("funded", started.review.interruptId, {
      action: "approve",
      reviewer: "ana",
      corrections: CORRECTIONS,
    });
    const [decision] = await reviews.history("funded");
    expect(decision).toMatchObject({ action: "approve", reviewer: "ana" });
    expect(decision?.corrections).toEqual(
      RECORDED.map((r) => ({ ...r, criterionTitle: titles.get(r.criterionId) })),
    );
    expect(decision?.corrections?.every((c) => typeof c.criterionTitle === "string")).toBe(true);

    const other = await reviews.start(input, { threadId: "plain" });
    if (other.state !== "paused" || other.review === undefined) throw new Error("not paused");
    await reviews.submitDecision("plain", other.review.interruptId, {
      action: "revise",
      feedback: "Name the harbour districts.",
    });
    const [revised] = await reviews.history("plain");
    expect(revised?.action).toBe("revise");
    expect(revised?.corrections).toBeUndefined();
  });
});

describe("corrections in the thread's history, resumed through the graph", () => {
  async function pausedGraph(threadId: string) {
    const graph = fundingGate().compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: threadId } };
    await graph.invoke(input, config);
    const [task] = (await graph.getState(config)).tasks;
    const interruptId = task?.interrupts[0]?.id;
    if (interruptId === undefined) throw new Error("not paused");
    return { graph, config, interruptId };
  }

  it("keeps the corrections a resume carries in reviewHistory", async () => {
    const { graph, config, interruptId } = await pausedGraph("studio");
    const decision = {
      action: "edit",
      content: "Sensors in Wilhelmsburg.",
      corrections: CORRECTIONS,
    };
    await graph.invoke(new Command({ resume: { [interruptId]: decision } }), config);
    const { values } = await graph.getState(config);
    const history = values.reviewHistory as Array<{ action: string; corrections?: unknown[] }>;
    expect(history.map((d) => d.action)).toEqual(["edit"]);
    expect(history[0]?.corrections).toMatchObject(RECORDED);
  });

  it("refuses corrections that do not fit, naming the one at fault; the review asks again", async () => {
    const { graph, config, interruptId } = await pausedGraph("refused");
    const refusals: Array<[unknown[], string, string]> = [
      [[{ criterionId: "c9", score: 2 }], "criterion 'c9'", "corrections.0.criterionId"],
      [
        [
          { criterionId: "c1", level: "pass" },
          { criterionId: "c2", score: 6 },
        ],
        "outside the criterion's scale 1–5",
        // The path names the correction at fault: the second one's score.
        "corrections.1.score",
      ],
      [[{ criterionId: "c1", score: 1 }], "give a level (pass or fail)", "corrections.0.score"],
    ];
    let waiting = interruptId;
    for (const [corrections, message, field] of refusals) {
      const resume = { [waiting]: { action: "approve", corrections } };
      const asked = askedAgain(await graph.invoke(new Command({ resume }), config));
      expect(asked.refusal.problem, JSON.stringify(corrections)).toContain(message);
      expect(asked.refusal.field).toBe(field);
      const { tasks, values } = await graph.getState(config);
      const now = String(tasks[0]?.interrupts[0]?.id);
      expect(now).not.toBe(waiting);
      waiting = now;
      expect(values.reviewHistory).toEqual([]);
    }

    await graph.invoke(new Command({ resume: { [waiting]: { action: "approve" } } }), config);
    const { values } = await graph.getState(config);
    expect((values.reviewHistory as Array<{ action: string }>).map((d) => d.action)).toEqual([
      "approve",
    ]);
  });
});
