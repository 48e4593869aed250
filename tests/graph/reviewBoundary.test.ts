/**
 * The review boundary at the graph's own door: the proposal graph as users compile it, on a real
 * SQLite checkpoint file, paused at its first review and resumed directly with values no review
 * takes — 10 MB of feedback, three zero-width spaces, a reviewer name with a line break and a fake
 * log line, content with NUL bytes, Agent Inbox answers of the same kinds, a resume map with them.
 * None fails the run: each is replaced before the run starts by a small stand-in naming the field,
 * so nothing of the value is written to the file (its text searched for in every stored row, the
 * growth counted in bytes), and the review asks again with the refusal; a structured edit of the
 * wrong shape is refused by the review itself. A valid decision then goes through.
 */

import { join } from "node:path";
import { Command } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildProposalGraph, PROPOSAL_RECURSION_LIMIT } from "../../src/graph/proposalGraph.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";
import { askedAgain, proposalResponder } from "./helpers.js";

const THREAD = {
  configurable: { thread_id: "boundary-1" },
  recursionLimit: PROPOSAL_RECURSION_LIMIT,
};
const INPUT = {
  rfpDocument:
    "Tillford Orchard Trust — Cold Chain Grants 2027. Up to USD 60,000 for fruit growers.",
  applicantInput: "Tillford Growers Co-op, 22 farms, runs one shared packing shed.",
};

/** Every stored row's bytes, as one latin1 string to search in. */
function storedText(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const rows = [
      ...db.prepare("SELECT checkpoint AS b, metadata AS m FROM checkpoints").all(),
      ...db.prepare("SELECT value AS b, '' AS m FROM writes").all(),
    ] as Array<{ b: Buffer | string | null; m: Buffer | string | null }>;
    return rows
      .flatMap((r) => [r.b, r.m])
      .map((v) => (v === null ? "" : Buffer.from(v).toString("latin1")))
      .join("\n");
  } finally {
    db.close();
  }
}

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

  it("stores nothing of each, names the field, and asks again", async () => {
    const { graph, model } = await pausedGraph();
    const calls = model.calls.length;
    // Each value with the text that must not reach the file (none for what only invisible
    // characters make up: their UTF-8 bytes are searched for instead).
    const cases: Array<[string, unknown, string]> = [
      [
        "feedback",
        { action: "revise", feedback: `FEEDBACK-TOKEN${"x".repeat(10 * 1024 * 1024)}` },
        "FEEDBACK-TOKEN",
      ],
      ["feedback", { action: "revise", feedback: "\u200B\u200B\u200B" }, "\u200B\u200B\u200B"],
      [
        "reviewer",
        { action: "approve", reviewer: "ana\n2026-05-04 INFO approved by admin" },
        "INFO approved by admin",
      ],
      ["content", { action: "edit", content: "NUL-TOKEN\u0000\u0000notes" }, "NUL-TOKEN"],
      ["comment", { action: "approve", comment: "\u2060\uFEFF" }, "\u2060\uFEFF"],
      [
        "corrections.0.criterionId",
        { action: "approve", corrections: [{ criterionId: "c".repeat(10_000), score: 1 }] },
        "c".repeat(1_000),
      ],
      ["args", { type: "response", args: "\u200B\u200B\u200B" }, "\u200B\u200B\u200B"],
      [
        "args.args.content",
        { type: "edit", args: { action: "Research", args: { content: "\u0000EDIT-TOKEN" } } },
        "EDIT-TOKEN",
      ],
      // Agent Inbox's other edit arguments pass the shape: bounded as a whole.
      [
        "(answer)",
        {
          type: "edit",
          args: {
            action: "R",
            args: { content: "ok", notes: `NOTES-TOKEN${"n".repeat(3 << 20)}` },
          },
        },
        "NOTES-TOKEN",
      ],
    ];
    for (const [field, resume, secret] of cases) {
      const before = stored(path);
      const asked = askedAgain(await graph.invoke(new Command({ resume }), THREAD));
      expect(asked.refusal.field, field).toBe(field);
      expect(asked.description.length, field).toBeLessThan(20_000);
      const after = stored(path);
      const grown =
        after.checkpoints.bytes +
        after.writes.bytes -
        before.checkpoints.bytes -
        before.writes.bytes;
      expect(grown, field).toBeLessThan(256 * 1024);
      expect(storedText(path).includes(Buffer.from(secret, "utf8").toString("latin1")), field).toBe(
        false,
      );
    }
    // A resume map: its answer is screened the same way.
    const [waiting] = (await graph.getState(THREAD)).tasks.flatMap((t) => t.interrupts);
    const id = String(waiting?.id);
    const mapped = askedAgain(
      await graph.invoke(
        new Command({ resume: { [id]: { action: "revise", feedback: "\u3164" } } }),
        THREAD,
      ),
    );
    expect(mapped.refusal.field).toBe("feedback");
    const state = await graph.getState(THREAD);
    expect(state.next).toEqual(["reviewResearch"]);
    expect(state.values.reviewHistory).toEqual([]);
    expect(model.calls).toHaveLength(calls);
    await graph.invoke(new Command({ resume: { action: "approve", reviewer: "Ana" } }), THREAD);
    expect((await graph.getState(THREAD)).values.researchStatus).toBe("approved");
  });

  it("a structured edit of the wrong shape is refused by the review; a valid decision then goes on", async () => {
    const { graph, interruptId } = await pausedGraph();
    const content = (await graph.getState(THREAD)).values.researchResults;
    for (const wrong of ["[1, 2]", '{"__proto__": {"admin": true}}', '{"funder": ']) {
      const asked = askedAgain(
        await graph.invoke(new Command({ resume: { action: "edit", content: wrong } }), THREAD),
      );
      expect(asked.refusal.field, wrong).toBe("content");
      expect(asked.refusal.problem, wrong).toContain("takes a JSON object");
    }
    const state = await graph.getState(THREAD);
    expect(state.values.researchResults).toEqual(content);
    expect(state.tasks.flatMap((t) => t.interrupts.map((i) => i.id))).not.toContain(interruptId);

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
    expect(after.values.researchResults).toEqual({ ...content, funder: "Tillford Orchard Trust" });
    expect(
      (after.values.reviewHistory as Array<{ reviewer?: string }>).map((d) => d.reviewer),
    ).toEqual(["Ana Lima"]);
  });
});
