/**
 * `npm run bench:service` — the review desk with many pending reviews: how long listing the queue
 * and opening a review take, how many decisions 50 concurrent reviewers get recorded, and the
 * process's peak RSS, at 1,000 and at 10,000 pending reviews.
 *
 * One proposal thread is run to its first review with a scripted model; its checkpoint (with the
 * review interrupt) and its traces are copied to every other thread, and each thread's row goes
 * into the pending-review index as a job would write it. Listing reads only the index (keyset
 * pages of 50, walked on from the newest); opening reads the index and that one checkpoint.
 * Decisions are recorded, not applied (no job runs): the figure is the request path.
 *
 * Usage: tsx bench/service.ts [--sizes 1000,10000,100000] [--samples 300] [--postgres]
 *   [--database-url <postgres url>]
 * `--postgres` starts a throwaway local cluster (bench/benchDatabase.ts: durable commits while
 * measuring, not while copying). It prints the figures and PASS/FAIL against the goal (list p99 ≤
 * 50 ms at the largest size, RSS flat); it always exits 0: it is a benchmark, not a test.
 */
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createReviewDesk, type ReviewDeskHandle } from "../src/desk/createReviewDesk.js";
import { createCheckpointer } from "../src/orchestrator/checkpointer.js";
import type { Reviewer } from "../src/store/reviewers.js";
import { type BenchDatabases, postgresDatabases, sqliteDatabases } from "./benchDatabase.js";
import { mb, parseSizes, percentile, sampleRss, scriptedProposalModel, timed } from "./benchKit.js";
import { seedPendingThreads, type Template, templateThread } from "./serviceSeed.js";

const { values: args } = parseArgs({
  options: {
    sizes: { type: "string", default: "1000,10000,100000" },
    samples: { type: "string", default: "300" },
    postgres: { type: "boolean", default: false },
    "database-url": { type: "string" },
  },
});
const sizes = parseSizes(args.sizes);
const samples = Number(args.samples);
const admin: Reviewer = { name: "bench-admin", role: "admin" };
const memory = sampleRss();

const ms = (n: number) => `${n.toFixed(2)} ms`;

/** Walks the queue page by page (keyset), then opens reviews of threads picked at random. */
async function measureReads(desk: ReviewDeskHandle, threadIds: string[]) {
  const list: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  while (list.length < samples) {
    await timed(list, async () => {
      const page = await desk.listReviews(admin, { limit: 50, ...(cursor ? { cursor } : {}) });
      cursor = page.nextCursor ?? undefined;
    });
    pages++;
  }
  const open: number[] = [];
  for (let i = 0; i < samples; i++) {
    const threadId = threadIds[Math.floor(Math.random() * threadIds.length)] as string;
    await timed(open, () => desk.getReview(threadId, admin));
  }
  return { list, open, pages };
}

/** 50 reviewers, each deciding its own threads at once; then all 50 on one thread. */
async function measureDecisions(desk: ReviewDeskHandle, template: Template, threadIds: string[]) {
  const reviewers: Reviewer[] = Array.from({ length: 50 }, (_, i) => ({
    name: `bench-reviewer-${i}`,
    role: "reviewer",
  }));
  const rounds = Math.max(1, Math.min(4, Math.floor((threadIds.length - 1) / reviewers.length)));
  const picked = threadIds.slice(0, reviewers.length * rounds + 1);
  await Promise.all(
    picked.map((threadId, i) =>
      desk.store.assign(threadId, reviewers[i % reviewers.length]?.name ?? ""),
    ),
  );
  const times: number[] = [];
  const start = process.hrtime.bigint();
  for (let round = 0; round < rounds; round++) {
    await Promise.all(
      reviewers.map((by, i) =>
        timed(times, () =>
          desk.decide(
            picked[round * reviewers.length + i] as string,
            { interruptId: template.interruptId, action: "approve" },
            by,
          ),
        ),
      ),
    );
  }
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  const contested = picked[picked.length - 1] as string;
  for (const by of reviewers) await desk.store.assign(contested, by.name);
  const outcomes = await Promise.allSettled(
    reviewers.map((by) =>
      desk.decide(contested, { interruptId: template.interruptId, action: "approve" }, by),
    ),
  );
  const accepted = outcomes.filter((o) => o.status === "fulfilled").length;
  return { times, wall, decisions: times.length, accepted };
}

async function openDatabases(): Promise<BenchDatabases> {
  const url = args["database-url"];
  return args.postgres || url !== undefined ? postgresDatabases(url) : sqliteDatabases();
}

async function main(): Promise<void> {
  const databases = await openDatabases();
  const { where } = await databases.fresh("service");
  const checkpointer = await createCheckpointer({ ...where, env: {} });
  const desk = await createReviewDesk({
    ...where,
    env: {},
    model: scriptedProposalModel(),
    jobs: { run: false },
  });
  try {
    const load = loadavg().map((n) => n.toFixed(1));
    process.stdout.write(`review desk on ${databases.description}; load ${load.join(" ")}\n`);
    const template = await templateThread(desk, checkpointer.saver, admin);
    const threadIds: string[] = [];
    const rows: string[] = [];
    let rssAtFirst = 0;
    let rssAtLast = 0;
    let listP99AtLast = 0;
    for (const size of sizes) {
      const started = Date.now();
      threadIds.push(
        ...(await databases.whileSeeding(() =>
          seedPendingThreads(desk, checkpointer.saver, template, size - threadIds.length),
        )),
      );
      const seeded = Date.now() - started;
      memory.restart();
      const reads = await measureReads(desk, threadIds);
      const writes = await measureDecisions(desk, template, threadIds);
      rows.push(
        [
          `${size} pending (seeded in ${(seeded / 1000).toFixed(1)} s; load ${loadavg()
            .map((n) => n.toFixed(1))
            .join(" ")})`,
          `  list (page of 50, ${reads.pages} pages): p50 ${ms(percentile(reads.list, 50))}, p99 ${ms(percentile(reads.list, 99))}`,
          `  open a review: p50 ${ms(percentile(reads.open, 50))}, p99 ${ms(percentile(reads.open, 99))}`,
          `  50 reviewers deciding: ${writes.decisions} decisions in ${ms(writes.wall)} (${((writes.decisions / writes.wall) * 1000).toFixed(0)}/s), p50 ${ms(percentile(writes.times, 50))}, p99 ${ms(percentile(writes.times, 99))}`,
          `  50 reviewers on one review at once: ${writes.accepted} accepted, ${50 - writes.accepted} refused`,
          `  peak RSS: ${mb(memory.peak)}`,
        ].join("\n"),
      );
      process.stdout.write(`${rows[rows.length - 1]}\n`);
      if (rssAtFirst === 0) rssAtFirst = memory.peak;
      rssAtLast = memory.peak;
      listP99AtLast = percentile(reads.list, 99);
      threadIds.splice(0, 4 * 50 + 1);
    }
    const growth = rssAtLast / rssAtFirst;
    process.stdout.write(
      `\nlist p99 at ${sizes.at(-1)}: ${ms(listP99AtLast)} — goal ≤ 50 ms: ${listP99AtLast <= 50 ? "PASS" : "FAIL"}\n` +
        `peak RSS ${mb(rssAtFirst)} → ${mb(rssAtLast)} (×${growth.toFixed(2)}) — goal flat (≤ ×1.25): ${growth <= 1.25 ? "PASS" : "FAIL"}\n`,
    );
  } finally {
    memory.stop();
    await desk.close();
    await checkpointer.close();
    await databases.close();
  }
}

await main();
