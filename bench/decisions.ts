/**
 * `npm run bench:decisions` — decisions under load, over HTTP, against real `evalgate serve`
 * processes: `--concurrent` proposals are started and run to their first review, then every round
 * sends one decision per thread, all at once (spread over the replicas), while the jobs those
 * decisions start run beside the requests. Prints each round's statuses and the decisions'
 * latency (p50, p99, max) with the machine's load (`uptime`).
 *
 * Usage: tsx bench/decisions.ts [--database sqlite|postgres] [--replicas N] [--concurrent 100]
 *   [--rounds 3] [--delay-ms 0] [--root <a checkout with dist/ built>]
 * `--root` measures another build of evalgate (its bin/evalgate.mjs), e.g. the code before a
 * change; the bench itself, the Ollama-protocol stand-in and the database stay this checkout's.
 * PostgreSQL is a throwaway local cluster with durable commits (bench/benchDatabase.ts). Always
 * exits 0: it is a benchmark, not a test.
 */
import { execFile } from "node:child_process";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";
import { ollamaProposalResponder } from "../tests/devserver/proposalResponder.js";
import { startOllamaServer } from "../tests/doubles/index.js";
import { RFP } from "../tests/service-core/helpers.js";
import {
  callApi,
  errorCode,
  type ServeProcess,
  startServe,
} from "../tests/service-core/serveProcess.js";
import { type BenchDatabases, postgresDatabases, sqliteDatabases } from "./benchDatabase.js";
import { percentile } from "./benchKit.js";

const MODEL = "evalgate-bench:decisions";
const { values: args } = parseArgs({
  options: {
    database: { type: "string", default: "sqlite" },
    replicas: { type: "string" },
    concurrent: { type: "string", default: "100" },
    rounds: { type: "string", default: "3" },
    "delay-ms": { type: "string", default: "0" },
    root: { type: "string" },
  },
});
const postgres = args.database === "postgres";
const replicaCount = Number(args.replicas ?? (postgres ? 2 : 1));
const concurrent = Number(args.concurrent);
const rounds = Number(args.rounds);
const root = args.root ?? fileURLToPath(new URL("../", import.meta.url));
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
const ms = (n: number) => `${n.toFixed(0)} ms`;

/** Adds the administrator with the measured build's own CLI; its token. */
async function addAdmin(database: string): Promise<string> {
  const store = postgres ? ["--database-url", database] : ["--db", database];
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      join(root, "bin/evalgate.mjs"),
      "reviewers",
      "add",
      "bench-admin",
      "--role",
      "admin",
      ...store,
    ],
    { env: { ...process.env, DATABASE_URL: "" } },
  );
  const token = /shown only this once:\s+(\S+)/.exec(stdout)?.[1];
  if (token === undefined) throw new Error(`no token in: ${stdout}`);
  return token;
}

type Pending = Map<string, string>;

