/**
 * `npm run bench:state` — how much a paused thread costs in the checkpoint database, and how the
 * review desk behaves with many paused threads in one SQLite file.
 *
 * Sizes: a proposal thread is run with a scripted zero-latency model to its first review, on the
 * shipped 5-criterion research catalog and on a 20-criterion one (the shipped criteria, each
 * four times), once with the traces kept inline in the result (as every thread was before the
 * trace store) and once with the default (traces in the trace store beside the checkpoints). The
 * bytes are the thread's checkpoint and write rows; the trace store's rows are shown apart.
 *
 * Scale: `--real` threads are really run to their first review (the creation rate); the rest, up
 * to each size, are copies of a paused checkpoint with their pending-review rows (as
 * bench/service.ts seeds). Then, at each size: the paused state loaded (getState), a review opened
 * (getReview), and a resume, in three figures: the decision recorded (the request's own work,
 * answered 202), the decision applied (from then until the checkpoint the review node wrote with
 * the decision is durable: what a reviewer waits for before the thread has moved on, reported as
 * "resume"), and the next stage's own work after it (written and judged by the zero-latency
 * model, to its review indexed); the process's peak RSS during those samples (after a full GC
 * clears the garbage of the bench's own copying), and the heap still used after a full GC (what
 * the process keeps alive; both need --expose-gc, which `npm run bench:state` gives). Checkpoint
 * writes are observed on the SQLite saver itself (its `put`, wrapped here), so the figure is the
 * real path's.
 *
 * The injection guard is off (the scripted model does not play it), as in the test suite.
 *
 * Usage: tsx --expose-gc bench/state.ts [--sizes 1000,10000] [--samples 200] [--real 200]
 * It always exits 0: it is a benchmark, not a test.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createCheckpointer } from "../src/orchestrator/checkpointer.js";
import { createReviewDesk, type ReviewDeskHandle } from "../src/orchestrator/createReviewDesk.js";
import type { Reviewer } from "../src/orchestrator/reviewDesk.js";
import { mb, parseSizes, percentile, sampleRss, scriptedProposalModel, timed } from "./benchKit.js";
import { seedPendingThreads, templateThread } from "./serviceSeed.js";
import { catalogDir, threadBytes } from "./stateSizes.js";

// The scripted model does not play the injection guard (its answers would be retried, with
// back-off waits, then force human review): the guard is off, as in the test suite.
process.env.EVALGATE_INJECTION_GUARD = "off";

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,10000" },
    samples: { type: "string", default: "200" },
    real: { type: "string", default: "200" },
  },
});
const sizes = parseSizes(args.sizes);
const samples = Number(args.samples);
const admin: Reviewer = { name: "bench-admin", role: "admin" };
const memory = sampleRss();

/** When each checkpoint write of the SQLite saver was durable (its put resolved). */
const checkpointWrites: bigint[] = [];
const savedPut = SqliteSaver.prototype.put;
SqliteSaver.prototype.put = async function put(this: SqliteSaver, ...args) {
  const written = await savedPut.apply(this, args);
  checkpointWrites.push(process.hrtime.bigint());
  return written;
};

/** V8's full collection, when the bench runs with --expose-gc (`npm run bench:state` does). */
const gc = (globalThis as { gc?: () => void }).gc;
function collectGarbage(): void {
  gc?.();
  gc?.();
}
/** The heap the process keeps alive: used bytes after a full collection (0 without --expose-gc). */
function heapAfterGc(): number {
  if (gc === undefined) return 0;
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const p50p99 = (t: number[]) => `p50 ${ms(percentile(t, 50))}, p99 ${ms(percentile(t, 99))}`;

async function openDesk(sqlitePath: string, traces: "inline" | "checkpointer", dir?: string) {
  const model = scriptedProposalModel();
  const evaluation = { traces, ...(dir === undefined ? {} : { criteriaDir: dir }) };
  return createReviewDesk({
    ...{ sqlitePath, env: {}, model, jobs: { run: false } },
    graph: { evaluation },
  });
}

/** One paused thread's bytes, with the traces inline and in the trace store. */
async function measureSizes(work: string): Promise<string[]> {
  const lines: string[] = [];
  for (const criteria of [5, 20]) {
    const dir = criteria === 5 ? undefined : catalogDir(work, criteria);
    const measured: Record<string, { state: number; traces: number }> = {};
    for (const traces of ["inline", "checkpointer"] as const) {
      const sqlitePath = join(work, `size-${criteria}-${traces}.sqlite`);
      const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
      const desk = await openDesk(sqlitePath, traces, dir);
      const template = await templateThread(desk, checkpointer.saver, admin);
      await desk.close();
      await checkpointer.close();
      measured[traces] = threadBytes(sqlitePath, template.threadId);
    }
    const before = measured.inline?.state ?? 0;
    const after = measured.checkpointer?.state ?? 0;
    lines.push(
      `${criteria}-criterion gate, one paused thread: ${kb(before)} with traces inline → ` +
        `${kb(after)} (×${(after / before).toFixed(3)}, ${(before / after).toFixed(1)}× smaller); ` +
        `trace store ${kb(measured.checkpointer?.traces ?? 0)}; goal ≤ ${criteria === 5 ? 25 : 80} kB: ` +
        `${after <= (criteria === 5 ? 25 : 80) * 1024 ? "PASS" : "FAIL"}`,
    );
    process.stdout.write(`${lines.at(-1)}\n`);
  }
  return lines;
}

/** Threads really run to their first review: how many a second. */
async function createReal(desk: ReviewDeskHandle, saver: Saver) {
  const count = Number(args.real);
  const start = process.hrtime.bigint();
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await templateThread(desk, saver, admin)).threadId);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { ids, rate: count / seconds };
}

