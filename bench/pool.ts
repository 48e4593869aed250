/**
 * `npx tsx --expose-gc bench/pool.ts` — a judge pool on the peer benchmark's work (20 criteria of
 * the shipped section gates, 1,500 words, evalgate's defaults: mode auto, injection guard on),
 * against Ollama-protocol latency servers with 4 slots and a per-slot prefix cache each
 * (bench/peerServer.ts: 200 ms + 0.05 ms per uncached prompt token + 10 ms per output token).
 *
 * Scenarios, taking turns, each on fresh servers: one server; a pool of two; a pool of two whose
 * second server goes down while it holds calls (its sockets dropped once all its slots are busy);
 * and --evaluations evaluations at once on one server and on two. Printed: the median run's wall
 * time, the calls each server answered, criteria lost, judge errors, calls answered twice, calls
 * moved to another server; then the ratios.
 *
 * Usage: tsx --expose-gc bench/pool.ts [--slots 4] [--scale 1] [--runs 3] [--evaluations 4]
 * It prints PASS/FAIL per goal and exits 0 either way: it is a benchmark, not a test.
 */
import { execFileSync } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { formatTable } from "./engineTable.js";
import { peerCatalog, peerContent } from "./peerRubric.js";
import type { PeerServer } from "./peerServer.js";
import { goalLine } from "./peerStats.js";
import { type PoolInput, type PoolRun, runPool, startServers } from "./poolRuns.js";

const { values: args } = parseArgs({
  options: {
    slots: { type: "string" },
    scale: { type: "string" },
    runs: { type: "string" },
    evaluations: { type: "string" },
  },
});

/** A command-line option is not a positive number. */
class PoolOptionError extends Error {
  constructor(name: string, value: string | undefined) {
    super(`bench:pool: --${name} must be a number > 0, got ${JSON.stringify(value)}`);
    this.name = "PoolOptionError";
  }
}

function positive(name: string, value: string | undefined, fallback: number, integer = true) {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!(parsed > 0) || (integer && !Number.isInteger(parsed)))
    throw new PoolOptionError(name, value);
  return parsed;
}

const SLOTS = positive("slots", args.slots, 4);
const SCALE = positive("scale", args.scale, 1, false);
const RUNS = positive("runs", args.runs, 3);
const EVALUATIONS = positive("evaluations", args.evaluations, 4);

interface Scenario {
  name: string;
  servers: number;
  evaluations: number;
  /** Take the last server down once this many of its slots hold calls. */
  killWhenBusy?: number;
  /** parallelSlots given to each evaluation (groups as a pool's share would make them). */
  parallelSlots?: number;
}

const SCENARIOS: Scenario[] = [
  { name: "one server", servers: 1, evaluations: 1 },
  { name: "pool of two", servers: 2, evaluations: 1 },
  { name: "pool of two, one goes down mid-run", servers: 2, evaluations: 1, killWhenBusy: SLOTS },
  { name: `one server, ${EVALUATIONS} evaluations at once`, servers: 1, evaluations: EVALUATIONS },
  {
    name: `one server, ${EVALUATIONS} at once, groups shared`,
    servers: 1,
    evaluations: EVALUATIONS,
    parallelSlots: Math.max(1, Math.floor(SLOTS / EVALUATIONS)),
  },
  { name: `pool of two, ${EVALUATIONS} evaluations at once`, servers: 2, evaluations: EVALUATIONS },
];

async function runScenario(input: PoolInput, scenario: Scenario): Promise<PoolRun> {
  const servers: PeerServer[] = await startServers(input, scenario.servers);
  const last = servers[servers.length - 1] as PeerServer;
  try {
    const kill =
      scenario.killWhenBusy === undefined
        ? undefined
        : { server: last, whenBusy: scenario.killWhenBusy };
    return await runPool(input, servers, scenario.evaluations, kill, scenario.parallelSlots);
  } finally {
    await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
  }
}

function median(runs: readonly PoolRun[]): PoolRun | undefined {
  return [...runs].sort((a, b) => a.wallMs - b.wallMs)[Math.floor((runs.length - 1) / 2)];
}

function uptime(): string {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(", ")}`;
  }
}

async function settle(): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 100));
}

async function main(): Promise<void> {
  const latency = {
    fixedMs: 200 / SCALE,
    perPromptTokenMs: 0.05 / SCALE,
    perOutputTokenMs: 10 / SCALE,
  };
  const input: PoolInput = {
    catalog: await peerCatalog(),
    content: await peerContent(),
    latency,
    slots: SLOTS,
  };
  process.stdout.write(
    `bench:pool — ${input.catalog.criteria.length} criteria, defaults (auto, guard on), ${SLOTS} slots per server, ` +
      `${latency.fixedMs} ms + ${latency.perPromptTokenMs} ms/prompt token + ${latency.perOutputTokenMs} ms/output token, ` +
      `median of ${RUNS} runs on ${availableParallelism()} CPUs\n${uptime()}\n\n`,
  );
  // Warm-up at zero latency: modules loaded, code warmed up.
  await runScenario(
    { ...input, latency: { fixedMs: 0, perPromptTokenMs: 0, perOutputTokenMs: 0 } },
    SCENARIOS[1] as Scenario,
  );
  const runs = new Map<Scenario, PoolRun[]>(SCENARIOS.map((s) => [s, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const scenario of SCENARIOS) {
      await settle();
      runs.get(scenario)?.push(await runScenario(input, scenario));
    }
  }
  const picked = new Map(SCENARIOS.map((s) => [s, median(runs.get(s) ?? [])]));
  const rows = SCENARIOS.flatMap((s) => {
    const run = picked.get(s);
    if (run === undefined) return [];
    return [
      [
        s.name,
        (run.wallMs / 1000).toFixed(2),
        run.answered.join(" + "),
        String(run.lost),
        String(run.judgeErrors),
        String(run.duplicates),
        String(run.moved),
        run.note,
      ],
    ];
  });
  const header = [
    "scenario",
    "wall s",
    "answered per server",
    "lost",
    "judge errors",
    "twice",
    "moved",
    "note",
  ];
  process.stdout.write(`${formatTable(header, rows)}\n\n`);
  const wall = (i: number) => picked.get(SCENARIOS[i] as Scenario)?.wallMs ?? Number.NaN;
  process.stdout.write(
    `${goalLine({ name: "pool of two ÷ one server, one evaluation", value: wall(1) / wall(0), limit: 0.6 })}\n`,
  );
  process.stdout.write(
    `${goalLine({ name: `pool of two ÷ one server, ${EVALUATIONS} evaluations`, value: wall(5) / wall(3), limit: 0.6 })}\n`,
  );
  process.stdout.write(
    `${goalLine({ name: `pool of two ÷ one server with groups shared, ${EVALUATIONS} evaluations`, value: wall(5) / wall(4), limit: 0.6 })}\n`,
  );
  const down = runs.get(SCENARIOS[2] as Scenario) ?? [];
  const clean = down.every((r) => r.lost === 0 && r.judgeErrors === 0 && r.duplicates === 0);
  const moved = down.map((r) => r.moved).join(", ");
  process.stdout.write(
    `${clean ? "PASS" : "FAIL"}  one server down mid-run, every run: nothing lost, no judge error, nothing answered twice (calls moved: ${moved})\n`,
  );
  process.stdout.write(`\n${uptime()}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
