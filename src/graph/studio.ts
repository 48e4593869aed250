/**
 * The graphs LangGraph Studio and `langgraph dev` load (langgraph.json points here). They are
 * compiled without a checkpointer: the server brings its own and attaches it to every run.
 * No model is injected: judge and writer come from the environment the server runs in —
 * EVALGATE_MODEL (default qwen2.5:7b-instruct, on Ollama) and OLLAMA_BASE_URL — read at each
 * call, and a run's context (`model`, `passingThreshold`, `maxRevisions`, `mode`) overrides them
 * per run. A resume of a thread that is not paused is an error (rejectIdleResume), not a no-op.
 */
import { buildEvaluationGraph } from "./evaluationGraph.js";
import { buildProposalGraph } from "./proposalGraph.js";
import { rejectIdleResume } from "./resumeGuard.js";

/** The evaluation gate on its own: input {content, contentType, criteriaPath?}. */
export const evaluation = rejectIdleResume(
  buildEvaluationGraph().compile({
    name: "evaluation",
    description: "Judges content against its criteria catalog and pauses for the reviewer.",
  }),
);

/** The proposal graph: RFP → research → solution → connection pairs → sections, each reviewed. */
export const proposal = rejectIdleResume(
  buildProposalGraph().compile({
    name: "proposal",
    description: "Writes a grant proposal stage by stage; every stage is judged and reviewed.",
  }),
);
