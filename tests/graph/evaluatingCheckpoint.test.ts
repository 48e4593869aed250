/**
 * `evaluating` is in the checkpoint an evaluation runs from, not only on the stream: the judge
 * holds its calls, and the thread's checkpoint — read through the graph, and through a second
 * connection to the same SQLite file as a process restarted after a crash reads it — says
 * `evaluating`, with the evaluation as the next step. The run is then cut off while the judge
 * holds (its signal aborted) and resumed from that checkpoint to the review.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { buildProposalGraph, PROPOSAL_RECURSION_LIMIT } from "../../src/graph/proposalGraph.js";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { ScriptedChatModel, type ScriptedResponder, type ScriptStep } from "../doubles/index.js";
import { judgeResponder, proposalResponder } from "./helpers.js";
import { input } from "./proposalHarness.js";

/** The shipped research catalog's criteria: one judge call each, all at once (concurrency 5). */
const RESEARCH_CRITERIA = 5;
const evaluation = { mode: "per-criterion", concurrency: RESEARCH_CRITERIA } as const;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "evalgate-evaluating-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The thread's latest checkpoint as a second connection to the file reads it. */
async function durableCheckpoint(sqlitePath: string, threadId: string) {
  const reader = await createCheckpointer({ sqlitePath, env: {} });
  try {
    const tuple = await reader.saver.getTuple({
      configurable: { thread_id: threadId, checkpoint_ns: "" },
    });
    return tuple?.checkpoint.channel_values as Record<string, unknown> | undefined;
  } finally {
    await reader.close();
  }
}

/** `count` judge calls held at the gate; later calls answer at once. */
function heldCalls(count: number, respond: ScriptedResponder): ScriptStep[] {
  return Array.from({ length: count }, () => ({ reply: respond, hold: true }));
}

describe("a checkpoint taken while a stage is being judged", () => {
  it("proposal graph: says `evaluating`; a run cut off there resumes to the review", async () => {
    const sqlitePath = join(dir, "checkpoints.sqlite");
    const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
    try {
      const respond = proposalResponder();
      // The writer answers at once; the research's judge calls wait at the gate.
      const model = new ScriptedChatModel({
        script: [respond, ...heldCalls(RESEARCH_CRITERIA, respond)],
        responder: respond,
      });
      const graph = buildProposalGraph({ model, evaluation }).compile({
        checkpointer: checkpointer.saver,
      });
      const config = {
        configurable: { thread_id: "held-judge" },
        recursionLimit: PROPOSAL_RECURSION_LIMIT,
      };
      const cut = new AbortController();
      const running = graph.invoke(input(), { ...config, signal: cut.signal });
      const outcome = running.then(
        () => "finished",
        () => "cut off",
      );
      await model.waitFor((m) => m.held === RESEARCH_CRITERIA);

      const snapshot = await graph.getState(config);
      expect(snapshot.values.researchStatus).toBe("evaluating");
      expect(snapshot.next).toEqual(["evaluateResearch"]);
      expect(snapshot.values.researchEvaluation ?? null).toBeNull();
      const durable = await durableCheckpoint(sqlitePath, "held-judge");
      expect(durable?.researchStatus).toBe("evaluating");

      cut.abort(new Error("the process went away"));
      expect(await outcome).toBe("cut off");
      expect((await graph.getState(config)).values.researchStatus).toBe("evaluating");

      await graph.invoke(null, config);
      const resumed = await graph.getState(config);
      expect(resumed.values.researchStatus).toBe("awaiting_review");
      expect(resumed.next).toEqual(["reviewResearch"]);
      expect(model.aborted).toBe(RESEARCH_CRITERIA);
      // Written once; judged five times before the cut (held, then aborted), five after it.
      expect(model.calls).toHaveLength(1 + 2 * RESEARCH_CRITERIA);
    } finally {
      await checkpointer.close();
    }
  });

  it("evaluation gate: says `evaluating` while the judge holds, then `awaiting_review`", async () => {
    const sqlitePath = join(dir, "gate.sqlite");
    const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
    try {
      const model = new ScriptedChatModel({ hold: true, responder: judgeResponder() });
      const graph = buildEvaluationGraph({ model, ...evaluation }).compile({
        checkpointer: checkpointer.saver,
      });
      const config = { configurable: { thread_id: "held-gate" } };
      const running = graph.invoke(
        { content: "Flooding displaced 1,240 households in 2024.", contentType: "research" },
        config,
      );
      await model.waitFor((m) => m.held === RESEARCH_CRITERIA);
      const snapshot = await graph.getState(config);
      expect(snapshot.values.status).toBe("evaluating");
      expect(snapshot.next).toEqual(["evaluate"]);
      expect((await durableCheckpoint(sqlitePath, "held-gate"))?.status).toBe("evaluating");

      model.release();
      await running;
      expect((await graph.getState(config)).values.status).toBe("awaiting_review");
    } finally {
      await checkpointer.close();
    }
  });
});
