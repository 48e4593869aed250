import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Annotation,
  Command,
  END,
  type LangGraphRunnableConfig,
  MemorySaver,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isEvalgateError } from "../../src/errors.js";
import { buildEvaluationGraph, withEvaluationGate } from "../../src/graph/evaluationGraph.js";
import { sinksOfSaver, withRunSinks } from "../../src/graph/index.js";
import type { DecisionRecord, ProcessingStatus } from "../../src/graph/model.js";
import type { EvaluationResult } from "../../src/scoring/result.js";
import { getTraces } from "../../src/store/index.js";
import { askedAgain, scoringJudge } from "../graph/helpers.js";

const DRAFT = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";
const EDITED = "Flooding in Calder Bay displaced 1,240 households in 2024 and 310 more in 2025.";
/** config/evaluation/criteria/problem_statement.json has five criteria: one judge call each. */
const CRITERIA = 5;

const thread = (id: string) => ({ configurable: { thread_id: id } });

/** What the parent keeps of the gate's outcome. */
interface GateOutcome {
  status: ProcessingStatus;
  score: number | null;
  decisions: string[];
}

function outcome(
  status: ProcessingStatus,
  evaluation: EvaluationResult | null | undefined,
  history: DecisionRecord[] | undefined,
): GateOutcome {
  return {
    status,
    score: evaluation?.overallScore ?? null,
    decisions: (history ?? []).map((r) => r.action),
  };
}

const accepted = (status: ProcessingStatus) => status === "approved" || status === "edited";

interface PendingInterrupt {
  id: string;
  value: { type: string; contentType: string };
}

/** The interrupts a paused invoke returned (LangGraph adds `__interrupt__` to the output). */
function returnedInterrupts(result: unknown): PendingInterrupt[] {
  return (result as { __interrupt__?: PendingInterrupt[] }).__interrupt__ ?? [];
}

/** The one pending interrupt the parent's state shows (throws when there is not exactly one). */
function pendingInterrupt(tasks: ReadonlyArray<{ interrupts: unknown[] }>): PendingInterrupt {
  const all = tasks.flatMap((t) => t.interrupts) as PendingInterrupt[];
  expect(all).toHaveLength(1);
  return all[0] as PendingInterrupt;
}

/**
 * Direct form: the compiled gate is the node itself. The parent shares the gate's channels
 * (content, contentType, evaluation, status, reviewHistory), so LangGraph hands them to the child
 * and takes its output back; `draft`, `gate` and `published` are the parent's own.
 */
const DirectParentState = Annotation.Root({
  draft: Annotation<string>(),
  content: Annotation<unknown>(),
  contentType: Annotation<string>(),
  evaluation: Annotation<EvaluationResult | null | undefined>(),
  status: Annotation<ProcessingStatus>(),
  reviewHistory: Annotation<DecisionRecord[]>(),
  gate: Annotation<GateOutcome | undefined>(),
  published: Annotation<string | undefined>(),
});
type DirectParent = typeof DirectParentState.State;

function directParent(score = 0.85) {
  const model = scoringJudge(score);
  const child = buildEvaluationGraph({ model }).compile();
  const graph = new StateGraph(DirectParentState)
    .addNode("prepare", (s: DirectParent) => ({
      content: s.draft,
      contentType: "problem_statement",
    }))
    .addNode("qualityGate", child)
    .addNode("publish", (s: DirectParent) => ({
      gate: outcome(s.status, s.evaluation, s.reviewHistory),
      published: accepted(s.status) ? String(s.content) : undefined,
    }))
    .addEdge(START, "prepare")
    .addEdge("prepare", "qualityGate")
    .addEdge("qualityGate", "publish")
    .addEdge("publish", END)
    .compile({ checkpointer: new MemorySaver() });
  return { model, graph };
}

/** Wrapped form: the parent has only its own fields; a node function maps them to the gate. */
const WrappedParentState = Annotation.Root({
  draft: Annotation<string>(),
  gate: Annotation<GateOutcome | undefined>(),
  published: Annotation<string | undefined>(),
});
type WrappedParent = typeof WrappedParentState.State;

