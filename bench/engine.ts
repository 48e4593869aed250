/**
 * `npm run bench:engine` — how close the engine's schedules come to what the model server allows,
 * and what the engine itself costs per criterion.
 *
 * A LatencyChatModel (fixed delay + per prompt token + per output token, N server slots) judges a
 * 20-criterion catalog three ways: sequential (concurrency 1), per-criterion concurrent
 * (concurrency = N) and batch (one TOON table). Each run prints its wall time against the lower
 * bound of the calls it actually made (bench/engineSchedule.ts), the calls, prompt and output
 * tokens. Then a zero-latency model measures the engine's own time per criterion. The injection
 * guard (one more call before judging, on by default) is off: this measures judging.
 *
 * Usage: tsx bench/engine.ts [--slots 4] [--scale 10] [--runs 3] [--evaluations 200]
 * It prints PASS/FAIL per target and exits 0 either way: it is a benchmark, not a test.
 */
import { availableParallelism, loadavg } from "node:os";
import { parseArgs } from "node:util";
import type { Catalog } from "../src/criteria/index.js";
import { evaluateContent } from "../src/engine/evaluateContent.js";
import type { EvaluationMode } from "../src/engine/options.js";
import type { EvaluationResult } from "../src/scoring/result.js";
import { benchCatalog, proposalExcerpt } from "./engineCatalog.js";
import { type ScheduleStats, scheduleStats } from "./engineSchedule.js";
import { count, formatTable, ms, ratio } from "./engineTable.js";
import {
  LatencyChatModel,
  type LatencyProfile,
  LOCAL_7B_GPU,
  scaleProfile,
  ZERO_LATENCY,
} from "./latencyModel.js";

const CONCURRENT_TARGET = 1.1;
const OVERHEAD_TARGET_MS = 1;
const WARMUP_EVALUATIONS = 50;

/** A command-line option is not a positive whole number. */
class BenchOptionError extends Error {
  constructor(name: string, value: string | undefined) {
    super(`bench:engine: --${name} must be a whole number ≥ 1, got ${JSON.stringify(value)}`);
    this.name = "BenchOptionError";
  }
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new BenchOptionError(name, value);
  return parsed;
}

const { values: args } = parseArgs({
  options: {
    slots: { type: "string" },
    scale: { type: "string" },
    runs: { type: "string" },
    evaluations: { type: "string" },
  },
});
const SLOTS = positiveInt("slots", args.slots, 4);
const SCALE = positiveInt("scale", args.scale, 10);
const RUNS = positiveInt("runs", args.runs, 3);
const EVALUATIONS = positiveInt("evaluations", args.evaluations, 200);

interface Schedule {
  name: string;
  mode: EvaluationMode;
  concurrency: number;
  /** The bound this schedule is held to: Σ service when it runs one call at a time by design. */
  ownBound: (stats: ScheduleStats) => number;
}

const SCHEDULES: Schedule[] = [
  {
    name: "sequential (concurrency 1)",
    mode: "per-criterion",
    concurrency: 1,
    ownBound: (s) => s.sequentialBoundMs,
  },
  {
    name: `per-criterion (concurrency ${SLOTS})`,
    mode: "per-criterion",
    concurrency: SLOTS,
    ownBound: (s) => s.slotBoundMs,
  },
  {
    name: "batch (one TOON table)",
    mode: "batch",
    concurrency: SLOTS,
    ownBound: (s) => s.slotBoundMs,
  },
  {
    name: `grouped (${SLOTS} slot groups)`,
    mode: "grouped",
    concurrency: SLOTS,
    ownBound: (s) => s.slotBoundMs,
  },
];

interface Measured {
  schedule: Schedule;
  wallMs: number;
  stats: ScheduleStats;
}

/** A run whose answers were not all usable would measure something else than the engine's path. */
class BenchRunError extends Error {
  constructor(schedule: string, problem: string) {
    super(`bench:engine: the ${schedule} run is not valid: ${problem}`);
    this.name = "BenchRunError";
  }
}

function checkRun(name: string, result: EvaluationResult, model: LatencyChatModel): void {
  if (result.notEvaluated.length > 0) {
    throw new BenchRunError(name, `not evaluated: ${result.notEvaluated.join(", ")}`);
  }
  const prompt = model.records.reduce((a, r) => a + r.promptTokens, 0);
  const output = model.records.reduce((a, r) => a + r.outputTokens, 0);
  if (result.usage.inputTokens !== prompt || result.usage.outputTokens !== output) {
    throw new BenchRunError(
      name,
      `usage ${result.usage.inputTokens}/${result.usage.outputTokens} differs from the model's ${prompt}/${output}`,
    );
  }
}

