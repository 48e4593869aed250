import { Command, MemorySaver } from "@langchain/langgraph";
import type { ModelSource } from "evalgate";
import { addEvaluationStage, createProposalBuilder, sectionStage } from "evalgate/graph";

/** A graph of your own with one gated section: you write it, evalgate judges it, a human decides. */
export async function gatedSection(model: ModelSource) {
  const methodology = sectionStage("methodology", "Methodology");
  const builder = createProposalBuilder();
  const names = addEvaluationStage(builder, {
    stage: methodology,
    stages: [methodology],
    evaluation: { model },
  });
  builder.addEdge("__start__", names.startEvaluate);
  const graph = builder.compile({ checkpointer: new MemorySaver() });

  const thread = { configurable: { thread_id: "example" } };
  await graph.invoke(
    {
      rfpDocument: "Grants for community climate resilience.",
      sections: {
        methodology: {
          content: "We retrofit 40 homes a year and measure indoor heat.",
          status: "completed",
        },
      },
    },
    thread,
  );
  const paused = await graph.getState(thread); // paused at names.review, the evaluation in state
  console.log(paused.values.sections.methodology?.evaluation?.overallScore);
  return graph.invoke(new Command({ resume: { action: "approve", reviewer: "you" } }), thread);
}
