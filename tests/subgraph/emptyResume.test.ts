/**
 * An empty answer (null, undefined) to the evaluation gate's review, sent to the gate alone or to a
 * parent graph that embeds it. The parent's runs are not the gate's, so no guard of the gate sees
 * them: `new Command({ resume: null })` on the parent meets LangGraph first, which refuses a
 * Command that carries nothing before any node runs. An empty answer that does reach the review (the
 * gate alone, an answer naming the interrupt, Agent Inbox's list of one) is asked again with why.
 */
import { Annotation, Command, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { buildEvaluationGraph, withEvaluationGate } from "../../src/graph/evaluationGraph.js";
import { askedAgain, scoringJudge } from "../graph/helpers.js";

const DRAFT = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";
/** config/evaluation/criteria/problem_statement.json has five criteria: one judge call each. */
const CRITERIA = 5;
const thread = (id: string) => ({ configurable: { thread_id: id } });

/** The refusal of an empty answer, as the review words it (worked out from reviewAnswer.ts). */
const EMPTY_REFUSAL = {
  field: "(answer)",
  problem: "is empty: it holds no decision",
  fix: "Answer with approve, revise or edit (in Agent Inbox: accept, respond or edit).",
};

const ParentState = withEvaluationGate({ draft: Annotation<string>() });

/** prepare → the gate as a subgraph node → END, on a MemorySaver. */
function parentGraph() {
  const model = scoringJudge(0.85);
  const graph = new StateGraph(ParentState)
    .addNode("prepare", (s: typeof ParentState.State) => ({
      content: s.draft,
      contentType: "problem_statement",
    }))
    .addNode("qualityGate", buildEvaluationGraph({ model }).compile())
    .addEdge(START, "prepare")
    .addEdge("prepare", "qualityGate")
    .addEdge("qualityGate", END)
    .compile({ checkpointer: new MemorySaver() });
  return { model, graph };
}

interface Waiting {
  id: string;
  value: { type: string; refusal?: unknown };
}

/** The one review the parent waits on (fails when it waits on none or several). */
async function waitingReview(
  graph: ReturnType<typeof parentGraph>["graph"],
  id: string,
): Promise<Waiting> {
  const state = await graph.getState(thread(id));
  expect(state.next).toEqual(["qualityGate"]);
  const interrupts = state.tasks.flatMap((t) => t.interrupts) as Waiting[];
  expect(interrupts).toHaveLength(1);
  return interrupts[0] as Waiting;
}

async function thrownBy(run: Promise<unknown>): Promise<Error | undefined> {
  return run.then(
    () => undefined,
    (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
  );
}

describe("an empty answer sent to a parent graph that embeds the gate", () => {
  it("is refused by LangGraph before any node runs (EmptyInputError): the review still waits", async () => {
    const { model, graph } = parentGraph();
    await graph.invoke({ draft: DRAFT }, thread("p1"));
    const before = await waitingReview(graph, "p1");
    for (const resume of [null, undefined]) {
      const error = await thrownBy(graph.invoke(new Command({ resume }), thread("p1")));
      expect(error?.name).toBe("EmptyInputError");
      expect(error?.message).toBe("Received empty Command input");
      // Nothing ran: the same review waits, not asked again, and nothing was judged.
      expect(await waitingReview(graph, "p1")).toEqual(before);
      expect(before.value.refusal).toBeUndefined();
    }
    expect(model.calls).toHaveLength(CRITERIA);
    const done = await graph.invoke(new Command({ resume: { action: "approve" } }), thread("p1"));
    expect(done.status).toBe("approved");
    expect(done.reviewHistory.map((r) => r.action)).toEqual(["approve"]);
  });

  it("reaches the review when it names the interrupt or comes as a list of one: asked again, why", async () => {
    const { model, graph } = parentGraph();
    await graph.invoke({ draft: DRAFT }, thread("p2"));
    const answers = [
      (id: string) => ({ [id]: null }),
      (id: string) => ({ [id]: undefined }),
      () => [null],
    ];
    for (const answer of answers) {
      const { id } = await waitingReview(graph, "p2");
      const asked = askedAgain(
        await graph.invoke(new Command({ resume: answer(id) }), thread("p2")),
      );
      expect(asked.refusal).toEqual(EMPTY_REFUSAL);
      expect(asked.description.split("\n")[0]).toBe(
        "**Your last answer was not accepted.** (answer): is empty: it holds no decision",
      );
      expect((await waitingReview(graph, "p2")).value.type).toBe("evaluation_review");
    }
    expect(model.calls).toHaveLength(CRITERIA);
    const done = await graph.invoke(
      new Command({ resume: [{ type: "response", args: "Add the 2025 figures." }] }),
      thread("p2"),
    );
    expect(done.status).toBe("revision_requested");
    expect(done.reviewHistory.map((r) => r.action)).toEqual(["revise"]);
  });
});

describe("an empty answer sent to the gate alone", () => {
  it("is screened by the gate's guard and asked again with why, for null and a list of one", async () => {
    const model = scoringJudge(0.85);
    const gate = buildEvaluationGraph({ model }).compile({ checkpointer: new MemorySaver() });
    await gate.invoke({ content: DRAFT, contentType: "problem_statement" }, thread("g1"));
    for (const resume of [null, [null]]) {
      const asked = askedAgain(await gate.invoke(new Command({ resume }), thread("g1")));
      expect(asked.refusal).toEqual(EMPTY_REFUSAL);
      expect((await gate.getState(thread("g1"))).next).toEqual(["review"]);
    }
    expect(model.calls).toHaveLength(CRITERIA);
  });
});
