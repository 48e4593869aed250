/**
 * The review desk with many paused threads in one database, for bench/state.ts. `real` threads
 * are really run to their first review (each with content of its own: the creation rate); the
 * rest, up to each size, are copies of one paused thread (its checkpoint with the review
 * interrupt, its traces, its pending-review row; bench/serviceSeed.ts). At each size: the review
 * list (keyset pages of 50 from the newest, walked on), a review opened (getReview), a thread's
 * traces read (the page's judge calls), and for fresh threads the paused checkpoint loaded, the
 * decision recorded (the request's own work, answered 202), the decision applied ("resume": from
 * then until the checkpoint the review node wrote with the decision is durable — the saver's
 * `put` resolved, observed on the saver itself) and the next stage's own work after it; the
 * process's peak RSS during those samples and the heap still used after a full GC.
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createCheckpointer } from "../src/orchestrator/checkpointer.js";
import { createReviewDesk, type ReviewDeskHandle } from "../src/orchestrator/createReviewDesk.js";
import type { Reviewer } from "../src/orchestrator/reviewDesk.js";
import type { BenchDatabases, FreshDatabase } from "./benchDatabase.js";
import { mb, percentile, sampleRss, timed } from "./benchKit.js";
import { distinctProposalModel, distinctRfp } from "./distinctContent.js";
import { seedPendingThreads, type Template, templateThread } from "./serviceSeed.js";

const admin: Reviewer = { name: "bench-admin", role: "admin" };

/** When each checkpoint write of either saver was durable (its put resolved). */
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

/** V8's full collection, when the bench runs with --expose-gc (`npm run bench:state` does). */
const gc = (globalThis as { gc?: () => void }).gc;
export function collectGarbage(): void {
  gc?.();
  gc?.();
}
function heapAfterGc(): number {
  if (gc === undefined) return 0;
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const p50p99 = (t: number[]) => `p50 ${ms(percentile(t, 50))}, p99 ${ms(percentile(t, 99))}`;
const goal = (t: number[], limit: number) =>
  `(goal p99 ≤ ${limit} ms: ${percentile(t, 99) <= limit ? "PASS" : `FAIL by ${ms(percentile(t, 99) - limit)}`})`;

type Saver = Parameters<typeof templateThread>[1];

/** The queue read as a reviewer pages through it: keyset pages of 50, newest first. */
async function measureList(desk: ReviewDeskHandle, samples: number) {
  const list: number[] = [];
  let cursor: string | undefined;
  while (list.length < samples) {
    await timed(list, async () => {
      const page = await desk.listReviews(admin, { limit: 50, ...(cursor ? { cursor } : {}) });
      cursor = page.nextCursor ?? undefined;
    });
  }
  return list;
}

async function measureAt(
  desk: ReviewDeskHandle,
  saver: Saver,
  ids: string[],
  fresh: string[],
  samples: number,
) {
  const times = {
    list: await measureList(desk, samples),
    open: [] as number[],
    traces: [] as number[],
    load: [] as number[],
    recorded: [] as number[],
    resume: [] as number[],
    nextStage: [] as number[],
  };
  const pick = () => ids[Math.floor(Math.random() * ids.length)] as string;
  for (let i = 0; i < samples; i++) await timed(times.open, () => desk.getReview(pick(), admin));
  for (let i = 0; i < samples; i++)
    await timed(times.traces, () => desk.threadTraces(pick(), admin));
  for (const threadId of fresh) {
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
  return times;
}

export interface ScaleOptions {
  sizes: number[];
  samples: number;
  real: number;
}

/** Threads really run to their first review, each with content of its own: how many a second. */
async function createReal(desk: ReviewDeskHandle, saver: Saver, count: number) {
  const start = process.hrtime.bigint();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await templateThread(desk, saver, admin, distinctRfp())).threadId);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { ids, rate: count / seconds };
}

function sizeLine(
  size: number,
  added: number,
  seconds: number,
  bytes: number,
  t: Awaited<ReturnType<typeof measureAt>>,
) {
  return (
    `${size.toLocaleString("en-US")} paused threads (${added.toLocaleString("en-US")} copied in ${seconds.toFixed(0)} s), ` +
    `database ${mb(bytes)} (${(bytes / size / 1024).toFixed(1)} kB per thread): ` +
    `review list ${p50p99(t.list)} ${goal(t.list, 50)}; getReview ${p50p99(t.open)} ${goal(t.open, 50)}; ` +
    `traces read ${p50p99(t.traces)}; paused checkpoint loaded ${p50p99(t.load)}; ` +
    `decision recorded ${p50p99(t.recorded)} ${goal(t.recorded, 50)}; ` +
    `resume (decision applied, its checkpoint durable) ${p50p99(t.resume)} ${goal(t.resume, 30)}; ` +
    `then the next stage to its review ${p50p99(t.nextStage)}`
  );
}

/** Lines of figures, one per size, then how RSS and the heap grew. */
export async function measureScale(
  databases: BenchDatabases,
  database: FreshDatabase,
  options: ScaleOptions,
  print: (line: string) => void,
): Promise<void> {
  const memory = sampleRss();
  const checkpointer = await createCheckpointer({ ...database.where, env: {} });
  const desk = await createReviewDesk({
    ...database.where,
    env: {},
    model: distinctProposalModel(),
    jobs: { run: false },
  });
  try {
    const real = await createReal(desk, checkpointer.saver, options.real);
    print(`created ${real.ids.length} threads to their first review: ${real.rate.toFixed(1)}/s`);
    const template: Template = await templateThread(desk, checkpointer.saver, admin, distinctRfp());
    const ids = [...real.ids, template.threadId];
    const rss: number[] = [];
    const heap: number[] = [];
    for (const size of options.sizes) {
      const started = process.hrtime.bigint();
      const added = await databases.whileSeeding(() =>
        seedPendingThreads(desk, checkpointer.saver, template, size - ids.length),
      );
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      ids.push(...added);
      const bytes = (await database.size()).total;
      // The garbage of the bench's own copying goes before the desk is measured.
      collectGarbage();
      memory.restart();
      const fresh = added.slice(-options.samples);
      const times = await measureAt(desk, checkpointer.saver, ids, fresh, options.samples);
      rss.push(memory.peak);
      heap.push(heapAfterGc());
      print(
        `${sizeLine(size, added.length, seconds, bytes, times)}; peak RSS ${mb(memory.peak)}; ` +
          `heap used after a full GC ${gc === undefined ? "(run with --expose-gc)" : mb(heap.at(-1) ?? 0)}`,
      );
      const done = new Set(fresh);
      ids.splice(0, ids.length, ...ids.filter((id) => !done.has(id)));
    }
    const growth = (rss.at(-1) ?? 0) / (rss[0] ?? 1);
    const heapGrowth = (heap.at(-1) ?? 0) / (heap[0] ?? 1);
    print(
      `peak RSS ×${growth.toFixed(2)} from the first size to the last (flat: ≤ ×1.25): ${growth <= 1.25 ? "PASS" : "FAIL"}` +
        (gc === undefined ? "" : `; heap used after a full GC ×${heapGrowth.toFixed(2)}`),
    );
  } finally {
    memory.stop();
    await desk.close();
    await checkpointer.close();
  }
}
