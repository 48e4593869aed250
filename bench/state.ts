/**
 * `npm run bench:state` — what a paused thread costs in the database, and how the review desk
 * behaves with many paused threads, on SQLite and on PostgreSQL.
 *
 * Footprint (bench/stateFootprint.ts): threads really run by the review desk with a scripted
 * zero-latency model to their first review, on the shipped 5-criterion research catalog and on a
 * 20-criterion one (the shipped criteria, each four times), each thread with content of its own
 * (bench/distinctContent.ts: its request for proposals and its research differ), traces in the
 * trace store (the default); the bytes each further thread adds — checkpoint state, traces, the
 * judge cache, the review store with its pending-review index — read from SQLite's pages once the
 * write-ahead log is folded into the file (dbstat), or from PostgreSQL's table sizes.
 *
 * Scale (bench/stateScale.ts): `--real` threads really run, the rest up to each size copies of a
 * paused thread; the review list, getReview, a thread's traces, the decision recorded, the
 * decision applied (resume) and the next stage, peak RSS and the heap after a full GC (both need
 * --expose-gc, which `npm run bench:state` gives).
 *
 * The injection guard is off (the scripted model does not play it), as in the test suite.
 *
 * Usage: tsx --expose-gc bench/state.ts [--databases sqlite,postgres] [--database-url <url>]
 *   [--sizes 1000,10000,100000] [--samples 200] [--real 200] [--footprint 50,250]
 *   [--skip-footprint] [--skip-scale]
 * PostgreSQL: a throwaway local cluster (as the tests start theirs, then set to durable commits)
 * unless --database-url names a server. It always exits 0: it is a benchmark, not a test.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type BenchDatabases, postgresDatabases, sqliteDatabases } from "./benchDatabase.js";
import { parseSizes } from "./benchKit.js";
import { measureFootprint } from "./stateFootprint.js";
import { measureScale } from "./stateScale.js";
import { catalogDir } from "./stateSizes.js";

// The scripted model does not play the injection guard (its answers would be retried, with
// back-off waits, then force human review): the guard is off, as in the test suite.
process.env.EVALGATE_INJECTION_GUARD = "off";

const { values: args } = parseArgs({
  options: {
    databases: { type: "string", default: "sqlite,postgres" },
    "database-url": { type: "string" },
    sizes: { type: "string", default: "1000,10000,100000" },
    samples: { type: "string", default: "200" },
    real: { type: "string", default: "200" },
    footprint: { type: "string", default: "50,250" },
    "skip-footprint": { type: "boolean", default: false },
    "skip-scale": { type: "boolean", default: false },
  },
});

function print(line: string): void {
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(" ");
  process.stdout.write(`[${new Date().toISOString().slice(11, 19)} UTC, load ${load}] ${line}\n`);
}

async function footprints(databases: BenchDatabases, work: string): Promise<void> {
  const [first = 50, total = 250] = parseSizes(args.footprint);
  for (const criteria of [5, 20]) {
    const criteriaDir = criteria === 5 ? undefined : catalogDir(work, criteria);
    const goals = criteria === 5 ? { total: 40, state: 25 } : { state: 80 };
    const options = { criteria, first, more: total - first, goals };
    print(await measureFootprint(databases, criteriaDir ? { ...options, criteriaDir } : options));
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "evalgate-bench-catalogs-"));
  try {
    for (const kind of args.databases.split(",").map((k) => k.trim())) {
      const databases =
        kind === "postgres" ? await postgresDatabases(args["database-url"]) : sqliteDatabases();
      try {
        print(`on ${databases.description}`);
        if (!args["skip-footprint"]) await footprints(databases, work);
        if (!args["skip-scale"]) {
          const options = {
            sizes: parseSizes(args.sizes),
            samples: Number(args.samples),
            real: Number(args.real),
          };
          await measureScale(databases, await databases.fresh("scale"), options, print);
        }
      } finally {
        await databases.close();
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
