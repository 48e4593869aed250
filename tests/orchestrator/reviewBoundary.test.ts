/**
 * The review boundary at the orchestrator: a paused evaluation gate on a SQLite file, sent the
 * probe's values — a 10,000-character thread id, a reviewer name with a line break and a fake log
 * line, content with NUL bytes, feedback of three zero-width spaces, 10 MB of feedback — and more
 * of the kind. Each is an error naming the field (ids shown cut to 64 characters, escaped), nothing
 * is stored (rows and bytes of the file counted), the thread stays paused at the same review.
 */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { ReviewOrchestrator } from "../../src/orchestrator/reviewOrchestrator.js";
import { checkpointFilePerTest, gate, problemInput } from "./helpers.js";

function stored(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const count = (table: string, column: string) =>
      db
        .prepare(`SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(${column})), 0) AS bytes FROM ${table}`)
        .get();
    return {
      checkpoints: count("checkpoints", "checkpoint"),
      writes: count("writes", "value"),
      decisions: db.prepare("SELECT COUNT(*) AS n FROM calibration_labels").get(),
    };
  } finally {
    db.close();
  }
}

describe("the orchestrator's review boundary", () => {
  const file = checkpointFilePerTest();

  async function paused() {
    const { graph, model } = gate();
    const reviews = new ReviewOrchestrator({
      graph,
      checkpointerOptions: { sqlitePath: file.sqlitePath, env: {} },
    });
    file.open.push(reviews);
    const started = await reviews.start(problemInput, { threadId: "gate-boundary" });
    const interruptId = started.review?.interruptId ?? "";
    return { reviews, model, interruptId };
  }

  it("refuses ids out of shape, showing them cut and escaped", async () => {
    const { reviews, interruptId } = await paused();
    const long = `${"t".repeat(9_990)}\n2026 INFO`;
    const refused = await reviews.getReview(long).catch((e: unknown) => e);
    expect(isEvalgateError(refused, "THREAD_ID_INVALID")).toBe(true);
    const message = (refused as Error).message;
    expect(message).toContain(`"${"t".repeat(64)}…"`);
    expect(message).not.toContain("\n");
    expect(message.length).toBeLessThan(300);

    const forged = await reviews
      .submitDecision("gate\nINFO approved", interruptId, { action: "approve" })
      .catch((e: unknown) => e);
    expect((forged as Error).message).toContain('"gate\\nINFO approved"');

    const started = await reviews
      .start(problemInput, { threadId: "../../etc" })
      .catch((e: unknown) => e);
    expect(isEvalgateError(started, "THREAD_ID_INVALID")).toBe(true);

    const wrongInterrupt = await reviews
      .submitDecision("gate-boundary", "x'; DROP TABLE writes; --", { action: "approve" })
      .catch((e: unknown) => e);
    expect(wrongInterrupt).toMatchObject({
      code: "DECISION_INVALID",
      issues: [{ field: "interruptId" }],
    });
  });

  it("refuses decisions no review takes, stores nothing, and stays paused", async () => {
    const { reviews, model, interruptId } = await paused();
    const before = stored(file.sqlitePath);
    const calls = model.calls.length;
    const cases: Array<[string, unknown]> = [
      ["feedback", { action: "revise", feedback: "f".repeat(10 * 1024 * 1024) }],
      ["feedback", { action: "revise", feedback: "\u200B\u200B\u200B" }],
      ["reviewer", { action: "approve", reviewer: "ana\n2026-05-04T10:12:03Z INFO approved" }],
      ["reviewer", { action: "approve", reviewer: "\u202Enimda" }],
      ["content", { action: "edit", content: "Problem\u0000statement" }],
      ["content", { action: "edit", content: "p".repeat(1_048_577) }],
      ["comment", { action: "approve", comment: "\u00A0\u2003" }],
      [
        "corrections.0.note",
        { action: "approve", corrections: [{ criterionId: "c1", score: 0.2, note: "\u2800" }] },
      ],
    ];
    for (const [field, decision] of cases) {
      const error = await reviews
        .submitDecision("gate-boundary", interruptId, decision)
        .catch((e: unknown) => e);
      expect(isEvalgateError(error, "DECISION_INVALID"), field).toBe(true);
      expect((error as { issues: Array<{ field: string }> }).issues[0]?.field, field).toBe(field);
      expect((error as Error).message.length, field).toBeLessThan(400);
      expect(stored(file.sqlitePath), field).toEqual(before);
    }
    expect((await reviews.getReview("gate-boundary"))?.interruptId).toBe(interruptId);
    expect(model.calls).toHaveLength(calls);

    const done = await reviews.submitDecision("gate-boundary", interruptId, {
      action: "revise",
      feedback: "  Give the county report's page for the 1,240 households. ",
      reviewer: " Ana Lima ",
    });
    const history = await reviews.history("gate-boundary");
    // The gate has no writer: a revision ends its run with the feedback for the caller.
    expect(done.state).toBe("completed");
    expect(done.values.status).toBe("revision_requested");
    expect(history.map((d) => [d.reviewer, d.feedback])).toEqual([
      ["Ana Lima", "Give the county report's page for the 1,240 households."],
    ]);
  });
});
