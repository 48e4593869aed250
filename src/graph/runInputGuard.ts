/**
 * What a run of the proposal graph or the evaluation gate is given is checked before LangGraph
 * sees it: the input against the graph's input schema, the run's context against
 * EvaluationContextSchema. LangGraph checks both with zod too, but throws zod's own error (a raw
 * `$ZodError`, no code, a JSON dump for a message); here a refusal is a GraphError with a code —
 * `GRAPH_INPUT_INVALID` or `RUN_CONTEXT_INVALID` — naming each field and what is wrong with it.
 * Nothing is run or stored. Every graph compiled from a builder made with checkingRuns does this,
 * and checks resume values too (resumeGuard.ts).
 */
import { Command } from "@langchain/langgraph";
import type { z } from "zod";
import { graphInputInvalid, runContextInvalid } from "./errors.js";
import { screenResumes } from "./resumeGuard.js";
import { type RunSinks, sinksOfSaver, withRunSinks } from "./runSinks.js";

type StreamIterator = (
  input: unknown,
  options?: { context?: unknown; configurable?: Record<string, unknown> },
) => AsyncGenerator<unknown>;

/** What a run of the graph may be given. */
export interface RunShape {
  input: z.ZodType;
  context: z.ZodType;
}

/** Zod's issues as `field: what is wrong`, one after another. */
function issuesOf(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.map(String).join(".") || "(the value)"}: ${issue.message}`)
    .join("; ");
}

/**
 * The graph, its runs' input and context checked first (see the module comment), each run given
 * the stores its evaluation nodes write to (RunSinks) through its config.
 */
export function rejectInvalidRunInput<Graph extends object>(
  graph: Graph,
  shape: RunShape,
  sinks: RunSinks = {},
): Graph {
  const target = graph as unknown as { _streamIterator: StreamIterator };
  const original = target._streamIterator.bind(graph);
  target._streamIterator = async function* (input, options) {
    if (input !== null && input !== undefined && !(input instanceof Command)) {
      const parsed = shape.input.safeParse(input);
      if (!parsed.success) throw graphInputInvalid(issuesOf(parsed.error));
    }
    if (options?.context !== undefined) {
      const parsed = shape.context.safeParse(options.context);
      if (!parsed.success) throw runContextInvalid(issuesOf(parsed.error));
    }
    yield* original(input, withRunSinks(options, sinks));
  };
  return graph;
}

/**
 * A graph builder whose every compiled graph checks its runs' input and context
 * (rejectInvalidRunInput) and screens resume values (screenResumes): the proposal graph and the
 * evaluation gate are built this way, so a graph compiled by a user, the orchestrator, the review
 * desk or LangGraph Studio refuses an input no run takes, and stores nothing of an answer no
 * review takes (the review asks again), before anything of it is stored. Compiled with a SQLite or
 * PostgreSQL checkpointer, its runs keep traces and judge answers in that database (RunSinks).
 */
export function checkingRuns<Builder extends { compile(...args: never[]): object }>(
  builder: Builder,
  shape: RunShape,
): Builder {
  const compile = builder.compile.bind(builder) as (...args: unknown[]) => object;
  const guarded = (...args: unknown[]) => {
    const checkpointer = (args[0] as { checkpointer?: unknown } | undefined)?.checkpointer;
    return rejectInvalidRunInput(
      screenResumes(compile(...args)),
      shape,
      sinksOfSaver(checkpointer),
    );
  };
  Object.defineProperty(builder, "compile", { value: guarded, configurable: true, writable: true });
  return builder;
}
