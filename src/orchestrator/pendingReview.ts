import { type BaseCheckpointSaver, INTERRUPT, type StateSnapshot } from "@langchain/langgraph";
import type Database from "better-sqlite3";
import { referencedEvaluation } from "../graph/failure.js";
import {
  type InterruptMetadata,
  InterruptMetadataSchema,
  type ReviewAction,
  type ReviewRefusal,
  type RevisionRound,
} from "../graph/model.js";
import { databaseOfSaver } from "../graph/runSinks.js";
import { waitingInterrupts } from "../graph/threadProgress.js";
import type { EvaluationResult } from "../scoring/result.js";

/** A thread waiting for a reviewer: which interrupt to answer and what the reviewer is shown. */
export interface PendingReview {
  threadId: string;
  /** Pass it to submitDecision: the decision answers exactly this interrupt. */
  interruptId: string;
  type: InterruptMetadata["type"];
  contentType: string;
  /** The stage under review (research, solution, connection_pairs, a section id). */
  contentId: string;
  title: string;
  description: string;
  /** The evaluation the decision is about (null when the evaluation failed). */
  evaluation: EvaluationResult | null;
  actions: ReviewAction[];
  /** What went wrong, for evaluation_error. */
  error?: string;
  revisions?: { count: number; max: number };
  /** The round of writing under review, of how many at most, and the feedback it answers. */
  round?: RevisionRound;
  pausedAt?: string;
  /** Set when the review asks again: why the last answer was refused, and how to fix it. */
  refusal?: ReviewRefusal;
}

/** The reviews among the interrupts: those whose value is the review metadata. */
export function reviewsOf(threadId: string, snapshot: StateSnapshot): PendingReview[] {
  return waitingInterrupts(snapshot).flatMap((entry) => {
    const parsed = InterruptMetadataSchema.safeParse(entry.value);
    if (!parsed.success) return [];
    const metadata = parsed.data;
    const review: PendingReview = {
      threadId,
      interruptId: entry.id,
      type: metadata.type,
      contentType: metadata.contentType,
      contentId: metadata.contentId,
      title: metadata.title,
      description: metadata.intro ?? metadata.description,
      evaluation: referencedEvaluation(metadata, snapshot.values),
      actions: metadata.actions,
    };
    if (metadata.error !== undefined) review.error = metadata.error;
    if (metadata.revisions !== undefined) review.revisions = metadata.revisions;
    if (metadata.round !== undefined) review.round = metadata.round;
    if (metadata.refusal !== undefined) review.refusal = metadata.refusal;
    if (snapshot.createdAt !== undefined) review.pausedAt = snapshot.createdAt;
    return [review];
  });
}

/**
 * Whether a decision on `interruptId` was refused, by the snapshot after the run that applied it:
 * the thread still waits there, or the stage's review asks again (its `refusal` says why).
 */
export function refusedDecision(
  threadId: string,
  snapshot: StateSnapshot,
  decision: { interruptId: string; stage: string },
): { reason?: string } | undefined {
  const reviews = reviewsOf(threadId, snapshot);
  if (reviews.some((r) => r.interruptId === decision.interruptId)) return {};
  const again = reviews.find((r) => r.contentId === decision.stage && r.refusal !== undefined);
  return again === undefined ? undefined : { reason: again.refusal?.problem };
}

/**
 * The interrupts a thread's latest checkpoint waits on: LangGraph keeps each as a pending write
 * (channel `__interrupt__`), answered once its task wrote output. On SQLite only those writes are
 * read (the state is neither read nor deserialised); on any other saver, the latest tuple.
 */
/** The channels of a task's writes that are not its output (LangGraph's `isTaskOutput`). */
const NOT_OUTPUT = [INTERRUPT, "__error__", "__error_source_node__", "__resume__"];
const NOT_OUTPUT_SQL = NOT_OUTPUT.map((channel) => `'${channel}'`).join(", ");

/** The ids of the interrupts among a checkpoint's pending writes that no output answered. */
function interruptIdsOf(
  pendingWrites: ReadonlyArray<readonly [string, string, unknown]> | undefined,
): string[] {
  const writes = pendingWrites ?? [];
  const answered = new Set(
    writes.filter(([, channel]) => !NOT_OUTPUT.includes(channel)).map(([taskId]) => taskId),
  );
  return writes.flatMap(([taskId, channel, value]) =>
    channel === INTERRUPT && !answered.has(taskId) && Array.isArray(value)
      ? value.flatMap((entry: unknown) => {
          const id = (entry as { id?: unknown } | null)?.id;
          return typeof id === "string" ? [id] : [];
        })
      : [],
  );
}

/** The latest root checkpoint of a thread (NULL when none) and its interrupt writes whose task wrote no output. */
const SQLITE_INTERRUPT_WRITES = `
  SELECT latest.checkpoint_id AS checkpoint_id, w.type AS type, w.value AS value
  FROM (SELECT MAX(checkpoint_id) AS checkpoint_id FROM checkpoints
        WHERE thread_id = ? AND checkpoint_ns = '') AS latest
  LEFT JOIN writes AS w
    ON w.thread_id = ? AND w.checkpoint_ns = '' AND w.checkpoint_id = latest.checkpoint_id
   AND w.channel = '${INTERRUPT}'
   AND NOT EXISTS (
     SELECT 1 FROM writes AS o
     WHERE o.thread_id = w.thread_id AND o.checkpoint_ns = '' AND o.checkpoint_id = w.checkpoint_id
       AND o.task_id = w.task_id AND o.channel NOT IN (${NOT_OUTPUT_SQL}))
  ORDER BY w.task_id, w.idx`;

const statements = new WeakMap<Database.Database, Database.Statement>();

function sqliteOf(saver: BaseCheckpointSaver): Database.Database | undefined {
  const database = databaseOfSaver(saver);
  // The SQLite saver creates its tables on first use: until a tuple was read, read one.
  const isSetUp = (saver as unknown as { isSetup?: boolean }).isSetup === true;
  return isSetUp && database !== undefined && "sqlite" in database ? database.sqlite : undefined;
}

async function fromSqlite(saver: BaseCheckpointSaver, db: Database.Database, threadId: string) {
  let statement = statements.get(db);
  if (statement === undefined) {
    statement = db.prepare(SQLITE_INTERRUPT_WRITES);
    statements.set(db, statement);
  }
  const rows = statement.all(threadId, threadId) as Array<{
    checkpoint_id: string | null;
    type: string | null;
    value: Uint8Array | string | null;
  }>;
  if (rows[0]?.checkpoint_id == null) return undefined;
  const writes = await Promise.all(
    rows.flatMap((row) =>
      row.value === null
        ? []
        : [saver.serde.loadsTyped(row.type ?? "json", row.value).then((v: unknown) => v)],
    ),
  );
  return interruptIdsOf(writes.map((value) => ["", INTERRUPT, value] as const));
}

/** The interrupts the thread's latest checkpoint waits on; undefined without a checkpoint. */
export async function pausedInterruptIds(
  saver: BaseCheckpointSaver,
  threadId: string,
): Promise<string[] | undefined> {
  const db = sqliteOf(saver);
  if (db !== undefined) return fromSqlite(saver, db, threadId);
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "" } });
  return tuple === undefined ? undefined : interruptIdsOf(tuple.pendingWrites);
}