/** The pending reviews (thread → interrupt), read from the first replica's queue. */
async function pendingReviews(base: string, token: string): Promise<Pending> {
  const pending: Pending = new Map();
  let cursor: string | undefined;
  do {
    const query = `?limit=200${cursor === undefined ? "" : `&cursor=${encodeURIComponent(cursor)}`}`;
    const reply = await callApi(base, token, "GET", `/api/reviews${query}`);
    const page = reply.body as {
      items: Array<{ threadId: string; interruptId: string }>;
      nextCursor: string | null;
    };
    for (const item of page.items) pending.set(item.threadId, item.interruptId);
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
  return pending;
}

/**
 * Waits until every thread of `decided` (a decision accepted on the review it had) has another
 * review, and takes the review every other thread has now; gives up after `deadlineMs` (a thread
 * that failed never has one), saying how many it waited for in vain.
 */
async function nextReviews(base: string, token: string, decided: Pending, others: string[]) {
  const until = Date.now() + 300_000;
  for (;;) {
    const pending = await pendingReviews(base, token);
    const moved = [...decided].filter(([id, before]) => {
      const now = pending.get(id);
      return now !== undefined && now !== before;
    });
    if (moved.length === decided.size || Date.now() > until) {
      const next: Pending = new Map();
      for (const id of [...moved.map(([id]) => id), ...others]) {
        const now = pending.get(id);
        if (now !== undefined) next.set(id, now);
      }
      return { next, stuck: decided.size - moved.length };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function round(replicas: ServeProcess[], token: string, threads: Pending) {
  const times: number[] = [];
  const statuses = new Map<string, number>();
  const accepted: Pending = new Map();
  const refused: string[] = [];
  const started = Date.now();
  await Promise.all(
    [...threads].map(async ([threadId, interruptId], i) => {
      const base = replicas[i % replicas.length]?.url ?? "";
      const start = process.hrtime.bigint();
      const reply = await callApi(base, token, "POST", `/api/reviews/${threadId}/decisions`, {
        interruptId,
        action: "approve",
      });
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      const key = `${reply.status}${errorCode(reply) === undefined ? "" : ` ${errorCode(reply)}`}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      if (reply.status === 202) accepted.set(threadId, interruptId);
      else refused.push(threadId);
    }),
  );
  return { times, statuses, accepted, refused, wall: Date.now() - started };
}

async function main(): Promise<void> {
  const databases: BenchDatabases = postgres ? await postgresDatabases() : sqliteDatabases();
  const { where } = await databases.fresh("decisions");
  const database = "databaseUrl" in where ? where.databaseUrl : where.sqlitePath;
  const delay = Number(args["delay-ms"]);
  const ollama = await startOllamaServer({
    models: [MODEL],
    responder: ollamaProposalResponder(0.85),
    behaviour: { delayBeforeFirstByteMs: delay },
  });
  const replicas: ServeProcess[] = [];
  try {
    const token = await addAdmin(database);
    for (let i = 0; i < replicaCount; i++) {
      replicas.push(await startServe({ database, ollamaUrl: ollama.url, model: MODEL, root }));
    }
    const first = replicas[0]?.url ?? "";
    process.stdout.write(
      `decisions on ${databases.description}, ${replicaCount} serve replica(s) of ${root}, ` +
        `${concurrent} at once, model answers after ${delay} ms; load ${load()}\n`,
    );
    const threads: Pending = new Map();
    await Promise.all(
      Array.from({ length: concurrent }, async (_, i) => {
        const base = replicas[i % replicas.length]?.url ?? "";
        const reply = await callApi(base, token, "POST", "/api/proposals", {
          rfp: `${RFP}\nCall ${i}.`,
          applicant: "A tenants' union.",
        });
        threads.set((reply.body as { threadId: string }).threadId, "");
      }),
    );
    let waiting = (await nextReviews(first, token, threads, [])).next;
    const all: number[] = [];
    for (let r = 1; r <= rounds; r++) {
      const before = load();
      const result = await round(replicas, token, waiting);
      all.push(...result.times);
      const sent = Date.now();
      const next =
        r < rounds ? await nextReviews(first, token, result.accepted, result.refused) : undefined;
      waiting = next?.next ?? waiting;
      process.stdout.write(
        `round ${r} (load ${before} → ${load()}): ${[...result.statuses].map(([s, n]) => `${n} × ${s}`).join(", ")}; ` +
          `p50 ${ms(percentile(result.times, 50))}, p99 ${ms(percentile(result.times, 99))}, max ${ms(Math.max(...result.times))}; ` +
          `all answered in ${ms(result.wall)}` +
          (next === undefined
            ? "\n"
            : `; next reviews ready ${ms(Date.now() - sent)} later${next.stuck > 0 ? ` (${next.stuck} threads never moved)` : ""}\n`),
      );
    }
    process.stdout.write(
      `all ${all.length} decisions: p50 ${ms(percentile(all, 50))}, p99 ${ms(percentile(all, 99))}, max ${ms(Math.max(...all))}; load ${load()}\n`,
    );
  } finally {
    await Promise.all(replicas.map((r) => r.stop()));
    await ollama.close();
    await databases.close();
  }
}

await main();
