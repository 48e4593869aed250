/**
 * Progress of a run between reviews as the command line prints it on stderr: plain lines in a
 * pipe ([k/n] per criterion, as `evaluate` prints them), one line redrawn in place on a terminal
 * with a permanent line per judged stage, cleared before anything else is printed.
 */
import { describe, expect, it } from "vitest";
import { createStageProgressReporter } from "../../src/cli/progress.js";
import type { StageProgress } from "../../src/orchestrator/stageProgress.js";

function stream(isTTY: boolean, columns = 100) {
  const writes: string[] = [];
  return { isTTY, columns, write: (text: string) => writes.push(text), writes };
}

const RUN: StageProgress[] = [
  { phase: "writing", stage: "research", title: "Research" },
  { phase: "judging", stage: "research", title: "Research", done: 0, total: 2 },
  {
    phase: "judging",
    stage: "research",
    title: "Research",
    done: 1,
    total: 2,
    criterionId: "fit",
    score: 0.85,
  },
  {
    phase: "judging",
    stage: "research",
    title: "Research",
    done: 2,
    total: 2,
    criterionId: "sources",
    score: null,
  },
  { phase: "judged", stage: "research", title: "Research", passed: false, overallScore: 0.85 },
];

describe("createStageProgressReporter", () => {
  it("prints one plain line per step in a pipe", () => {
    const out = stream(false);
    const reporter = createStageProgressReporter(out);
    for (const progress of RUN) reporter.onProgress("t", progress);
    reporter.finish();
    expect(out.writes.join("")).toBe(
      [
        "writing Research…",
        "judging Research: 2 criteria",
        "[1/2] Research: fit → 0.85",
        "[2/2] Research: sources → not evaluated",
        "Research judged: 0.85 (not passed)",
        "",
      ].join("\n"),
    );
  });

  it("redraws one line in place on a terminal, keeps a line per judged stage, and clears before output", () => {
    const out = stream(true);
    const reporter = createStageProgressReporter(out);
    for (const progress of RUN.slice(0, 3)) reporter.onProgress("t", progress);
    expect(out.writes).toEqual([
      "\r\x1b[2Kwriting Research…",
      "\r\x1b[2Kjudging Research [------------------------] 0/2",
      "\r\x1b[2Kjudging Research [############------------] 1/2  fit",
    ]);
    reporter.finish();
    expect(out.writes.at(-1)).toBe("\r\x1b[2K");
    // Cleared once: a second finish writes nothing.
    reporter.finish();
    expect(out.writes).toHaveLength(4);
    reporter.onProgress("t", RUN[3] as StageProgress);
    reporter.onProgress("t", RUN[4] as StageProgress);
    expect(out.writes.slice(4)).toEqual([
      "\r\x1b[2Kjudging Research [########################] 2/2  sources",
      "\r\x1b[2K",
      "Research judged: 0.85 (not passed)\n",
    ]);
  });

  it("fits the redrawn line into a narrow terminal", () => {
    const out = stream(true, 50);
    const reporter = createStageProgressReporter(out);
    reporter.onProgress("t", {
      phase: "judging",
      stage: "problem_statement",
      title: "Problem Statement",
      done: 3,
      total: 9,
      criterionId: "a_very_long_criterion_identifier",
    });
    const drawn = (out.writes[0] ?? "").replace("\r\x1b[2K", "");
    expect(drawn.length).toBeLessThanOrEqual(49);
    expect(drawn).toMatch(/^judging Problem Statement \[/);
  });
});
