/**
 * The judge-call cache in a graph: on a SQLite checkpointer it is on by default, in the
 * checkpoints' file — a second thread over the same content is judged without a model call, even
 * from a new connection to the file — and `cache: false` turns it off. A graph on an in-memory
 * checkpointer keeps nothing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { JudgeCacheSetting } from "../../src/engine/judgeCache.js";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { scoringJudge } from "./helpers.js";

const PROBLEM = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";
const CRITERIA = 5; // the problem_statement catalog's criteria
const thread = (id: string) => ({ configurable: { thread_id: id } });

describe("the judge-call cache in an evaluation graph", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "evalgate-graph-cache-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** One thread to its review on a new connection to the file; the judge calls it made. */
  async function judgeOnce(threadId: string, cache?: JudgeCacheSetting, saver?: MemorySaver) {
    const model = scoringJudge(0.85);
    const checkpointer = saver ?? SqliteSaver.fromConnString(join(dir, "checkpoints.sqlite"));
    const graph = buildEvaluationGraph({
      model,
      ...(cache === undefined ? {} : { cache }),
    }).compile({ checkpointer });
    try {
      await graph.invoke({ content: PROBLEM, contentType: "problem_statement" }, thread(threadId));
      const state = await graph.getState(thread(threadId));
      const evaluation = state.values.evaluation as { cacheHits?: number; passed: boolean };
      return { calls: model.calls.length, evaluation };
    } finally {
      if (checkpointer instanceof SqliteSaver) checkpointer.db.close();
    }
  }

  it("is on by default on a SQLite checkpointer, in its file", async () => {
    const first = await judgeOnce("a");
    expect(first.calls).toBe(CRITERIA);
    expect(first.evaluation.cacheHits).toBe(0);
    const second = await judgeOnce("b");
    expect(second.calls).toBe(0);
    expect(second.evaluation.cacheHits).toBe(CRITERIA);
    expect(second.evaluation.passed).toBe(first.evaluation.passed);
  });

  it("is off with cache: false, and keeps nothing on an in-memory checkpointer", async () => {
    await judgeOnce("a");
    expect((await judgeOnce("b", false)).calls).toBe(CRITERIA);
    const memory = new MemorySaver();
    expect((await judgeOnce("c", undefined, memory)).calls).toBe(CRITERIA);
    expect((await judgeOnce("d", undefined, memory)).calls).toBe(CRITERIA);
  });
});
