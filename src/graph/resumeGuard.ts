import type { RunnableConfig } from "@langchain/core/runnables";
import { _markInvalidResume, Command } from "@langchain/langgraph";
import { ReviewResponseSchema } from "./agentInbox.js";
import { type ResumeIssue, ReviewResumeInvalidError, resumeWithoutPause } from "./errors.js";
import { InterruptIdSchema, REVIEW_LIMITS, readableIssues } from "./reviewInput.js";
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
 * a RESUME_WITHOUT_PAUSE GraphError when the thread is not paused (threadProgress): no task waits on an
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
        throw resumeWithoutPause(threadId);
      }
    }
    yield* original(input, options);
  };
  return graph;
}

/** LangGraph reads a resume whose keys are all interrupt ids (32 hex digits) as a map of answers. */
const INTERRUPT_KEY = /^[0-9a-f]{32}$/;

/**
 * The largest resume value taken: an edit of 1 MiB with its other fields, as JSON (line breaks
 * and quotes are escaped in two bytes).
 */
export const MAX_RESUME_BYTES = 2 * REVIEW_LIMITS.editContentBytes + 65_536;

/** The answers a resume carries: one per interrupt of a map, else the value itself. */
function answersOf(resume: unknown): Array<[string | undefined, unknown]> {
  if (typeof resume !== "object" || resume === null || Array.isArray(resume)) {
    return [[undefined, resume]];
  }
  const keys = Object.keys(resume);
  if (keys.length === 0 || !keys.every((key) => INTERRUPT_KEY.test(key))) {
    return [[undefined, resume]];
  }
  return Object.entries(resume);
}

function sizeIssue(resume: unknown): ResumeIssue | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(resume);
  } catch {
    return { path: [], message: "is not JSON data" };
  }
  const bytes = text === undefined ? 0 : Buffer.byteLength(text, "utf8");
  return bytes > MAX_RESUME_BYTES
    ? { path: [], message: `is larger than ${MAX_RESUME_BYTES} bytes as JSON` }
    : undefined;
}

/**
 * What is wrong with a resume value as a review's answer (empty: nothing): its size, the
 * interrupt ids of a map, and each answer against ReviewResponseSchema (a ReviewDecision or an
 * Agent Inbox response, with the review boundary's fields).
 */
export function resumeValueIssues(resume: unknown): ResumeIssue[] {
  const issues = answersOf(resume).flatMap(([key, answer]) => {
    const at = key === undefined ? [] : [key];
    if (key !== undefined && !InterruptIdSchema.safeParse(key).success) {
      return [{ path: at, message: "is not an interrupt id" }];
    }
    const parsed = ReviewResponseSchema.safeParse(answer);
    if (parsed.success) return [];
    return readableIssues(parsed.error.issues, at).map((issue) => ({
      path: issue.path.map((part) => (typeof part === "number" ? part : String(part))),
      message: issue.message,
    }));
  });
  if (issues.length > 0) return issues;
  // Fields the shapes let through (Agent Inbox's other edit arguments) are bounded as a whole.
  const tooBig = sizeIssue(resume);
  return tooBig === undefined ? [] : [tooBig];
}

/**
 * Checks a resume value before the run starts: LangGraph writes the value to the checkpoint as a
 * pending write before the review node can look at it, so a value no review takes (10 MB of
 * feedback, a name with a line break, content with NUL bytes) would be stored even though the
 * review refuses it. Every run of the graph (invoke, stream and streamEvents all pass through its
 * stream iterator) first checks a Command's `resume` with resumeValueIssues and throws
 * ReviewResumeInvalidError (which LangGraph's `isInvalidResume` recognises too): nothing is run
 * or stored, the thread stays paused. The review node
 * still checks what only it knows (the actions offered, the stage's shape, the corrections).
 *
 * @example
 * const graph = rejectInvalidResume(buildProposalGraph().compile({ checkpointer }));
 */
export function rejectInvalidResume<Graph extends object>(graph: Graph): Graph {
  const target = graph as unknown as { _streamIterator: StreamIterator };
  const original = target._streamIterator.bind(graph);
  target._streamIterator = async function* (input, options) {
    if (input instanceof Command && input.resume !== undefined) {
      const issues = resumeValueIssues(input.resume);
      if (issues.length > 0) {
        const threadId = options?.configurable?.thread_id;
        const error = new ReviewResumeInvalidError(
          typeof threadId === "string" ? threadId : "",
          issues,
        );
        // Also LangGraph's mark of a refused resume value: `isInvalidResume(error)` holds.
        _markInvalidResume(error);
        throw error;
      }
    }
    yield* original(input, options);
  };
  return graph;
}
