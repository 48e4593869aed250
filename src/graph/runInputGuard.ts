/**
 * A run's input and context are checked before LangGraph sees them: LangGraph's own zod check throws
 * a raw `$ZodError`; here a refusal is a GraphError (`GRAPH_INPUT_INVALID`, `RUN_CONTEXT_INVALID`)
 * naming each field; a graph that always pauses refuses a run with no checkpointer
 * (`CHECKPOINTER_MISSING`). Nothing is run or stored.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { Command } from "@langchain/langgraph";
import type { z } from "zod";
import { checkpointerMissing, graphInputInvalid, runContextInvalid } from "./errors.js";
import { screenedInput, wrapRuns } from "./resumeGuard.js";
import { sinksOfSaver, withRunSinks } from "./runSinks.js";

export interface RunShape {
  input: z.ZodType;
  context: z.ZodType;
  /** Every run stops at a review: one with no checkpointer is refused before it runs. */
  alwaysPauses?: boolean;
}

function issuesOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join(".") || "(the value)"}: ${issue.message}`)
    .join("; ");
}

/** LangGraph's config key for the checkpointer a parent graph lends its subgraphs. */
const LENT_CHECKPOINTER = "__pregel_checkpointer";

/**
 * The checkpointer a run writes to, as LangGraph picks it: the one a parent graph lends its
 * subgraphs, else the graph's own (compiled with it, or attached later by a LangGraph server).
 */
function runCheckpointer(graph: object, options: RunnableConfig | undefined): unknown {
  return (
    options?.configurable?.[LENT_CHECKPOINTER] ?? (graph as { checkpointer?: unknown }).checkpointer
  );
}

/**
 * The graph, its runs' input and context checked first and resume values screened (screenedInput),
 * each run given the RunSinks of the checkpointer it writes to through its config.
 */
function rejectInvalidRunInput<Graph extends object>(graph: Graph, shape: RunShape): Graph {
  return wrapRuns(graph, async function* (input, options, run) {
    if (input !== null && input !== undefined && !(input instanceof Command)) {
      const parsed = shape.input.safeParse(input);
      if (!parsed.success) throw graphInputInvalid(issuesOf(parsed.error));
    }
    if (options?.context !== undefined) {
      const parsed = shape.context.safeParse(options.context);
      if (!parsed.success) throw runContextInvalid(issuesOf(parsed.error));
    }
    const checkpointer = runCheckpointer(graph, options);
    if (shape.alwaysPauses === true && !checkpointer) throw checkpointerMissing();
    const sinks = sinksOfSaver(checkpointer);
    yield* run(screenedInput(input), withRunSinks(options, sinks));
  });
}

/**
 * A builder whose every compiled graph checks its runs (rejectInvalidRunInput), whoever compiles
 * it: a user, the orchestrator, the desk or Studio.
 */
export function checkingRuns<Builder extends { compile(...args: never[]): object }>(
  builder: Builder,
  shape: RunShape,
): Builder {
  const compile = builder.compile.bind(builder) as (...args: unknown[]) => object;
  const guarded = (...args: unknown[]) => rejectInvalidRunInput(compile(...args), shape);
  Object.defineProperty(builder, "compile", { value: guarded, configurable: true, writable: true });
  return builder;
}
