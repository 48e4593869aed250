/**
 * The guards around every run of a gated graph, before LangGraph sees it: input and context checked
 * (a GraphError naming each field, not LangGraph's raw `$ZodError`), resume values screened, a run
 * that would pause with no checkpointer refused, a state update that skips a review refused, an
 * answer to an interrupt that no longer waits refused with its reason, and a resume of a thread
 * that is not paused skipped. Nothing is run or stored when one refuses.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { Command, END } from "@langchain/langgraph";
import type { z } from "zod";
import {
  checkpointerMissing,
  graphInputInvalid,
  reviewNotSkippable,
  runContextInvalid,
} from "./errors.js";
import { RefusedAnswerSchema, refusedAnswer, responseOf } from "./reviewAnswer.js";
import { REVIEW_LIMITS } from "./reviewInput.js";
import { sinksOfSaver, withRunSinks } from "./runSinks.js";
import {
  describeProgress,
  type SnapshotParts,
  threadProgress,
  type WaitingInterrupt,
} from "./threadProgress.js";

interface ResumableGraph {
  checkpointer?: unknown;
  getState(config: RunnableConfig): Promise<SnapshotParts>;
}

type RunOptions = RunnableConfig & { context?: unknown };
type StreamIterator = (input: unknown, options?: RunOptions) => AsyncGenerator<unknown>;

/** Puts `wrap` around every run of a compiled graph: invoke, stream and streamEvents pass through it. */
export function wrapRuns<Graph extends object>(
  graph: Graph,
  wrap: (input: unknown, options: RunOptions | undefined, run: StreamIterator) => AsyncGenerator,
): Graph {
  const target = graph as unknown as { _streamIterator: StreamIterator };
  const original = target._streamIterator.bind(graph);
  target._streamIterator = (input, options) => wrap(input, options, original);
  return graph;
}

/**
 * A resume of a thread that is not paused runs nothing and leaves the thread as it is (a finished
 * one answers with its last state): an answer sent twice, or after the last review, was already
 * applied, or has nothing to answer. Left to LangGraph, its value would answer the next review the
 * thread's work left reaches (an answer nobody gave); thrown, it would put a finished thread in
 * `error` on a LangGraph server, and Agent Inbox would report the run failed. The server's log
 * says it was not applied. An answer naming only interrupts that no longer wait is refused on the
 * review that waits (refusedIfStale).
 * @example
 * export const gate = skipIdleResume(buildEvaluationGraph().compile());
 */
export function skipIdleResume<Graph extends ResumableGraph>(graph: Graph): Graph {
  return wrapRuns(graph, async function* (input, options, run) {
    const threadId = options?.configurable?.thread_id;
    if (isResume(input) && graph.checkpointer && typeof threadId === "string") {
      const progress = threadProgress(
        await graph.getState({ configurable: { thread_id: threadId } }),
      );
      if (progress.kind !== "paused") {
        console.warn(
          `evalgate: an answer for thread '${threadId}' was not applied: ${describeProgress(progress)}`,
        );
        // A finished thread answers with its last state (LangGraph runs nothing for it).
        if (progress.kind === "finished") yield* run(null, options);
        return;
      }
      yield* run(refusedIfStale(input, progress.interrupts), options);
      return;
    }
    yield* run(input, options);
  });
}

/**
 * An answer map naming no interrupt that waits now (its review was answered already: a queued or
 * repeated answer) becomes a refusal for each review that waits, so they say why nothing was
 * applied instead of waiting again in silence (LangGraph would keep the answer and apply nothing).
 */
function refusedIfStale(input: Command, waitingNow: readonly WaitingInterrupt[]): Command {
  const map = answerMap(input.resume);
  const waiting = waitingNow.map((entry) => entry.id);
  if (map === undefined || waiting.length === 0) return input;
  const named = Object.keys(map);
  if (named.some((id) => waiting.includes(id))) return input;
  const problem = `it answers interrupt ${named.join(", ")}, which no longer waits (its review was answered already): nothing was applied`;
  const refused = refusedAnswer("(answer)", problem);
  return new Command({ resume: Object.fromEntries(waiting.map((id) => [id, refused])) });
}