async function measure(
  schedule: Schedule,
  catalog: Catalog,
  content: string,
  profile: LatencyProfile,
): Promise<Measured> {
  const model = new LatencyChatModel({ ...profile, slots: SLOTS });
  const runs: Measured[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    model.reset();
    const started = performance.now();
    const result = await evaluateContent({
      content,
      catalog,
      model,
      mode: schedule.mode,
      concurrency: schedule.concurrency,
      injectionGuard: false,
    });
    const wallMs = performance.now() - started;
    checkRun(schedule.name, result, model);
    runs.push({ schedule, wallMs, stats: scheduleStats(model.records, SLOTS) });
  }
  // The median run by its ratio to the schedule's own bound.
  runs.sort(
    (a, b) => a.wallMs / schedule.ownBound(a.stats) - b.wallMs / schedule.ownBound(b.stats),
  );
  const median = runs[Math.floor(runs.length / 2)];
  if (median === undefined) throw new BenchRunError(schedule.name, "no run was made");
  return median;
}

interface Overhead {
  mode: EvaluationMode;
  concurrency: number;
  evaluations: number;
  criteria: number;
  wallMs: number;
  modelSelfMs: number;
  perCriterionMs: number;
  perCriterionNetMs: number;
  /** Process CPU time (user + system, all threads) per criterion: less sensitive to other load. */
  cpuPerCriterionMs: number;
  calls: number;
}

/** R evaluations with a zero-latency model, one after another, after a warm-up. */
async function overhead(
  catalog: Catalog,
  content: string,
  mode: EvaluationMode,
  concurrency: number,
): Promise<Overhead> {
  const model = new LatencyChatModel({ ...ZERO_LATENCY, slots: SLOTS });
  const run = () =>
    evaluateContent({ content, catalog, model, mode, concurrency, injectionGuard: false });
  for (let i = 0; i < WARMUP_EVALUATIONS; i += 1) await run();
  model.reset();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < EVALUATIONS; i += 1) await run();
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const criteria = EVALUATIONS * catalog.criteria.length;
  return {
    mode,
    concurrency,
    evaluations: EVALUATIONS,
    criteria,
    wallMs,
    modelSelfMs: model.selfMs,
    perCriterionMs: wallMs / criteria,
    perCriterionNetMs: (wallMs - model.selfMs) / criteria,
    cpuPerCriterionMs: (cpu.user + cpu.system) / 1000 / criteria,
    calls: model.records.length,
  };
}

function verdict(ok: boolean): string {
  return ok ? "PASS" : "FAIL";
}

function describeProfile(p: LatencyProfile): string {
  return `fixed ${p.fixedMs} ms + ${p.perPromptTokenMs} ms/prompt token + ${p.perOutputTokenMs} ms/output token`;
}

