/**
 * The review boundary at the graph's own door: the proposal graph as users compile it, on a real
 * SQLite checkpoint file, paused at its first review and resumed directly with values no review
 * takes — 10 MB of feedback, three zero-width spaces, a reviewer name with a line break and a fake
 * log line, content with NUL bytes, Agent Inbox answers of the same kinds, a resume map with them.
 * Each is refused before the run starts (LangGraph's invalid-resume mark, RESUME_INVALID naming
 * the field), nothing is written to the file (rows and bytes counted), and the thread stays
 * paused at the same interrupt; a structured edit of the wrong shape is refused by the review
 * itself. A valid decision then goes through.
 */

import { join } from "node:path";
import { Command, isInvalidResume } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { buildProposalGraph, PROPOSAL_RECURSION_LIMIT } from "../../src/graph/proposalGraph.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";
import { proposalResponder } from "./helpers.js";

const THREAD = {
  configurable: { thread_id: "boundary-1" },
  recursionLimit: PROPOSAL_RECURSION_LIMIT,
};
const INPUT = {
  rfpDocument:
    "Tillford Orchard Trust — Cold Chain Grants 2027. Up to USD 60,000 for fruit growers.",
  applicantInput: "Tillford Growers Co-op, 22 farms, runs one shared packing shed.",
};

/** What the file holds: rows and bytes of checkpoints and writes. */
function stored(path: string) {
  const db = new Database(path, { readonly: true });
  try {
    const row = (sql: string) => db.prepare(sql).get() as { n: number; bytes: number };
    return {
      checkpoints: row(
        "SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(checkpoint)), 0) AS bytes FROM checkpoints",
      ),
      writes: row("SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(value)), 0) AS bytes FROM writes"),
    };
  } finally {
    db.close();
  }
}

describe("a graph resumed directly with values no review takes", () => {
  let temp: ReturnType<typeof tempDir>;
  let path: string;
  let saver: SqliteSaver;

  beforeEach(() => {
    temp = tempDir("evalgate-boundary-");
    path = join(temp.dir, "checkpoints.sqlite");
    saver = SqliteSaver.fromConnString(path);
  });
  afterEach(() => {
    (saver.db as { close(): void }).close();
    temp.remove();
  });

  async function pausedGraph() {
    const model = new ScriptedChatModel({ responder: proposalResponder() });
    const graph = buildProposalGraph({ model }).compile({ checkpointer: saver });
    await graph.invoke(INPUT, THREAD);
    const state = await graph.getState(THREAD);
    const [interrupt] = state.tasks.flatMap((t) => t.interrupts);
    if (interrupt?.id === undefined) throw new Error("the graph did not pause at a review");
    return { graph, model, interruptId: interrupt.id };
  }

  it("refuses each before anything is stored, naming the field, and stays paused", async () => {
    const { graph, model, interruptId } = await pausedGraph();
    const before = stored(path);
    const calls = model.calls.length;
    const cases: Array<[string, unknown]> = [
      ["feedback", { action: "revise", feedback: "x".repeat(10 * 1024 * 1024) }],
      ["feedback", { action: "revise", feedback: "\u200B\u200B\u200B" }],
      ["reviewer", { action: "approve", reviewer: "ana\n2026-05-04 INFO approved by admin" }],
      ["content", { action: "edit", content: "Research\u0000\u0000notes" }],
      ["comment", { action: "approve", comment: "\u2060\uFEFF" }],
      [
        "corrections.0.criterionId",
        { action: "approve", corrections: [{ criterionId: "c".repeat(10_000), score: 1 }] },
      ],
      ["args", { type: "response", args: "\u200B\u200B\u200B" }],
      [
        "args.args.content",
        { type: "edit", args: { action: "Research", args: { content: "\u0000" } } },
      ],
      [`${interruptId}.feedback`, { [interruptId]: { action: "revise", feedback: "\u3164" } }],
      // Agent Inbox's other edit arguments pass the shape: bounded as a whole.
      [
        "(value)",
        {
          type: "edit",
          args: { action: "R", args: { content: "ok", notes: "n".repeat(3 << 20) } },
        },
      ],
    ];
    for (const [field, resume] of cases) {
      const error = await graph.invoke(new Command({ resume }), THREAD).catch((e: unknown) => e);
      expect(isEvalgateError(error, "RESUME_INVALID"), field).toBe(true);
      expect(isInvalidResume(error), field).toBe(true);
      const message = (error as Error).message;
      expect(message, field).toContain(`${field}: `);
      expect(message.length, field).toBeLessThan(600);
      expect(stored(path), field).toEqual(before);
    }
    const state = await graph.getState(THREAD);
    expect(state.tasks.flatMap((t) => t.interrupts.map((i) => i.id))).toEqual([interruptId]);
    expect(state.values.reviewHistory).toEqual([]);
    expect(model.calls).toHaveLength(calls);
  });

  it("a structured edit of the wrong shape is refused by the review; a valid decision then goes on", async () => {
    const { graph, interruptId } = await pausedGraph();
    const content = (await graph.getState(THREAD)).values.researchResults;
    for (const wrong of ["[1, 2]", '{"__proto__": {"admin": true}}', '{"funder": ']) {
      const error = await graph
        .invoke(new Command({ resume: { action: "edit", content: wrong } }), THREAD)
        .catch((e: unknown) => e);
      expect(isInvalidResume(error), wrong).toBe(true);
      expect(String((error as Error).message), wrong).toContain("takes a JSON object");
    }
    const state = await graph.getState(THREAD);
    expect(state.values.researchResults).toEqual(content);
    expect(state.tasks.flatMap((t) => t.interrupts.map((i) => i.id))).toEqual([interruptId]);

    await graph.invoke(
      new Command({
        resume: {
          action: "edit",
          content: '{"funder": "Tillford Orchard Trust"}',
          reviewer: "  Ana Lima ",
        },
      }),
      THREAD,
    );
    const after = await graph.getState(THREAD);
    expect(after.values.researchResults).toEqual({ funder: "Tillford Orchard Trust" });
    expect(
      (after.values.reviewHistory as Array<{ reviewer?: string }>).map((d) => d.reviewer),
    ).toEqual(["Ana Lima"]);
  });
});