function wrappedParent(score = 0.85) {
  const model = scoringJudge(score);
  const child = buildEvaluationGraph({ model }).compile();
  const graph = new StateGraph(WrappedParentState)
    .addNode("qualityGate", async (s: WrappedParent, config: LangGraphRunnableConfig) => {
      const out = await child.invoke(
        { content: s.draft, contentType: "problem_statement" },
        config,
      );
      return {
        draft: typeof out.content === "string" ? out.content : s.draft,
        gate: outcome(out.status, out.evaluation, out.reviewHistory),
      };
    })
    .addNode("publish", (s: WrappedParent) => ({
      published: s.gate !== undefined && accepted(s.gate.status) ? s.draft : undefined,
    }))
    .addEdge(START, "qualityGate")
    .addEdge("qualityGate", "publish")
    .addEdge("publish", END)
    .compile({ checkpointer: new MemorySaver() });
  return { model, graph };
}

describe("the evaluation gate added directly as a subgraph node", () => {
  it("pauses at the child's review, shows it in the parent's state, and approve runs the parent on", async () => {
    const { model, graph } = directParent();
    const paused = await graph.invoke({ draft: DRAFT }, thread("d1"));
    expect(returnedInterrupts(paused)[0]?.value).toMatchObject({ type: "evaluation_review" });
    expect(paused.gate).toBeUndefined();
    expect(model.calls).toHaveLength(CRITERIA);

    const parent = await graph.getState(thread("d1"), { subgraphs: true });
    expect(parent.next).toEqual(["qualityGate"]);
    expect(pendingInterrupt(parent.tasks).value).toMatchObject({
      type: "evaluation_review",
      contentType: "problem_statement",
    });
    const childState = parent.tasks[0]?.state;
    expect(childState).toBeDefined();
    expect(childState !== undefined && "values" in childState).toBe(true);
    if (childState !== undefined && "values" in childState) {
      expect(childState.next).toEqual(["review"]);
      expect(childState.values).toMatchObject({ status: "awaiting_review", content: DRAFT });
    }

    const done = await graph.invoke(
      new Command({ resume: { action: "approve", reviewer: "ana" } }),
      thread("d1"),
    );
    expect(done.gate).toEqual({ status: "approved", score: 0.85, decisions: ["approve"] });
    expect(done.published).toBe(DRAFT);
    expect(done.reviewHistory[0]).toMatchObject({ action: "approve", reviewer: "ana" });
    expect(model.calls).toHaveLength(CRITERIA); // the resume judged nothing again
    expect((await graph.getState(thread("d1"))).next).toEqual([]);
  });

  it("resumes the child's interrupt by its id: revise ends the gate, publish publishes nothing", async () => {
    const { model, graph } = directParent();
    await graph.invoke({ draft: DRAFT }, thread("d2"));
    const { id } = pendingInterrupt((await graph.getState(thread("d2"))).tasks);
    const done = await graph.invoke(
      new Command({ resume: { [id]: { action: "revise", feedback: "Add the 2025 figures." } } }),
      thread("d2"),
    );
    expect(done.status).toBe("revision_requested");
    expect(done.gate).toEqual({ status: "revision_requested", score: 0.85, decisions: ["revise"] });
    expect(done.published).toBeUndefined();
    expect(model.calls).toHaveLength(CRITERIA);
  });

  it("edit hands the reviewer's content back to the parent", async () => {
    const { graph } = directParent();
    await graph.invoke({ draft: DRAFT }, thread("d3"));
    const done = await graph.invoke(
      new Command({ resume: { action: "edit", content: EDITED } }),
      thread("d3"),
    );
    expect(done.content).toBe(EDITED);
    expect(done.gate?.status).toBe("edited");
    expect(done.published).toBe(EDITED);
  });

  it("an invalid resume through the parent is asked again, parent and child paused", async () => {
    const { model, graph } = directParent();
    await graph.invoke({ draft: DRAFT }, thread("d4"));
    const asked = askedAgain(
      await graph.invoke(new Command({ resume: { action: "revise" } }), thread("d4")),
    );
    expect(asked.refusal.field).toBe("feedback");
    const parent = await graph.getState(thread("d4"));
    expect(parent.next).toEqual(["qualityGate"]);
    expect(pendingInterrupt(parent.tasks).value.type).toBe("evaluation_review");
    const done = await graph.invoke(new Command({ resume: { action: "approve" } }), thread("d4"));
    expect(done.gate?.status).toBe("approved");
    expect(model.calls).toHaveLength(CRITERIA);
  });

  it("the parent's run context reaches the child (passingThreshold)", async () => {
    const { graph } = directParent(0.85);
    const config = { ...thread("d5"), context: { passingThreshold: 0.9 } };
    const paused = await graph.invoke({ draft: DRAFT }, config);
    // The child's writes reach the parent only when the child finishes.
    expect(paused.evaluation).toBeUndefined();
    const childState = (await graph.getState(thread("d5"), { subgraphs: true })).tasks[0]?.state;
    expect(childState !== undefined && "values" in childState && childState.values).toMatchObject({
      evaluation: { passed: false, overallScore: 0.85 },
    });
    const done = await graph.invoke(new Command({ resume: { action: "approve" } }), config);
    expect(done.evaluation?.passed).toBe(false);
    expect(done.gate).toEqual({ status: "approved", score: 0.85, decisions: ["approve"] });
  });
});

