/**
 * What one paused thread costs in the database, for bench/state.ts: threads really run by the
 * review desk to their first review, each with content of its own (bench/distinctContent.ts), in
 * a fresh database; measured after `first` threads and again after `more` (the desk closed, the
 * SQLite log folded into the file), so the figure per thread is the slope between the two — what
 * each further thread adds — without the schema and other fixed costs.
 */

import { createReviewDesk } from "../src/desk/createReviewDesk.js";
import type { Reviewer } from "../src/store/reviewers.js";
import type { BenchDatabases, BenchWhere } from "./benchDatabase.js";
import { distinctProposalModel, distinctRfp } from "./distinctContent.js";
import { runThread } from "./serviceSeed.js";
import { type DatabaseSize, perThread, SIZE_PARTS } from "./stateSizes.js";

const admin: Reviewer = { name: "bench-admin", role: "admin" };
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

async function runThreads(where: BenchWhere, count: number, criteriaDir: string | undefined) {
  const evaluation = { traces: "checkpointer" as const, ...(criteriaDir ? { criteriaDir } : {}) };
  const desk = await createReviewDesk({
    ...where,
    env: {},
    model: distinctProposalModel(),
    jobs: { run: false },
    graph: { evaluation },
  });
  try {
    for (let i = 0; i < count; i++) {
      const { outcome } = await runThread(desk, admin, distinctRfp());
      if (outcome !== "waiting") throw new Error(`a footprint thread did not pause (${outcome})`);
    }
  } finally {
    await desk.close();
  }
}

export interface FootprintOptions {
  criteria: number;
  criteriaDir?: string;
  first: number;
  more: number;
  /** Goals in kB: everything, and the checkpoint state. */
  goals: { total?: number; state: number };
}

function describeSize(size: DatabaseSize): string {
  const parts = SIZE_PARTS.map((part) => {
    const payload = size.payload?.[part];
    const rows = payload === undefined ? "" : ` (rows ${kb(payload)})`;
    return `${part} ${kb(size.parts[part])}${rows}`;
  });
  return `${kb(size.total)} in all — ${parts.join(", ")}`;
}

/** One line: a paused thread's bytes, by part, against the goals. */
export async function measureFootprint(
  databases: BenchDatabases,
  options: FootprintOptions,
): Promise<string> {
  const database = await databases.fresh(`footprint_${options.criteria}`);
  const postgres = databases.kind === "postgres";
  await runThreads(database.where, options.first, options.criteriaDir);
  // PostgreSQL: from a compacted start, what the threads wrote, then what stays live.
  const before = await database.size(postgres);
  await runThreads(database.where, options.more, options.criteriaDir);
  const written = await database.size();
  const per = perThread(before, postgres ? await database.size(true) : written, options.more);
  const verdict = (bytes: number, goal: number) =>
    `${kb(bytes)} (goal ≤ ${goal} kB: ${bytes <= goal * 1024 ? "PASS" : "FAIL"})`;
  const goals = [
    ...(options.goals.total === undefined
      ? []
      : [`in all ${verdict(per.total, options.goals.total)}`]),
    `checkpoint state ${verdict(per.parts["checkpoint state"], options.goals.state)}`,
  ];
  const asWritten = postgres
    ? `; as written, before a vacuum: ${describeSize(perThread(before, written, options.more))}`
    : "";
  return (
    `${options.criteria}-criterion gate on ${databases.kind}, ${options.first + options.more} threads ` +
    `really run with content of their own, per paused thread (the slope over the last ` +
    `${options.more}${postgres ? ", live rows after VACUUM FULL" : ""}): ${describeSize(per)}; ` +
    `${goals.join("; ")}${asWritten}`
  );
}
