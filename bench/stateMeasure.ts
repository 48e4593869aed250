/**
 * The measuring half of bench/state.ts's scale figures, run as a process of its own for each size
 * (so its RSS is a desk process serving that many paused threads, not the bench that copied them):
 * opens the review desk on the database, warms up, then measures the review list (keyset pages of
 * 50 from the newest, walked on), a review opened (getReview), a thread's traces read (the page's
 * judge calls), and for fresh threads the paused checkpoint loaded, the decision recorded (the
 * request's own work, answered 202), the decision applied ("resume": from then until the
 * checkpoint the review node wrote with the decision is committed — the saver's `put` resolved,
 * observed on the saver itself; a commit that survives the process dying, as the checkpoint
 * connections commit on either database, see src/orchestrator/checkpointer.ts) and the next stage's own work after it. Prints one JSON line: the
 * times, the peak RSS while measuring, the heap used after a full GC.
 *
 * Usage (by bench/stateScale.ts): tsx --expose-gc bench/stateMeasure.ts <job.json>
 */
import { readFileSync } from "node:fs";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createReviewDesk, type ReviewDeskHandle } from "../src/desk/createReviewDesk.js";
import { createCheckpointer } from "../src/orchestrator/checkpointer.js";
import type { Reviewer } from "../src/store/reviewers.js";
import type { BenchWhere } from "./benchDatabase.js";
import { sampleRss, timed } from "./benchKit.js";
import { distinctProposalModel } from "./distinctContent.js";

process.env.EVALGATE_INJECTION_GUARD = "off";

/** What the bench asks of one measuring process. */
export interface MeasureJob {
  where: BenchWhere;
  samples: number;
  /**
   * Paused threads picked at random by the bench (reviews opened, traces read; the process does
   * not hold every id), and the fresh ones decided here (warm-up first, then the samples).
   */
  ids: string[];
  warmUp: string[];
  fresh: string[];
}

export interface MeasuredTimes {
  list: number[];
  open: number[];
  traces: number[];
  load: number[];
  recorded: number[];
  resume: number[];
  nextStage: number[];
}

const admin: Reviewer = { name: "bench-admin", role: "admin" };

/** When each checkpoint write of either saver was committed (its put resolved). */
const checkpointWrites: bigint[] = [];
const sqlitePut = SqliteSaver.prototype.put;
SqliteSaver.prototype.put = async function put(this: SqliteSaver, ...args) {
  const written = await sqlitePut.apply(this, args);
  checkpointWrites.push(process.hrtime.bigint());
  return written;
};
const postgresPut = PostgresSaver.prototype.put;
PostgresSaver.prototype.put = async function put(this: PostgresSaver, ...args) {
  const written = await postgresPut.apply(this, args);
  checkpointWrites.push(process.hrtime.bigint());
  return written;
};

const gc = (globalThis as { gc?: () => void }).gc;

/** The queue read as a reviewer pages through it: keyset pages of 50, newest first. */
async function measureList(desk: ReviewDeskHandle, count: number, times: number[]) {
  let cursor: string | undefined;
  for (let i = 0; i < count; i++) {
    await timed(times, async () => {
      const page = await desk.listReviews(admin, { limit: 50, ...(cursor ? { cursor } : {}) });
      cursor = page.nextCursor ?? undefined;
    });
  }
}

type Saver = Awaited<ReturnType<typeof createCheckpointer>>["saver"];

/** Decides each thread (approve) and applies the decision, timing the three parts. */
async function decideAll(
  desk: ReviewDeskHandle,
  saver: Saver,
  ids: string[],
  times: MeasuredTimes,
) {
  for (const threadId of ids) {
    const [row] = await desk.store.pendingOf(threadId);
    if (row === undefined) continue;
    const config = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
    await timed(times.load, () => saver.getTuple(config));
    const decision = { interruptId: row.interruptId, action: "approve" } as const;
    await timed(times.recorded, () => desk.decide(threadId, decision, admin));
    checkpointWrites.length = 0;
    const accepted = process.hrtime.bigint();
    await desk.advanceThread(threadId);
    const settled = process.hrtime.bigint();
    const applied = checkpointWrites[0];
    if (applied === undefined) throw new Error(`the decision on ${threadId} wrote no checkpoint`);
    times.resume.push(Number(applied - accepted) / 1e6);
    times.nextStage.push(Number(settled - applied) / 1e6);
  }
}

async function measure(
  desk: ReviewDeskHandle,
  saver: Saver,
  job: MeasureJob,
  times: MeasuredTimes,
) {
  const pick = () => job.ids[Math.floor(Math.random() * job.ids.length)] as string;
  await measureList(desk, job.samples, times.list);
  for (let i = 0; i < job.samples; i++)
    await timed(times.open, () => desk.getReview(pick(), admin));
  for (let i = 0; i < job.samples; i++) {
    await timed(times.traces, () => desk.threadTraces(pick(), admin));
  }
  await decideAll(desk, saver, job.fresh, times);
}

const empty = (): MeasuredTimes => ({
  list: [],
  open: [],
  traces: [],
  load: [],
  recorded: [],
  resume: [],
  nextStage: [],
});

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as MeasureJob;
  const checkpointer = await createCheckpointer({ ...job.where, env: {} });
  const desk = await createReviewDesk({
    ...job.where,
    env: {},
    model: distinctProposalModel(),
    jobs: { run: false },
  });
  const memory = sampleRss();
  try {
    // Warm-up: the same work, not counted (a fresh process compiles its code on first use).
    await measure(desk, checkpointer.saver, { ...job, samples: 20, fresh: job.warmUp }, empty());
    gc?.();
    memory.restart();
    const times = empty();
    await measure(desk, checkpointer.saver, job, times);
    const rssPeak = memory.peak;
    gc?.();
    gc?.();
    const heap = gc === undefined ? 0 : process.memoryUsage().heapUsed;
    process.stdout.write(`${JSON.stringify({ times, rssPeak, heap })}\n`);
  } finally {
    memory.stop();
    await desk.close();
    await checkpointer.close();
  }
}

await main();
