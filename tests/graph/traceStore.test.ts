import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { buildProposalGraph } from "../../src/graph/proposalGraph.js";
import { sinksOfSaver, withRunSinks } from "../../src/graph/runSinks.js";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { getTraces } from "../../src/store/index.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { researchGraph } from "../orchestrator/helpers.js";
import { proposalResponder } from "./helpers.js";
import { isWriterCall, RFP } from "./proposalHarness.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDb(): string {
  const dir = mkdtempSync(join(tmpdir(), "evalgate-traces-"));
  dirs.push(dir);
  return join(dir, "threads.sqlite");
}

/** Runs the proposal graph on a SQLite checkpointer to its first review. */
async function pausedOnSqlite(sqlitePath: string, threadId: string) {
  const model = new ScriptedChatModel({ responder: proposalResponder() });
  const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
  const graph = buildProposalGraph({ model }).compile({ checkpointer: checkpointer.saver });
  const config = { configurable: { thread_id: threadId } };
  await graph.invoke({ rfpDocument: RFP }, config);
  const snapshot = await graph.getState(config);
  await checkpointer.close();
  return { model, snapshot };
}

describe("traces beside the checkpoints", () => {
  it("keeps the judge's prompts and answers in the trace store, the result in state only their ids", async () => {
    const sqlitePath = tempDb();
    const { model, snapshot } = await pausedOnSqlite(sqlitePath, "traced-1");
    const evaluation = snapshot.values.researchEvaluation;
    expect(evaluation?.traces).toEqual([]);
    expect(evaluation?.rawResponse).toBeUndefined();
    // The judge's calls and the injection guard's.
    const judgeCalls = [...model.calls.filter((c) => !isWriterCall(c)), ...model.guardCalls];
    expect(evaluation?.traceIds).toHaveLength(judgeCalls.length);

    const evaluationId = evaluation?.evaluationId ?? "";
    const traces = await getTraces({ evaluationId }, { sqlitePath, env: {} });
    expect(traces.map((t) => t.id)).toEqual(evaluation?.traceIds);
    const sentPrompts = judgeCalls.map((c) => c.messages.at(-1)?.content).sort();
    expect(traces.map((t) => t.userPrompt).sort()).toEqual(sentPrompts);

    // One call away by the thread's id too, or by an id that is either.
    expect((await getTraces({ threadId: "traced-1" }, { sqlitePath })).map((t) => t.id)).toEqual(
      evaluation?.traceIds,
    );
    expect(await getTraces(evaluationId, { sqlitePath })).toEqual(traces);
    expect(await getTraces("traced-1", { sqlitePath })).toEqual(traces);
    expect(await getTraces("no-such-thread", { sqlitePath })).toEqual([]);
  });

  it("the review refers to the result in state instead of carrying a copy of it", async () => {
    const { snapshot } = await pausedOnSqlite(tempDb(), "traced-2");
    const value = snapshot.tasks.flatMap((t) => t.interrupts)[0]?.value as Record<string, unknown>;
    const evaluation = snapshot.values.researchEvaluation;
    expect(value.evaluation).toBeNull();
    expect(value.evaluationRef).toEqual({
      field: "researchEvaluation",
      evaluationId: evaluation?.evaluationId,
      overallScore: evaluation?.overallScore,
      passed: evaluation?.passed,
      verdict: evaluation?.verdict,
    });
    expect(snapshot.values.interruptMetadata?.evaluation).toBeNull();
  });

  it("a graph on an in-memory checkpointer keeps the traces in the result", async () => {
    const model = new ScriptedChatModel({ responder: proposalResponder() });
    const graph = buildProposalGraph({ model }).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "inline-1" } };
    await graph.invoke({ rfpDocument: RFP }, config);
    const evaluation = (await graph.getState(config)).values.researchEvaluation;
    // The judge's calls and the injection guard's.
    const judgeCalls = [...model.calls.filter((c) => !isWriterCall(c)), ...model.guardCalls];
    expect(evaluation?.traces).toHaveLength(judgeCalls.length);
    expect(evaluation?.traceIds).toBeUndefined();
  });

  it("a graph of the caller's own keeps them beside its checkpoints when its runs carry the sinks", async () => {
    const sqlitePath = tempDb();
    const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
    try {
      const graph = researchGraph().graph.compile({ checkpointer: checkpointer.saver });
      const sinks = sinksOfSaver(checkpointer.saver);
      const carried = withRunSinks({ configurable: { thread_id: "own-1" } }, sinks);
      await graph.invoke({}, carried);
      const kept = (await graph.getState({ configurable: { thread_id: "own-1" } })).values;
      expect(kept.researchEvaluation?.traces).toEqual([]);
      const traces = await getTraces("own-1", { sqlitePath });
      expect(traces.map((t) => t.id)).toEqual(kept.researchEvaluation?.traceIds);
      expect(traces.length).toBeGreaterThan(0);

      // The same graph, its run given no sinks: nothing reaches the store, the result keeps them.
      const bare = { configurable: { thread_id: "own-2" } };
      await graph.invoke({}, bare);
      const inline = (await graph.getState(bare)).values.researchEvaluation;
      expect(inline?.traceIds).toBeUndefined();
      expect(inline?.traces.length).toBe(traces.length);
      expect(await getTraces("own-2", { sqlitePath })).toEqual([]);
    } finally {
      await checkpointer.close();
    }
  });

  it("reading the traces of a file that does not exist is an error naming it", async () => {
    const sqlitePath = join(tmpdir(), "evalgate-no-such-dir", "missing.sqlite");
    await expect(getTraces("x", { sqlitePath })).rejects.toMatchObject({
      code: "STORE_OPEN_FAILED",
      message: expect.stringContaining("missing.sqlite"),
    });
  });
});
