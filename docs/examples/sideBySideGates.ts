import { Annotation, Command, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { buildEvaluationGraph, type ModelSource } from "evalgate";

/** Your graph's own state: two drafts, and what became of each. */
const DraftsState = Annotation.Root({
  problem: Annotation<string>(),
  budget: Annotation<string>(),
  problemStatus: Annotation<string | undefined>(),
  budgetStatus: Annotation<string | undefined>(),
});

/** Two gates side by side, each inside a node function that passes its `config` on as is. */
export function buildDraftChecks(judge: ModelSource) {
  const gate = buildEvaluationGraph({ model: judge }).compile();
  return new StateGraph(DraftsState)
    .addNode("problemGate", async (s, config) => ({
      problemStatus: (
        await gate.invoke({ content: s.problem, contentType: "problem_statement" }, config)
      ).status,
    }))
    .addNode("budgetGate", async (s, config) => ({
      budgetStatus: (await gate.invoke({ content: s.budget, contentType: "budget" }, config))
        .status,
    }))
    .addEdge(START, "problemGate")
    .addEdge(START, "budgetGate")
    .addEdge("problemGate", END)
    .addEdge("budgetGate", END);
}

/** Runs both gates to their reviews and answers each by its interrupt id. */
export async function checkDrafts(problem: string, budget: string, judge: ModelSource) {
  const graph = buildDraftChecks(judge).compile({ checkpointer: new MemorySaver() });
  const thread = {
    configurable: { thread_id: "draft-checks" },
    context: { passingThreshold: 0.8 },
  };
  await graph.invoke({ problem, budget }, thread);
  const waiting = (await graph.getState(thread)).tasks.flatMap((task) => task.interrupts);
  const answers = Object.fromEntries(waiting.map((review) => [review.id, { action: "approve" }]));
  return graph.invoke(new Command({ resume: answers }), thread);
}
