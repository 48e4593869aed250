/**
 * ReviewOrchestrator.continueThread on threads that have no work left: a paused thread is
 * reported paused at the same review and nothing runs (no model call), a finished one completed,
 * an unknown one is CHECKPOINT_NOT_FOUND; and a decision for a thread with work left is refused
 * with the nodes where it stopped (the crash tests run the work-left case itself).
 */
import { describe, expect, it } from "vitest";
import { buildProposalGraph } from "../../src/graph/proposalGraph.js";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { isThreadNotFoundError } from "../../src/orchestrator/errors.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { putAfter, releaseDeadLocks } from "./crashingSaver.js";
import { fullDeskRun, openDyingDesk, runUntilCrash } from "./dyingDesk.js";
import { checkpointFilePerTest, gate, problemInput } from "./helpers.js";

describe("continueThread", () => {
  const file = checkpointFilePerTest();

  it("leaves a paused thread at its review and reports a finished one completed", async () => {
    const { model, graph } = gate();
    const reviews = new ReviewOrchestrator({
      graph,
      checkpointerOptions: { sqlitePath: file.sqlitePath, env: {} },
    });
    file.open.push(reviews);
    const started = await reviews.start(problemInput, { threadId: "paused-1" });
    const calls = model.calls.length;

    const again = await reviews.continueThread("paused-1");
    expect(again.state).toBe("paused");
    expect(again.review?.interruptId).toBe(started.review?.interruptId);
    expect(model.calls).toHaveLength(calls);

    await reviews.submitDecision("paused-1", started.review?.interruptId ?? "", {
      action: "approve",
    });
    expect((await reviews.continueThread("paused-1")).state).toBe("completed");
    expect(model.calls).toHaveLength(calls);

    const unknown = await reviews.continueThread("never-started").catch((e: unknown) => e);
    expect(isThreadNotFoundError(unknown)).toBe(true);
  });

  it("refuses a decision for a thread with work left, naming where it stopped", async () => {
    const path = file.sqlitePath;
    const dying = await openDyingDesk(path, putAfter("generateSolution"));
    const thread = {
      id: "left-1",
      by: { name: "eli", role: "admin" as const },
      input: { rfpDocument: "Orchard Lane Fund — cold storage grants.", applicantInput: "Co-op." },
    };
    expect(await runUntilCrash(dying, fullDeskRun(dying, thread))).toBe("crashed");
    releaseDeadLocks(path);
    const checkpointer = await createCheckpointer({ sqlitePath: path, env: {} });
    const reviews = new ReviewOrchestrator({ graph: buildProposalGraph(), checkpointer });
    file.open.push(reviews, checkpointer);

    expect(await reviews.getReview("left-1")).toBeUndefined();
    const refused = await reviews
      .submitDecision("left-1", "0123456789abcdef0123456789abcdef", { action: "approve" })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({
      code: "THREAD_NOT_PAUSED",
      reason: { kind: "stopped", next: ["generateSolution"], errors: [] },
    });
    expect((refused as Error).message).toContain(
      "the run stopped with work left (writing Solution Sought)",
    );
  });
});