describe("the evaluation gate inside a node function", () => {
  it("pauses at the child's review; approve through the parent finishes the child, then publish runs", async () => {
    const { model, graph } = wrappedParent();
    const paused = await graph.invoke({ draft: DRAFT }, thread("w1"));
    expect(returnedInterrupts(paused)[0]?.value).toMatchObject({ type: "evaluation_review" });
    expect(model.calls).toHaveLength(CRITERIA);

    const parent = await graph.getState(thread("w1"), { subgraphs: true });
    expect(parent.next).toEqual(["qualityGate"]);
    expect(pendingInterrupt(parent.tasks).value.contentType).toBe("problem_statement");
    // A child invoked inside a node function is not a registered subgraph: its snapshot is not shown.
    expect(parent.tasks[0]?.state).toBeUndefined();

    const done = await graph.invoke(
      new Command({ resume: { action: "approve", reviewer: "ana" } }),
      thread("w1"),
    );
    expect(done).toEqual({
      draft: DRAFT,
      gate: { status: "approved", score: 0.85, decisions: ["approve"] },
      published: DRAFT,
    });
    expect(model.calls).toHaveLength(CRITERIA); // the node re-ran, the child's evaluation did not
  });

  it("edit: the child's edited content becomes the parent's draft", async () => {
    const { model, graph } = wrappedParent();
    await graph.invoke({ draft: DRAFT }, thread("w2"));
    const done = await graph.invoke(
      new Command({ resume: { action: "edit", content: EDITED } }),
      thread("w2"),
    );
    expect(done.draft).toBe(EDITED);
    expect(done.gate?.decisions).toEqual(["edit"]);
    expect(done.published).toBe(EDITED);
    expect(model.calls).toHaveLength(CRITERIA);
  });
});

describe("the evaluation gate embedded in a parent on a SQLite checkpointer", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "evalgate-embedded-sinks-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The direct form compiled on a new connection to the parent's checkpoint file. */
  function parentOnSqlite() {
    const model = scoringJudge();
    const saver = SqliteSaver.fromConnString(join(dir, "pipeline.sqlite"));
    const graph = new StateGraph(DirectParentState)
      .addNode("prepare", (s: DirectParent) => ({
        content: s.draft,
        contentType: "problem_statement",
      }))
      .addNode("qualityGate", buildEvaluationGraph({ model }).compile())
      .addEdge(START, "prepare")
      .addEdge("prepare", "qualityGate")
      .addEdge("qualityGate", END)
      .compile({ checkpointer: saver });
    return { model, saver, graph };
  }

  it("keeps its traces and judge answers in the parent's database when the runs are given its sinks", async () => {
    const first = parentOnSqlite();
    const onDatabase = (id: string) => withRunSinks(thread(id), sinksOfSaver(first.saver));
    await first.graph.invoke({ draft: DRAFT }, onDatabase("s1"));
    const done = await first.graph.invoke(
      new Command({ resume: { action: "approve" } }),
      onDatabase("s1"),
    );
    first.saver.db.close();
    expect(first.model.calls).toHaveLength(CRITERIA);
    // The result in the parent's state holds the trace ids, not the prompts and answers.
    expect(done.evaluation?.traces).toEqual([]);
    const sqlitePath = join(dir, "pipeline.sqlite");
    const traces = await getTraces("s1", { sqlitePath });
    expect(traces.map((t) => t.id)).toEqual(done.evaluation?.traceIds);
    expect(traces.length).toBeGreaterThanOrEqual(CRITERIA);

    // A second thread over the same draft, from a new connection: every answer from the cache.
    const second = parentOnSqlite();
    await second.graph.invoke(
      { draft: DRAFT },
      withRunSinks(thread("s2"), sinksOfSaver(second.saver)),
    );
    second.saver.db.close();
    expect(second.model.calls).toHaveLength(0);
  });
});

