import { Annotation, Command, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { DecisionRecord, ProcessingStatus, SectionData } from "../../src/graph/model.js";
import { buildProposalGraph, loadProposalConfig } from "../../src/graph/proposalGraph.js";
import { isWriterPrompt, scriptedProposalResponder } from "../devserver/proposalResponder.js";
import { ScriptedChatModel } from "../doubles/index.js";

const RFP = [
  "Calder Bay Community Foundation — Resilient Neighbourhoods 2026.",
  "Grants of USD 50,000–150,000 over two years for flood resilience serving low-income households.",
  "Proposals need a problem statement, methodology, budget, timeline and conclusion.",
].join("\n");
/** research.json and solution.json have five criteria each: one judge call per criterion. */
const CRITERIA_PER_STAGE = 5;

const thread = (id: string) => ({ configurable: { thread_id: id } });

interface ProposalOutcome {
  research: ProcessingStatus;
  sections: Record<string, ProcessingStatus>;
  decisions: number;
}

interface PendingInterrupt {
  id: string;
  value: { type: string; contentId: string };
}

/**
 * A parent with its own `draft` (the RFP it holds) and `gate` (what it keeps of the proposal),
 * sharing the proposal graph's rfpDocument, researchStatus, sections and reviewHistory channels,
 * so the compiled proposal graph is added directly as a node.
 */
const ParentState = Annotation.Root({
  draft: Annotation<string>(),
  rfpDocument: Annotation<string | undefined>(),
  researchStatus: Annotation<ProcessingStatus>(),
  sections: Annotation<Record<string, SectionData>>(),
  reviewHistory: Annotation<DecisionRecord[]>(),
  gate: Annotation<ProposalOutcome | undefined>(),
});
type Parent = typeof ParentState.State;

function parentGraph() {
  const model = new ScriptedChatModel({ responder: scriptedProposalResponder(0.85) });
  const proposal = buildProposalGraph({ model }).compile();
  const graph = new StateGraph(ParentState)
    .addNode("prepare", (s: Parent) => ({ rfpDocument: s.draft }))
    .addNode("writeProposal", proposal)
    .addNode("summarise", (s: Parent) => ({
      gate: {
        research: s.researchStatus,
        sections: Object.fromEntries(
          Object.entries(s.sections ?? {}).map(([id, section]) => [id, section.status]),
        ),
        decisions: s.reviewHistory?.length ?? 0,
      },
    }))
    .addEdge(START, "prepare")
    .addEdge("prepare", "writeProposal")
    .addEdge("writeProposal", "summarise")
    .addEdge("summarise", END)
    .compile({ checkpointer: new MemorySaver() });
  const calls = () => {
    const writer = model.calls.filter((c) => isWriterPrompt(c.messages)).length;
    return { writer, judge: model.calls.length - writer };
  };
  return { graph, calls };
}

async function pending(
  graph: ReturnType<typeof parentGraph>["graph"],
  id: string,
): Promise<PendingInterrupt[]> {
  const state = await graph.getState(thread(id), { subgraphs: true });
  return state.tasks.flatMap((t) => t.interrupts) as PendingInterrupt[];
}

describe("the proposal graph as a subgraph node", () => {
  it("pauses at its first review; approve through the parent goes on to the next stage, judging nothing twice", async () => {
    const { graph, calls } = parentGraph();
    await graph.invoke({ draft: RFP }, thread("p1"));
    const first = await pending(graph, "p1");
    expect(first.map((i) => [i.value.type, i.value.contentId])).toEqual([
      ["evaluation_review", "research"],
    ]);
    expect(calls()).toEqual({ writer: 1, judge: CRITERIA_PER_STAGE });

    const parent = await graph.getState(thread("p1"), { subgraphs: true });
    expect(parent.next).toEqual(["writeProposal"]);
    const child = parent.tasks[0]?.state;
    expect(child !== undefined && "values" in child && child.values).toMatchObject({
      rfpDocument: RFP,
      researchStatus: "awaiting_review",
    });

    await graph.invoke(
      new Command({ resume: { action: "approve", reviewer: "ana" } }),
      thread("p1"),
    );
    const second = await pending(graph, "p1");
    expect(second.map((i) => i.value.contentId)).toEqual(["solution"]);
    // research was neither written nor judged again; solution was written and judged once
    expect(calls()).toEqual({ writer: 2, judge: 2 * CRITERIA_PER_STAGE });
  });

  it("after every stage is approved the child finishes and the parent's next node runs", async () => {
    const { graph } = parentGraph();
    const sections = loadProposalConfig().map((s) => s.id);
    const stages = 3 + sections.length; // research, solution, connection pairs, the sections
    let result = await graph.invoke({ draft: RFP }, thread("p2"));
    const reviewed: string[] = [];
    for (let i = 0; i < stages; i += 1) {
      const [interrupt] = await pending(graph, "p2");
      expect(interrupt?.value.type).toBe("evaluation_review");
      reviewed.push(interrupt?.value.contentId ?? "");
      result = await graph.invoke(new Command({ resume: { action: "approve" } }), thread("p2"));
    }
    expect(reviewed).toEqual(["research", "solution", "connection_pairs", ...sections]);
    expect(await pending(graph, "p2")).toEqual([]);
    expect(result.gate).toEqual({
      research: "approved",
      sections: Object.fromEntries(sections.map((id) => [id, "approved"])),
      decisions: stages,
    });
  });
});
