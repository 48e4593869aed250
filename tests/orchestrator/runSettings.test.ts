import { describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import type { EvaluationContext } from "../../src/graph/state.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { checkpointFilePerTest, researchGraph } from "./helpers.js";

/** The scripted judge gives every criterion 0.85: it passes at 0.8 and fails at 0.9. */
describe("a thread keeps the settings it started with", () => {
  const file = checkpointFilePerTest();
  const { open } = file;

  /** An orchestrator as a restarted process makes it: a new graph on the same file. */
  function orchestrator(context?: EvaluationContext, overrideSettings?: boolean) {
    const { graph, model } = researchGraph();
    const o = new ReviewOrchestrator({
      graph,
      checkpointerOptions: { sqlitePath: file.sqlitePath, env: {} },
      ...(context === undefined ? {} : { context }),
      ...(overrideSettings === undefined ? {} : { overrideSettings }),
    });
    open.push(o);
    return { o, model };
  }

  it("uses them after a restart, refuses other ones, and applies them only when asked to", async () => {
    const first = orchestrator({ passingThreshold: 0.9 });
    const started = await first.o.start({}, { threadId: "t-1" });
    expect(started.values.researchEvaluation?.passed).toBe(false);
    expect(started.values.threadSettings).toMatchObject({ passingThreshold: 0.9 });

    // Restarted with another threshold: refused before anything runs, the thread stays paused.
    const other = orchestrator({ passingThreshold: 0.8 });
    const paused = await other.o.getReview("t-1");
    const refusal = await other.o
      .submitDecision("t-1", paused?.interruptId ?? "", { action: "revise", feedback: "More." })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    const refusedCode = (e: unknown): boolean =>
      isEvalgateError(e, "RUN_SETTINGS_CHANGED") ||
      (e instanceof Error && refusedCode((e as { cause?: unknown }).cause));
    expect(refusedCode(refusal)).toBe(true);
    expect(String(refusal)).toMatch(/passingThreshold: started with 0\.9, this run gives 0\.8/);
    expect(other.model.calls).toHaveLength(0);
    expect((await other.o.getReview("t-1"))?.interruptId).toBe(paused?.interruptId);

    // Restarted without options: the thread's own threshold is used (0.85 still fails at 0.9).
    const bare = orchestrator();
    const revised = await bare.o.submitDecision("t-1", paused?.interruptId ?? "", {
      action: "revise",
      feedback: "Name the sources.",
    });
    // Evaluated again (the unchanged draft's answers may come from the judge cache), and
    // scored against the thread's 0.9.
    const firstId = started.values.researchEvaluation?.evaluationId;
    expect(revised.values.researchEvaluation?.evaluationId).toBeDefined();
    expect(revised.values.researchEvaluation?.evaluationId).not.toBe(firstId);
    expect(revised.values.researchEvaluation?.overallScore).toBe(0.85);
    expect(revised.values.researchEvaluation?.passed).toBe(false);

    // With the override: the new threshold is applied and the change recorded with the thread.
    const overriding = orchestrator({ passingThreshold: 0.8 }, true);
    const again = await overriding.o.submitDecision("t-1", revised.review?.interruptId ?? "", {
      action: "revise",
      feedback: "Quote the eligibility rules.",
    });
    expect(again.values.researchEvaluation?.passed).toBe(true);
    expect(again.values.threadSettings?.passingThreshold).toBe(0.8);
    expect(again.values.threadSettings?.overrides).toEqual([
      {
        at: expect.stringMatching(/^\d{4}-/),
        changes: ["passingThreshold: started with 0.9, this run gives 0.8"],
      },
    ]);
  });
});
