/**
 * `npm run bench:peer` — evalgate and openevals on the same rubric, the same content and the same
 * server, in one run.
 *
 * The server (bench/peerServer.ts) speaks the Ollama protocol on 127.0.0.1 and takes as long as a
 * local model server with N slots, a FIFO queue and a per-slot prefix cache: 200 ms + 0.05 ms per
 * prompt token not in the slot's cache + 10 ms per output token, each divided by --scale. The
 * rubric is 20 criteria of the shipped section gates, the content 1,500 words of the sample
 * proposal (bench/peerRubric.ts). Each system runs --runs times (the systems take turns); the
 * median run of each is printed with its wall time, wall ÷ the lower bound of the calls it made,
 * requests, prompt tokens, prefill tokens paid and output tokens; then the ratios and the goals.
 *
 * Usage: tsx --expose-gc bench/peer.ts [--slots 4] [--scale 1] [--runs 3]
 * It prints PASS/FAIL per goal and exits 0 either way: it is a benchmark, not a test.
 */
import { availableParallelism, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { count, formatTable, ms } from "./engineTable.js";
import {
  openevalsContentFirstPrompt,
  openevalsPrompt,
  peerCatalog,
  peerContent,
} from "./peerRubric.js";
import { startPeerServer } from "./peerServer.js";
import { goalLine, medianRun, type PeerGoal, type PeerRunStats, runStats } from "./peerStats.js";
import { evalgateSystem, openevalsSystem, type PeerInput, type PeerSystem } from "./peerSystems.js";

/** A command-line option is not a positive number. */
class PeerOptionError extends Error {
  constructor(name: string, value: string | undefined) {
    super(`bench:peer: --${name} must be a number > 0, got ${JSON.stringify(value)}`);
    this.name = "PeerOptionError";
  }
}

function positive(name: string, value: string | undefined, fallback: number, integer = true) {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!(parsed > 0) || (integer && !Number.isInteger(parsed))) {
    throw new PeerOptionError(name, value);
  }
  return parsed;
}

const { values: args } = parseArgs({
  options: {
    slots: { type: "string" },
    scale: { type: "string" },
    runs: { type: "string" },
  },
});
const SLOTS = positive("slots", args.slots, 4);
const SCALE = positive("scale", args.scale, 1, false);
const RUNS = positive("runs", args.runs, 3);
const LATENCY = { fixedMs: 200, perPromptTokenMs: 0.05, perOutputTokenMs: 10 };

const SYSTEMS: PeerSystem[] = [
  openevalsSystem("openevals, sequential", "sequential", openevalsPrompt, "openevals-sequential"),
  openevalsSystem("openevals, Promise.all", "parallel", openevalsPrompt, "openevals-parallel"),
  openevalsSystem("openevals, Promise.all, content first", "parallel", openevalsContentFirstPrompt),
  // The defaults a user gets: mode auto, the injection guard on.
  evalgateSystem("evalgate default (auto, guard on)", "auto", { role: "default" }),
  evalgateSystem("evalgate auto, guard off", "auto", { injectionGuard: false }),
  evalgateSystem("evalgate per-criterion", "per-criterion", {}),
  evalgateSystem("evalgate grouped", "grouped", {}),
  evalgateSystem("evalgate batch", "batch", {}),
];

function row(name: string, s: PeerRunStats): string[] {
  return [
    name,
    (s.wallMs / 1000).toFixed(2),
    (s.wallMs / s.boundMs).toFixed(2),
    count(s.requests),
    count(s.promptTokens),
    count(s.prefillTokens),
    count(s.outputTokens),
    s.note,
  ];
}

function goals(pick: (role: PeerSystem["role"]) => PeerRunStats | undefined): PeerGoal[] {
  const mine = pick("default");
  const parallel = pick("openevals-parallel");
  const sequential = pick("openevals-sequential");
  if (mine === undefined || parallel === undefined || sequential === undefined) return [];
  return [
    {
      name: "default wall ÷ openevals Promise.all",
      value: mine.wallMs / parallel.wallMs,
      limit: 0.6,
    },
    {
      name: "default wall ÷ openevals sequential",
      value: mine.wallMs / sequential.wallMs,
      limit: 0.2,
    },
    {
      name: "default prefill paid ÷ openevals'",
      value: mine.prefillTokens / parallel.prefillTokens,
      limit: 0.4,
    },
    {
      name: "default output ÷ openevals'",
      value: mine.outputTokens / parallel.outputTokens,
      limit: 1,
    },
    { name: "default wall ÷ its own lower bound", value: mine.wallMs / mine.boundMs, limit: 1.1 },
  ];
}

/**
 * Between two timed runs: a full garbage collection when the script runs with --expose-gc (the
 * npm script does), so one system does not pay for the garbage of the one before, and a pause
 * for closed connections to go.
 */
async function settle(): Promise<void> {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 100));
}

async function main(): Promise<void> {
  const scaled = {
    fixedMs: LATENCY.fixedMs / SCALE,
    perPromptTokenMs: LATENCY.perPromptTokenMs / SCALE,
    perOutputTokenMs: LATENCY.perOutputTokenMs / SCALE,
  };
  const server = await startPeerServer({ slots: SLOTS, ...scaled });
  const input: PeerInput = {
    url: server.url,
    catalog: await peerCatalog(),
    content: await peerContent(),
    slots: SLOTS,
  };
  const words = input.content.split(/\s+/).filter((w) => w !== "").length;
  process.stdout.write(
    `bench:peer — ${input.catalog.criteria.length} criteria, ${words} words of content, ${SLOTS} slots, ` +
      `${ms(scaled.fixedMs)} ms + ${scaled.perPromptTokenMs} ms/prompt token + ${scaled.perOutputTokenMs} ms/output token` +
      `${SCALE === 1 ? "" : ` (÷ ${SCALE}: --scale)`}, median of ${RUNS} runs; load ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs\n\n`,
  );
  const runs = new Map<PeerSystem, PeerRunStats[]>(SYSTEMS.map((s) => [s, []]));
  try {
    // One untimed run of each system at zero latency: modules loaded, code warmed up.
    server.setLatency({ fixedMs: 0, perPromptTokenMs: 0, perOutputTokenMs: 0 });
    for (const system of SYSTEMS) await system.run(input);
    server.setLatency(scaled);
    for (let r = 0; r < RUNS; r += 1) {
      for (const system of SYSTEMS) {
        await settle();
        server.reset();
        const started = performance.now();
        const note = await system.run(input);
        const wallMs = performance.now() - started;
        runs.get(system)?.push(runStats(server.records, SLOTS, wallMs, note));
      }
    }
  } finally {
    await server.close();
  }
  const median = new Map(SYSTEMS.map((s) => [s, medianRun(runs.get(s) ?? [])]));
  const header = [
    "system / mode",
    "wall s",
    "÷ bound",
    "requests",
    "prompt tok",
    "prefill paid",
    "output tok",
    "note",
  ];
  const rows = SYSTEMS.flatMap((s) => {
    const stats = median.get(s);
    return stats === undefined ? [] : [row(s.name, stats)];
  });
  process.stdout.write(`${formatTable(header, rows)}\n\n`);
  const pick = (role: PeerSystem["role"]) =>
    median.get(SYSTEMS.find((s) => s.role === role) as PeerSystem);
  for (const goal of goals(pick)) process.stdout.write(`${goalLine(goal)}\n`);
  process.stdout.write(
    `\nload after: ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
