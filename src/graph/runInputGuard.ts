/**
 * A run's input and context are checked before LangGraph sees them: LangGraph's own zod check throws
 * a raw `$ZodError`; here a refusal is a GraphError (`GRAPH_INPUT_INVALID`, `RUN_CONTEXT_INVALID`)
 * naming each field (a resume with such a context is answered by its review asking again); a graph that always pauses refuses a run with no checkpointer
 * (`CHECKPOINTER_MISSING`). Nothing is run or stored.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { Command } from "@langchain/langgraph";
import type { z } from "zod";
import { checkpointerMissing, graphInputInvalid, runContextInvalid } from "./errors.js";
import { refuseSkippedReview, screenedInput, wrapRuns } from "./resumeGuard.js";
import { refusedAnswer } from "./reviewAnswer.js";
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

/**
 * The graph's own checkpointer, read at each run: compiled with it, or attached later by a
 * LangGraph server. A gate embedded in a parent has none of its own and writes to the parent's.
 */
function ownCheckpointer(graph: object): unknown {
  return (graph as { checkpointer?: unknown }).checkpointer;
}

function isResume(input: unknown): input is Command {
  return input instanceof Command && input.resume !== undefined;
}

/** A run inside a parent graph: LangGraph gives it the namespace of its task. */
function runsInParent(options: RunnableConfig | undefined): boolean {
  const namespace = options?.configurable?.checkpoint_ns;
  return typeof namespace === "string" && namespace !== "";
}

/**
 * The graph, its runs' input and context checked first and resume values screened (screenedInput),
 * each run given the RunSinks of its own checkpointer through its config (a parent's run passes
 * its sinks on to the gate inside it).
 */
function rejectInvalidRunInput<Graph extends object>(graph: Graph, shape: RunShape): Graph {
  return wrapRuns(refuseSkippedReview(graph), async function* (input, options, run) {
    if (input !== null && input !== undefined && !(input instanceof Command)) {
      const parsed = shape.input.safeParse(input);
      if (!parsed.success) throw graphInputInvalid(issuesOf(parsed.error));
    }
    let [runInput, runOptions] = [input, options];
    const context =
      options?.context === undefined ? undefined : shape.context.safeParse(options.context);
    if (context?.success === false) {
      // A resume is not failed for it (a server would put the thread in `error`): its review asks again.
      if (!isResume(input)) throw runContextInvalid(issuesOf(context.error));
      const refused = refusedAnswer("context", `is refused: ${issuesOf(context.error)}`);
      [runInput, runOptions] = [
        new Command({ resume: refused }),
        { ...options, context: undefined },
      ];
    }
    const checkpointer = ownCheckpointer(graph);
    if (shape.alwaysPauses === true && !checkpointer && !runsInParent(options)) {
      throw checkpointerMissing();
    }
    yield* run(screenedInput(runInput), withRunSinks(runOptions, sinksOfSaver(checkpointer)));
  });
}

/**
 * A builder whose every compiled graph checks its runs (rejectInvalidRunInput) and refuses a state
 * update that would skip a review (refuseSkippedReview), whoever compiles it: a user, the
 * orchestrator, the desk or Studio.
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
