import type { RunnableConfig } from "@langchain/core/runnables";
import { Command } from "@langchain/langgraph";
import { ReviewResponseSchema } from "./agentInbox.js";
import { type ResumeIssue, resumeWithoutPause } from "./errors.js";
import { RefusedAnswerSchema, refusedAnswer } from "./reviewAnswer.js";
import { REVIEW_LIMITS, readableIssues } from "./reviewInput.js";
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

/** The resume as a map of answers by interrupt id, or undefined when it is one answer. */
function answerMap(resume: unknown): Record<string, unknown> | undefined {
  if (typeof resume !== "object" || resume === null || Array.isArray(resume)) return undefined;
  const keys = Object.keys(resume);
  if (keys.length === 0 || !keys.every((key) => INTERRUPT_KEY.test(key))) return undefined;
  return resume as Record<string, unknown>;
}

/** The answer's size problem, when it is not JSON data or larger than MAX_RESUME_BYTES. */
function sizeIssue(value: unknown): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return "is not JSON data";
  }
  const bytes = text === undefined ? 0 : Buffer.byteLength(text, "utf8");
  return bytes > MAX_RESUME_BYTES ? `is larger than ${MAX_RESUME_BYTES} bytes as JSON` : undefined;
}

/**
 * What is wrong with one answer before it may be stored (undefined: nothing): ReviewResponseSchema
 * (a ReviewDecision or an Agent Inbox response, with the review boundary's fields: lengths,
 * control characters, visible text), then its size as a whole (the fields the shapes let through,
 * Agent Inbox's other edit arguments). The guard's own stand-in passes.
 */
export function answerIssue(answer: unknown): ResumeIssue | undefined {
  if (RefusedAnswerSchema.safeParse(answer).success) return undefined;
  const parsed = ReviewResponseSchema.safeParse(answer);
  if (!parsed.success) {
    const [issue] = readableIssues(parsed.error.issues);
    return {
      path: (issue?.path ?? []).map((part) => (typeof part === "number" ? part : String(part))),
      message: issue?.message ?? "is not an answer",
    };
  }
  const tooBig = sizeIssue(answer);
  return tooBig === undefined ? undefined : { path: [], message: tooBig };
}

/** The answer as it may be stored: itself, or the stand-in that says why it was refused. */
function screened(answer: unknown): unknown {
  const issue = answerIssue(answer);
  if (issue === undefined) return answer;
  const field = issue.path.length === 0 ? "(answer)" : issue.path.join(".");
  return refusedAnswer(field, issue.message);
}

/**
 * A resume value as it may be stored: each answer that no review takes replaced by a small
 * stand-in naming the field and the problem (reviewAnswer.ts), so LangGraph keeps nothing of it.
 */
export function screenedResume(resume: unknown): unknown {
  const map = answerMap(resume);
  if (map === undefined) return screened(resume);
  const entries = Object.entries(map).map(([key, answer]) => [key, screened(answer)] as const);
  return entries.every(([key, answer]) => answer === map[key])
    ? resume
    : Object.fromEntries(entries);
}

/**
 * Screens resume values before the run starts: LangGraph writes the value to the checkpoint as a
 * pending write before the review node can look at it, so a value no review takes (10 MB of
 * feedback, a name with a line break, content with NUL bytes) would be stored. Every run of the
 * graph (invoke, stream and streamEvents all pass through its stream iterator) first replaces
 * each such answer of a Command's `resume` with a stand-in that names the field and the problem
 * (screenedResume): nothing of the value is stored, nothing fails, and the review reads the
 * stand-in as a refusal and asks again — the thread stays paused. The review node checks the rest
 * (the actions offered, the stage's content, the corrections) itself.
 *
 * @example
 * const graph = screenResumes(buildProposalGraph().compile({ checkpointer }));
 */
export function screenResumes<Graph extends object>(graph: Graph): Graph {
  const target = graph as unknown as { _streamIterator: StreamIterator };
  const original = target._streamIterator.bind(graph);
  target._streamIterator = async function* (input, options) {
    if (input instanceof Command && input.resume !== undefined) {
      const resume = screenedResume(input.resume);
      if (resume !== input.resume) {
        const { graph: parent, update, goto } = input;
        yield* original(new Command({ resume, graph: parent, update, goto }), options);
        return;
      }
    }
    yield* original(input, options);
  };
  return graph;
}
