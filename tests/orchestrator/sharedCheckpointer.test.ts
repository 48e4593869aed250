import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { type Checkpointer, createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ForeignThreadError } from "../../src/orchestrator/errors.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { gate, problemInput, researchGraph, switchableJudge, tempDir } from "./helpers.js";

describe("two graphs sharing one checkpoint file", () => {
  let temp: ReturnType<typeof tempDir>;
  let checkpointer: Checkpointer;

  beforeEach(async () => {
    temp = tempDir();
    // The default location: every orchestrator in this working directory shares it.
    checkpointer = await createCheckpointer({ cwd: temp.dir, env: {} });
  });
  afterEach(async () => {
    await checkpointer.close();
    temp.remove();
  });

  it("each orchestrator lists only its own graph's threads and refuses the other's", async () => {
    const gateReviews = new ReviewOrchestrator({ graph: gate().graph, checkpointer });
    const research = researchGraph();
    const researchReviews = new ReviewOrchestrator({ graph: research.graph, checkpointer });

    const gateThread = await gateReviews.start(problemInput, { threadId: "gate-1" });
    const researchThread = await researchReviews.start(
      { rfpDocument: "Coastal flood resilience call." },
      { threadId: "research-1" },
    );

    expect((await gateReviews.pendingReviews()).map((r) => r.threadId)).toEqual(["gate-1"]);
    expect((await researchReviews.pendingReviews()).map((r) => r.threadId)).toEqual(["research-1"]);

    const foreign = await gateReviews
      .submitDecision("research-1", researchThread.review?.interruptId ?? "", {
        action: "approve",
      })
      .catch((e) => e);
    expect(foreign).toBeInstanceOf(ForeignThreadError);
    expect(foreign.message).toContain('"research-1"');
    expect(foreign.channels.some((c: string) => c.includes("generateResearch"))).toBe(true);
    await expect(researchReviews.getReview("gate-1")).rejects.toBeInstanceOf(ForeignThreadError);

    const done = await gateReviews.submitDecision("gate-1", gateThread.review?.interruptId ?? "", {
      action: "approve",
    });
    expect(done.state).toBe("completed");
    expect((await researchReviews.getReview("research-1"))?.interruptId).toBe(
      researchThread.review?.interruptId,
    );
  });
});

describe("the run context", () => {
  it("is given to every run and resume: a stricter passing threshold fails the same answers", async () => {
    const temp = tempDir();
    const checkpointer = await createCheckpointer({ cwd: temp.dir, env: {} });
    try {
      const { model, control } = switchableJudge();
      const strict = new ReviewOrchestrator({
        graph: buildEvaluationGraph({ model }),
        checkpointer,
        context: { passingThreshold: 0.95 },
      });
      const started = await strict.start(problemInput);
      expect(started.review?.type).toBe("evaluation_error");
      control.down = false;

      const again = await strict.submitDecision(
        started.threadId,
        started.review?.interruptId ?? "",
        { action: "retry" },
      );
      expect(again.review?.evaluation?.overallScore).toBeCloseTo(0.85, 5);
      expect(again.review?.evaluation?.passed).toBe(false);

      const lenient = new ReviewOrchestrator({ graph: gate(0.85).graph, checkpointer });
      const other = await lenient.start(problemInput);
      expect(other.review?.evaluation?.passed).toBe(true);
    } finally {
      await checkpointer.close();
      temp.remove();
    }
  });
});
