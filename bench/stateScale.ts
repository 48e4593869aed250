/**
 * The review desk with many paused threads in one database, for bench/state.ts. `real` threads
 * are really run to their first review (each with content of its own: the creation rate); the
 * rest, up to each size, are copies of one paused thread (its checkpoints with the review
 * interrupt, its traces, its pending-review row; bench/serviceSeed.ts). At each size a process of
 * its own (bench/stateMeasure.ts) opens the desk on the database and measures: its RSS is that of
 * a desk serving that many paused threads, not of the bench that copied them.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createReviewDesk, type ReviewDeskHandle } from "../src/desk/createReviewDesk.js";
import { createCheckpointer } from "../src/orchestrator/checkpointer.js";
import type { Reviewer } from "../src/store/reviewers.js";
import type { BenchDatabases, FreshDatabase } from "./benchDatabase.js";
import { mb, percentile } from "./benchKit.js";
import { distinctProposalModel, distinctRfp } from "./distinctContent.js";
import { seedPendingThreads, type Template, templateThread } from "./serviceSeed.js";
import type { MeasuredTimes, MeasureJob } from "./stateMeasure.js";

const admin: Reviewer = { name: "bench-admin", role: "admin" };

const ms = (n: number) => `${n.toFixed(1)} ms`;
const p50p99 = (t: number[]) => `p50 ${ms(percentile(t, 50))}, p99 ${ms(percentile(t, 99))}`;
const goal = (t: number[], limit: number) => {
  const p99 = percentile(t, 99);
  return `(goal p99 ≤ ${limit} ms: ${p99 <= limit ? "PASS" : `FAIL by ${ms(p99 - limit)}`})`;
};

export interface ScaleOptions {
  sizes: number[];
  samples: number;
  real: number;
}

type Saver = Parameters<typeof templateThread>[1];

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

interface Measured {
  times: MeasuredTimes;
  rssPeak: number;
  heap: number;
}

/** Runs bench/stateMeasure.ts on the job, in a process of its own; its figures. */
function measureInChild(job: MeasureJob, work: string): Promise<Measured> {
  const file = join(work, "job.json");
  writeFileSync(file, JSON.stringify(job));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, "bench/stateMeasure.ts", file], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const last = output.trim().split("\n").at(-1) ?? "";
      if (code !== 0) reject(new Error(`the measuring process ended with ${code}: ${last}`));
      else resolve(JSON.parse(last) as Measured);
    });
  });
}

function sizeLine(size: number, copied: string, bytes: number, m: Measured): string {
  const t = m.times;
  return (
    `${size.toLocaleString("en-US")} paused threads (${copied}), database ${mb(bytes)} ` +
    `(${(bytes / size / 1024).toFixed(1)} kB per thread): ` +
    `review list ${p50p99(t.list)} ${goal(t.list, 50)}; getReview ${p50p99(t.open)} ${goal(t.open, 50)}; ` +
    `traces read ${p50p99(t.traces)}; paused checkpoint loaded ${p50p99(t.load)}; ` +
    `decision recorded ${p50p99(t.recorded)} ${goal(t.recorded, 50)}; ` +
    `resume (decision applied, its checkpoint committed) ${p50p99(t.resume)} ${goal(t.resume, 30)}; ` +
    `then the next stage to its review ${p50p99(t.nextStage)}; ` +
    `measuring process: peak RSS ${mb(m.rssPeak)}, heap after a full GC ${mb(m.heap)}`
  );
}

/** Lines of figures, one per size, then how the measuring process's RSS and heap grew. */
export async function measureScale(
  databases: BenchDatabases,
  database: FreshDatabase,
  options: ScaleOptions,
  print: (line: string) => void,
): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "evalgate-bench-scale-"));
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
    const measured: Measured[] = [];
    for (const size of options.sizes) {
      const started = process.hrtime.bigint();
      const added = await databases.whileSeeding(() =>
        seedPendingThreads(desk, checkpointer.saver, template, size - ids.length),
      );
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      ids.push(...added);
      const bytes = (await database.size()).total;
      const fresh = added.slice(-options.samples);
      const warmUp = added.slice(-options.samples - 5, -options.samples);
      const picked = Array.from(
        { length: 2 * options.samples },
        () => ids[Math.floor(Math.random() * ids.length)] as string,
      );
      const result = await measureInChild(
        { where: database.where, samples: options.samples, ids: picked, warmUp, fresh },
        work,
      );
      measured.push(result);
      const copied = `${added.length.toLocaleString("en-US")} copied in ${seconds.toFixed(0)} s`;
      print(sizeLine(size, copied, bytes, result));
      const done = new Set([...fresh, ...warmUp]);
      ids.splice(0, ids.length, ...ids.filter((id) => !done.has(id)));
    }
    const growth = (measured.at(-1)?.rssPeak ?? 0) / (measured[0]?.rssPeak ?? 1);
    const heapGrowth = (measured.at(-1)?.heap ?? 0) / (measured[0]?.heap ?? 1);
    print(
      `measuring process peak RSS ×${growth.toFixed(2)} from the first size to the last ` +
        `(flat: ≤ ×1.25): ${growth <= 1.25 ? "PASS" : "FAIL"}; heap after a full GC ×${heapGrowth.toFixed(2)}`,
    );
  } finally {
    await desk.close();
    await checkpointer.close();
    rmSync(work, { recursive: true, force: true });
  }
}