interface StateUpdates {
  updates: Array<{ values?: unknown; asNode?: string }>;
}
type BulkUpdate = (config: RunnableConfig, supersteps: StateUpdates[]) => Promise<RunnableConfig>;

/**
 * A state update of a thread paused at a review, as END or as the review's own node, is refused
 * (REVIEW_NOT_SKIPPABLE): it would finish the thread, or pass the review, with nothing decided.
 * Agent Inbox's "Mark as Resolved" sends such an update (values null, as END); the thread stays
 * waiting for its decision. Other updates (Studio's edits of values) pass as they are.
 */
export function refuseSkippedReview<Graph extends object>(graph: Graph): Graph {
  const target = graph as unknown as ResumableGraph & { bulkUpdateState: BulkUpdate };
  const original = target.bulkUpdateState.bind(graph);
  target.bulkUpdateState = async (config, supersteps) => {
    const threadId = config.configurable?.thread_id;
    const namespace = config.configurable?.checkpoint_ns;
    if (target.checkpointer && typeof threadId === "string" && !namespace) {
      const progress = threadProgress(await target.getState(config));
      const waiting = progress.kind === "paused" ? progress.interrupts.map((i) => i.node) : [];
      const skipping = supersteps
        .flatMap((step) => step.updates.map((update) => update.asNode))
        .find((node) => node === END || (node !== undefined && waiting.includes(node)));
      if (waiting.length > 0 && skipping !== undefined) {
        throw reviewNotSkippable(threadId, skipping, waiting.join(", "));
      }
    }
    return original(config, supersteps);
  };
  return graph;
}

/** LangGraph reads a resume whose keys are all interrupt ids (32 hex digits) as a map of answers. */
const INTERRUPT_KEY = /^[0-9a-f]{32}$/;

/** An edit of 1 MiB with its other fields, as JSON (line breaks and quotes take two bytes). */
const MAX_RESUME_BYTES = 2 * REVIEW_LIMITS.editContentBytes + 65_536;

function answerMap(resume: unknown): Record<string, unknown> | undefined {
  if (typeof resume !== "object" || resume === null || Array.isArray(resume)) return undefined;
  const keys = Object.keys(resume);
  if (keys.length === 0 || !keys.every((key) => INTERRUPT_KEY.test(key))) return undefined;
  return resume as Record<string, unknown>;
}

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

/** The answer as it may be stored: itself, or the stand-in that says why it was refused. */
function screened(answer: unknown): unknown {
  if (RefusedAnswerSchema.safeParse(answer).success) return answer;
  const read = responseOf(answer);
  if ("problem" in read) return refusedAnswer(read.field, read.problem, read.type);
  const tooBig = sizeIssue(answer);
  return tooBig === undefined ? answer : refusedAnswer("(answer)", tooBig);
}

/** A resume value with each answer no review takes replaced by a stand-in naming field and problem. */
export function screenedResume(resume: unknown): unknown {
  const map = answerMap(resume);
  if (map === undefined) return screened(resume);
  const entries = Object.entries(map).map(([key, answer]) => [key, screened(answer)] as const);
  return entries.every(([key, answer]) => answer === map[key])
    ? resume
    : Object.fromEntries(entries);
}

/**
 * The run's input with its resume values screened before the run starts: LangGraph stores the value
 * as a pending write before the review node sees it, so an answer no review takes (10 MB of
 * feedback, NUL bytes) is replaced by a stand-in first; the review reads it as a refusal and asks again.
 */
export function screenedInput(input: unknown): unknown {
  if (!isResume(input)) return input;
  const resume = screenedResume(input.resume);
  if (resume === input.resume) return input;
  const { graph, update, goto } = input;
  return new Command({ resume, graph, update, goto });
}

interface RunShape {
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

function isResume(input: unknown): input is Command {
  return input instanceof Command && input.resume !== undefined;
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
    // The graph's own checkpointer, read at each run (a LangGraph server attaches one later). A
    // gate run inside a parent (given its task's namespace) writes to the parent's.
    const { checkpointer } = graph as { checkpointer?: unknown };
    const inParent = Boolean(options?.configurable?.checkpoint_ns);
    if (shape.alwaysPauses === true && !checkpointer && !inParent) throw checkpointerMissing();
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