describe("the evaluation gate with no checkpointer to pause on", () => {
  it("is refused before it judges anything when run alone", async () => {
    const model = scoringJudge();
    const alone = buildEvaluationGraph({ model }).compile();
    const error = await alone.invoke({ content: DRAFT, contentType: "problem_statement" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isEvalgateError(error, "CHECKPOINTER_MISSING")).toBe(true);
    expect((error as Error).message).toMatch(/pauses for a reviewer.*checkpointer/);
    expect(model.calls).toHaveLength(0);
  });
});

describe("two evaluation gates in one parent", () => {
  const BUDGET = "Budget: 40 homes at $12,000 each, $480,000 in all.";
  const Two = withEvaluationGate({
    problem: Annotation<string>(),
    outcomes: Annotation<string[]>(),
  });
  type TwoState = typeof Two.State;
  const noted = (s: TwoState) => ({
    outcomes: [...(s.outcomes ?? []), `${s.contentType}:${s.status}`],
  });

  it("take turns, each fed by a node that sets content and contentType", async () => {
    const gate = () => buildEvaluationGraph({ model: scoringJudge() }).compile();
    const graph = new StateGraph(Two)
      .addNode("problemIn", (s: TwoState) => ({
        content: s.problem,
        contentType: "problem_statement",
      }))
      .addNode("problemGate", gate())
      .addNode("problemOut", noted)
      .addNode("budgetIn", () => ({ content: BUDGET, contentType: "budget" }))
      .addNode("budgetGate", gate())
      .addNode("budgetOut", noted)
      .addEdge(START, "problemIn")
      .addEdge("problemIn", "problemGate")
      .addEdge("problemGate", "problemOut")
      .addEdge("problemOut", "budgetIn")
      .addEdge("budgetIn", "budgetGate")
      .addEdge("budgetGate", "budgetOut")
      .addEdge("budgetOut", END)
      .compile({ checkpointer: new MemorySaver() });
    const first = await graph.invoke({ problem: DRAFT }, thread("t1"));
    expect(returnedInterrupts(first)[0]?.value.contentType).toBe("problem_statement");
    const second = await graph.invoke(new Command({ resume: { action: "approve" } }), thread("t1"));
    expect(returnedInterrupts(second)[0]?.value.contentType).toBe("budget");
    const done = await graph.invoke(
      new Command({ resume: [{ type: "response", args: "Itemise the costs." }] }),
      thread("t1"),
    );
    expect(done.outcomes).toEqual(["problem_statement:approved", "budget:revision_requested"]);
    expect(done.reviewHistory.map((r) => `${r.contentType}:${r.action}`)).toEqual([
      "problem_statement:approve",
      "budget:revise",
    ]);
  });

  it("side by side inside node functions, their reviews answered by interrupt id", async () => {
    const gate = buildEvaluationGraph({ model: scoringJudge() }).compile();
    const Side = Annotation.Root({ problem: Annotation<string>(), budget: Annotation<string>() });
    const graph = new StateGraph(Side)
      .addNode("problemGate", async (s: typeof Side.State, config: LangGraphRunnableConfig) => ({
        problem: (
          await gate.invoke({ content: s.problem, contentType: "problem_statement" }, config)
        ).status,
      }))
      .addNode("budgetGate", async (s: typeof Side.State, config: LangGraphRunnableConfig) => ({
        budget: (await gate.invoke({ content: s.budget, contentType: "budget" }, config)).status,
      }))
      .addEdge(START, "problemGate")
      .addEdge(START, "budgetGate")
      .addEdge("problemGate", END)
      .addEdge("budgetGate", END)
      .compile({ checkpointer: new MemorySaver() });
    const paused = returnedInterrupts(
      await graph.invoke({ problem: DRAFT, budget: BUDGET }, thread("t2")),
    );
    const idOf = (type: string) => paused.find((i) => i.value.contentType === type)?.id ?? "";
    const done = await graph.invoke(
      new Command({
        resume: {
          [idOf("problem_statement")]: { action: "approve" },
          [idOf("budget")]: { action: "revise", feedback: "Itemise the costs." },
        },
      }),
      thread("t2"),
    );
    expect(done).toEqual({ problem: "approved", budget: "revision_requested" });
  });
});