async function main(): Promise<void> {
  const catalog = benchCatalog();
  const content = await proposalExcerpt(600);
  const profile = scaleProfile(LOCAL_7B_GPU, SCALE);
  const words = content.split(/\s+/).filter((w) => w !== "").length;

  console.log("bench:engine — evaluateContent against a latency-model judge\n");
  console.log(
    `catalog: ${catalog.criteria.length} criteria (6 × score 1–5 with guidelines, 5 × score 0–1, 5 checks, 4 levels)`,
  );
  console.log(`content: ${words} words of data/proposals/climate-resilience-draft.md`);
  console.log(`server: ${SLOTS} slots (FIFO queue); tokens: o200k (gpt-tokenizer)`);
  const load = loadavg()[0] ?? 0;
  console.log(
    `this machine: ${availableParallelism()} CPUs, 1-min load average ${load.toFixed(2)}`,
  );
  console.log(`latency of a 7B model on a local GPU: ${describeProfile(LOCAL_7B_GPU)}`);
  console.log(`SCALED DOWN ÷${SCALE} so the bench finishes quickly: ${describeProfile(profile)}`);
  console.log(
    `each schedule runs ${RUNS}× on one model; the median run (by wall ÷ bound) is shown\n`,
  );

  // JIT warm-up so the first timed schedule does not pay for module and code warm-up.
  const warm = new LatencyChatModel({ ...ZERO_LATENCY, slots: SLOTS });
  for (let i = 0; i < 5; i += 1) {
    await evaluateContent({ content, catalog, model: warm, injectionGuard: false });
  }

  const measured: Measured[] = [];
  for (const schedule of SCHEDULES)
    measured.push(await measure(schedule, catalog, content, profile));

  console.log(
    formatTable(
      [
        "schedule",
        "calls",
        "wall ms",
        "own bound ms",
        "wall ÷ own",
        `wall ÷ ${SLOTS}-slot bound`,
        "outside model ms",
        "mean queue ms",
        "prompt tok",
        "output tok",
      ],
      measured.map(({ schedule, wallMs, stats }) => [
        schedule.name,
        count(stats.calls),
        ms(wallMs),
        ms(schedule.ownBound(stats)),
        ratio(wallMs / schedule.ownBound(stats)),
        ratio(wallMs / stats.slotBoundMs),
        ms(wallMs - stats.modelSpanMs),
        ms(stats.meanQueueWaitMs),
        count(stats.promptTokens),
        count(stats.outputTokens),
      ]),
    ),
  );
  console.log(
    [
      "",
      "own bound: sequential runs one call at a time by design, so its bound is Σ service times;",
      `the others are held to max(longest call, Σ service / ${SLOTS}). "outside model" is wall time`,
      "minus the span from the first call's start to the last call's end (engine before and after).",
    ].join("\n"),
  );

  const [sequential, concurrent, batch] = measured;
  if (sequential === undefined || concurrent === undefined || batch === undefined) return;
  const outputRatio = batch.stats.outputTokens / concurrent.stats.outputTokens;
  const promptRatio = batch.stats.promptTokens / concurrent.stats.promptTokens;
  console.log(
    [
      "",
      `batch ÷ per-criterion: output tokens ${ratio(outputRatio)} (TOON rows carry no keys, no hits/misses),`,
      `prompt tokens ${ratio(promptRatio)} (the content is sent once instead of ${concurrent.stats.calls}×);`,
      `batch wall ÷ per-criterion wall ${ratio(batch.wallMs / concurrent.wallMs)}: one request cannot use`,
      `more than one slot, and output tokens dominate (${ms(batch.stats.longestServiceMs)} ms for one table).`,
      `sequential wall ÷ per-criterion wall ${ratio(sequential.wallMs / concurrent.wallMs)}.`,
    ].join("\n"),
  );

  console.log(
    `\nengine overhead: zero-latency model (all delays 0), ${EVALUATIONS} evaluations × ${catalog.criteria.length} criteria after ${WARMUP_EVALUATIONS} warm-up evaluations`,
  );
  const overheads = [
    await overhead(catalog, content, "per-criterion", SLOTS),
    await overhead(catalog, content, "per-criterion", 1),
    await overhead(catalog, content, "batch", SLOTS),
    await overhead(catalog, content, "auto", SLOTS),
  ];
  console.log(
    formatTable(
      [
        "mode",
        "calls",
        "wall ms",
        "model self ms",
        "ms / criterion",
        "ms / criterion (excl. model self)",
        "CPU ms / criterion",
      ],
      overheads.map((o) => [
        `${o.mode === "auto" ? "default: auto → grouped" : o.mode} (concurrency ${o.concurrency})`,
        count(o.calls),
        ms(o.wallMs),
        ms(o.modelSelfMs),
        ms(o.perCriterionMs),
        ms(o.perCriterionNetMs),
        ms(o.cpuPerCriterionMs),
      ]),
    ),
  );
  console.log(
    [
      '"model self" is the latency model reading prompts and writing answers; ms / criterion is',
      "wall ÷ (R × K); wall time counts other processes' load too, CPU time (process.cpuUsage,",
      "all threads including GC) does not.",
    ].join("\n"),
  );

  const concurrentRatio = concurrent.wallMs / concurrent.stats.slotBoundMs;
  const primary = overheads[0];
  const perCriterion = primary?.perCriterionMs ?? Number.POSITIVE_INFINITY;
  console.log("\ntargets");
  console.log(
    `${verdict(concurrentRatio <= CONCURRENT_TARGET)}  per-criterion concurrent wall ÷ ${SLOTS}-slot bound = ${ratio(concurrentRatio)} (target ≤ ${ratio(CONCURRENT_TARGET)})`,
  );
  console.log(
    `${verdict(perCriterion <= OVERHEAD_TARGET_MS)}  engine overhead = ${ms(perCriterion)} ms per criterion, zero-latency model, per-criterion concurrency ${SLOTS} (target ≤ ${OVERHEAD_TARGET_MS} ms)`,
  );
  const loadNow = loadavg()[0] ?? 0;
  if (loadNow > availableParallelism()) {
    console.log(
      [
        `note: the 1-min load average (${loadNow.toFixed(2)}) exceeds this machine's ${availableParallelism()} CPUs, so wall`,
        `times include waiting for a CPU; the engine's CPU time was ${ms(primary?.cpuPerCriterionMs ?? 0)} ms per criterion.`,
      ].join("\n"),
    );
  }
}

await main();
