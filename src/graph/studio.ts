/**
 * The graphs LangGraph Studio and `langgraph dev` load (langgraph.json): compiled without a
 * checkpointer (the server attaches its own); judge and writer from EVALGATE_MODEL and
 * OLLAMA_BASE_URL, overridden per run by its context.
 */
import { buildEvaluationGraph } from "./evaluationGraph.js";
import { buildProposalGraph } from "./proposalGraph.js";
import { skipIdleResume } from "./resumeGuard.js";

/** The evaluation gate on its own: input {content, contentType, criteriaPath?}. */
export const evaluation = skipIdleResume(
  buildEvaluationGraph().compile({
    name: "evaluation",
    description: "Judges content against its criteria catalog and pauses for the reviewer.",
  }),
);

/** The proposal graph: RFP → research → solution → connection pairs → sections, each reviewed. */
export const proposal = skipIdleResume(
  buildProposalGraph().compile({
    name: "proposal",
    description: "Writes a grant proposal stage by stage; every stage is judged and reviewed.",
  }),
);
