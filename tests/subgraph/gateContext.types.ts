/**
 * Type-level checks of the compiled gate's run context, compiled by `npm run typecheck` (not run):
 * a node of the user's graph passes its own `config` on as is, each setting is optional, a context
 * typed by an interface of the user's passes, and a setting of the wrong type is a type error.
 * The documented form itself is docs/examples/sideBySideGates.ts.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";

const gate = buildEvaluationGraph().compile();
const input = { content: "Personnel $120,000; total $150,000.", contentType: "budget" };

/** A parent's own context type, declared as an interface (no index signature). */
interface ParentContext {
  passingThreshold: number;
  tenant: string;
}

export async function gateRuns(config: LangGraphRunnableConfig, parent: ParentContext) {
  const statuses = [
    (await gate.invoke(input, config)).status,
    (await gate.invoke(input, { ...config, context: { passingThreshold: 0.9 } })).status,
    (await gate.invoke(input, { context: {} })).status,
    (await gate.invoke(input, { context: parent })).status,
    (await gate.invoke(input, { context: { mode: "batch", maxRevisions: 2 } })).status,
  ];
  // @ts-expect-error a passing threshold is a number
  await gate.invoke(input, { context: { passingThreshold: "high" } });
  // @ts-expect-error a mode is one of the evaluation modes
  await gate.invoke(input, { context: { mode: "fast" } });
  return statuses;
}
