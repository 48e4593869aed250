/**
 * The proposal graph's custom stream events read as progress between reviews: the writer's
 * status, the evaluation's start, each criterion done (counted per stage, whatever order the
 * criteria finish in) and its end, in words; anything else is no progress.
 */
import { describe, expect, it } from "vitest";
import {
  createStageProgressTracker,
  describeStageProgress,
  type StageProgress,
} from "../../src/orchestrator/stageProgress.js";

const STAGES = [
  { id: "research", title: "Research" },
  { id: "budget", title: "Budget" },
];

const outcome = (score: number | null) => ({
  evaluated: score !== null,
  score,
  native: score,
  reasoning: "r",
  hits: [],
  misses: [],
  evidence: [],
});

describe("createStageProgressTracker", () => {
  it("reads writing, judging k of n and judged, per stage, in the stages' titles", () => {
    const tracker = createStageProgressTracker(STAGES);
    const events: unknown[] = [
      { type: "status", contentId: "budget", status: "running" },
      { type: "status", contentId: "budget", contentType: "budget", status: "evaluating" },
      { type: "start", contentId: "budget", total: 3, llmCriteria: 2 },
      { type: "criterion_start", contentId: "budget", criterionId: "b", index: 1, total: 3 },
      {
        type: "criterion_done",
        contentId: "budget",
        criterionId: "c",
        index: 2,
        total: 3,
        outcome: outcome(0.5),
      },
      {
        type: "criterion_done",
        contentId: "budget",
        criterionId: "a",
        index: 0,
        total: 3,
        outcome: outcome(null),
      },
      {
        type: "criterion_done",
        contentId: "budget",
        criterionId: "b",
        index: 1,
        total: 3,
        outcome: outcome(1),
      },
      { type: "done", contentId: "budget", passed: false, overallScore: 0.75 },
    ];
    const seen = events.map((event) => tracker(event));
    expect(seen).toEqual([
      { phase: "writing", stage: "budget", title: "Budget" },
      undefined,
      { phase: "judging", stage: "budget", title: "Budget", done: 0, total: 3 },
      undefined,
      {
        phase: "judging",
        stage: "budget",
        title: "Budget",
        done: 1,
        total: 3,
        criterionId: "c",
        score: 0.5,
      },
      {
        phase: "judging",
        stage: "budget",
        title: "Budget",
        done: 2,
        total: 3,
        criterionId: "a",
        score: null,
      },
      {
        phase: "judging",
        stage: "budget",
        title: "Budget",
        done: 3,
        total: 3,
        criterionId: "b",
        score: 1,
      },
      { phase: "judged", stage: "budget", title: "Budget", passed: false, overallScore: 0.75 },
    ]);
  });

  it("counts each stage on its own and starts again when a stage is judged again", () => {
    const tracker = createStageProgressTracker(STAGES);
    const done = (stage: string, id: string) =>
      tracker({
        type: "criterion_done",
        contentId: stage,
        criterionId: id,
        index: 0,
        total: 2,
        outcome: outcome(1),
      });
    tracker({ type: "start", contentId: "research", total: 2 });
    expect(done("research", "r1")).toMatchObject({ done: 1 });
    tracker({ type: "start", contentId: "budget", total: 2 });
    expect(done("budget", "b1")).toMatchObject({ done: 1, stage: "budget" });
    expect(done("research", "r2")).toMatchObject({ done: 2, stage: "research" });
    // A revision judges the research again: the count starts from zero.
    tracker({ type: "start", contentId: "research", total: 2 });
    expect(done("research", "r1")).toMatchObject({ done: 1 });
  });

  it("never counts past the total, and names a stage it does not know by its id", () => {
    const tracker = createStageProgressTracker(STAGES);
    const extra = {
      type: "criterion_done",
      contentId: "appendix",
      criterionId: "x",
      index: 0,
      total: 1,
      outcome: outcome(1),
    };
    expect(tracker(extra)).toMatchObject({ done: 1, total: 1, title: "appendix" });
    expect(tracker(extra)).toMatchObject({ done: 1, total: 1 });
  });

  it("ignores what is not a progress event: other statuses, other shapes, hostile values", () => {
    const tracker = createStageProgressTracker(STAGES);
    for (const event of [
      undefined,
      null,
      "start",
      42,
      [],
      { type: "status", contentId: "research", status: "approved" },
      { type: "start", contentId: "research" },
      { type: "start", contentId: "research", total: -1 },
      { type: "start", contentId: "research", total: 1.5 },
      { type: "criterion_done", contentId: "research", criterionId: "c", total: 3 },
      { type: "done", contentId: "research", passed: "yes", overallScore: 1 },
      { type: "__proto__", contentId: "research" },
      JSON.parse('{"__proto__": {"type": "start"}, "contentId": "research", "total": 2}'),
    ]) {
      expect(tracker(event)).toBeUndefined();
    }
  });
});

describe("describeStageProgress", () => {
  it("says each step in one sentence", () => {
    const cases: Array<[StageProgress, string]> = [
      [{ phase: "writing", stage: "research", title: "Research" }, "Writing Research"],
      [
        { phase: "judging", stage: "research", title: "Research", done: 0, total: 7 },
        "Judging Research: 7 criteria",
      ],
      [
        {
          phase: "judging",
          stage: "research",
          title: "Research",
          done: 3,
          total: 7,
          criterionId: "c",
        },
        "Judging Research: 3 of 7 criteria done",
      ],
      [
        { phase: "judged", stage: "budget", title: "Budget", passed: true, overallScore: 0.8 },
        "Budget judged: 0.80, passed",
      ],
      [
        { phase: "judged", stage: "budget", title: "Budget", passed: false, overallScore: 0.456 },
        "Budget judged: 0.45, did not pass",
      ],
      [
        // Cut down, never rounded up: 0.7995 misses a 0.8 threshold and never shows as 0.80.
        { phase: "judged", stage: "budget", title: "Budget", passed: false, overallScore: 0.7995 },
        "Budget judged: 0.79, did not pass",
      ],
    ];
    for (const [progress, text] of cases) expect(describeStageProgress(progress)).toBe(text);
  });
});
