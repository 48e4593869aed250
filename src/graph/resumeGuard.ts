import type { RunnableConfig } from "@langchain/core/runnables";
import { Command } from "@langchain/langgraph";
import { ResumeWithoutPauseError } from "./errors.js";
import { type SnapshotParts, threadProgress } from "./threadProgress.js";

/** What the guard needs of a compiled graph. */
interface ResumableGraph {
  checkpointer?: unknown;
  getState(config: RunnableConfig): Promise<SnapshotParts>;
}

type StreamIterator = (input: unknown, options?: RunnableConfig) => AsyncGenerator<unknown>;

function isResume(input: unknown): boolean {
  return input instanceof Command && input.resume !== undefined;
}

/**
 * Makes a resume of a thread that is not paused an error instead of a silent no-op. LangGraph
 * runs nothing for such a resume and answers with the last state, so the check cannot live in a
 * node: every run of the graph (invoke, stream, streamEvents all pass through its stream
 * iterator) first reads the thread's state when the input is a resume, and throws
 * ResumeWithoutPauseError when the thread is not paused (threadProgress): no task waits on an
 * interrupt, or the one that did has written its answer (the writes wait to be applied: run the
 * thread on with `invoke(null)`). Graphs without a
 * checkpointer (none attached yet) are left as they are.
 *
 * @example
 * export const gate = rejectIdleResume(buildEvaluationGraph().compile());
 */
export function rejectIdleResume<Graph extends ResumableGraph>(graph: Graph): Graph {
  const target = graph as unknown as { _streamIterator: StreamIterator };
  const original = target._streamIterator.bind(graph);
  target._streamIterator = async function* (input, options) {
    const threadId = options?.configurable?.thread_id;
    if (isResume(input) && graph.checkpointer && typeof threadId === "string") {
      const state = await graph.getState({ configurable: { thread_id: threadId } });
      if (threadProgress(state).kind !== "paused") {
        throw new ResumeWithoutPauseError(threadId);
      }
    }
    yield* original(input, options);
  };
  return graph;
}