type Saver = Parameters<typeof templateThread>[1];

async function measureAt(desk: ReviewDeskHandle, saver: Saver, ids: string[], fresh: string[]) {
  const load: number[] = [];
  const open: number[] = [];
  const recorded: number[] = [];
  const resume: number[] = [];
  const nextStage: number[] = [];
  const pick = () => ids[Math.floor(Math.random() * ids.length)] as string;
  for (let i = 0; i < samples; i++) await timed(open, () => desk.getReview(pick(), admin));
  for (let i = 0; i < samples && i < fresh.length; i++) {
    const threadId = fresh[i] as string;
    const [row] = await desk.store.pendingOf(threadId);
    if (row === undefined) continue;
    const config = { configurable: { thread_id: threadId, checkpoint_ns: "" } };
    await timed(load, () => saver.getTuple(config));
    const decision = { interruptId: row.interruptId, action: "approve" } as const;
    await timed(recorded, () => desk.decide(threadId, decision, admin));
    checkpointWrites.length = 0;
    const accepted = process.hrtime.bigint();
    await desk.advanceThread(threadId);
    const settled = process.hrtime.bigint();
    const applied = checkpointWrites[0];
    if (applied === undefined) throw new Error(`the decision on ${threadId} wrote no checkpoint`);
    resume.push(Number(applied - accepted) / 1e6);
    nextStage.push(Number(settled - applied) / 1e6);
  }
  return { load, open, recorded, resume, nextStage };
}

async function measureScale(work: string): Promise<string[]> {
  const sqlitePath = join(work, "scale.sqlite");
  const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
  const desk = await openDesk(sqlitePath, "checkpointer");
  const lines: string[] = [];
  try {
    const real = await createReal(desk, checkpointer.saver);
    lines.push(
      `created ${real.ids.length} threads to their first review: ${real.rate.toFixed(1)}/s`,
    );
    process.stdout.write(`${lines.at(-1)}\n`);
    const template = await templateThread(desk, checkpointer.saver, admin);
    const ids = [...real.ids];
    const rss: number[] = [];
    const heap: number[] = [];
    for (const size of sizes) {
      const started = process.hrtime.bigint();
      const added = await seedPendingThreads(desk, checkpointer.saver, template, size - ids.length);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      ids.push(...added);
      // The garbage of the bench's own copying goes before the desk is measured.
      collectGarbage();
      memory.restart();
      const fresh = added.slice(-samples);
      const measured = await measureAt(desk, checkpointer.saver, ids, fresh);
      const { load, open, recorded, resume, nextStage } = measured;
      rss.push(memory.peak);
      heap.push(heapAfterGc());
      lines.push(
        `${size} paused threads (${added.length} copied in ${seconds.toFixed(1)} s), file ${mb(statSync(sqlitePath).size)}: ` +
          `paused checkpoint loaded ${p50p99(load)}; getReview ${p50p99(open)}; decision recorded ${p50p99(recorded)}; ` +
          `resume (recorded decision applied, its checkpoint durable) ${p50p99(resume)} ` +
          `(goal p99 ≤ 30 ms: ${percentile(resume, 99) <= 30 ? "PASS" : "FAIL"}); ` +
          `then the next stage to its review ${p50p99(nextStage)}; peak RSS ${mb(memory.peak)}; ` +
          `heap used after a full GC ${gc === undefined ? "(run with --expose-gc)" : mb(heap.at(-1) ?? 0)}`,
      );
      process.stdout.write(`${lines.at(-1)}\n`);
      const done = new Set(fresh);
      ids.splice(0, ids.length, ...ids.filter((id) => !done.has(id)));
    }
    const growth = (rss.at(-1) ?? 0) / (rss[0] ?? 1);
    const heapGrowth = (heap.at(-1) ?? 0) / (heap[0] ?? 1);
    lines.push(
      `peak RSS ×${growth.toFixed(2)} from the first size to the last (flat: ≤ ×1.25)` +
        (gc === undefined ? "" : `; heap used after a full GC ×${heapGrowth.toFixed(2)}`),
    );
    process.stdout.write(`${lines.at(-1)}\n`);
  } finally {
    await desk.close();
    await checkpointer.close();
  }
  return lines;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "evalgate-bench-state-"));
  try {
    await measureSizes(work);
    await measureScale(work);
  } finally {
    memory.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
