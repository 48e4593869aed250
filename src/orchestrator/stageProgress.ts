/**
 * What a thread is doing between two reviews (which stage is written or judged, how many criteria
 * are done), read from the proposal graph's custom stream events while the runner streams a run.
 */

import { z } from "zod";
import type { StageDefinition } from "../graph/stages.js";
import { shownScore } from "../scoring/shownScore.js";

const StageFields = {
  stage: z.string(),
  /** The stage's title, as reviewers read it (Research, Solution Sought, Budget). */
  title: z.string(),
};

export const StageProgressSchema = z.discriminatedUnion("phase", [
  z.object({ phase: z.literal("writing"), ...StageFields }),
  z.object({
    phase: z.literal("judging"),
    ...StageFields,
    done: z.number().int().min(0),
    total: z.number().int().min(0),
    /** The criterion that was just judged (absent when judging starts). */
    criterionId: z.string().optional(),
    /** Its 0–1 score; null when the judge gave no usable answer. */
    score: z.number().nullable().optional(),
  }),
  z.object({
    phase: z.literal("judged"),
    ...StageFields,
    passed: z.boolean(),
    overallScore: z.number(),
  }),
]);
export type StageProgress = z.infer<typeof StageProgressSchema>;

/** The custom stream events of the proposal graph that say something about progress. */
const GraphProgressEventSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("status"), contentId: z.string(), status: z.string() }),
  z.object({ type: z.literal("start"), contentId: z.string(), total: z.number().int().min(0) }),
  z.object({
    type: z.literal("criterion_done"),
    contentId: z.string(),
    criterionId: z.string(),
    total: z.number().int().min(0),
    outcome: z.object({ score: z.number().nullable() }).loose(),
  }),
  z.object({
    type: z.literal("done"),
    contentId: z.string(),
    passed: z.boolean(),
    overallScore: z.number(),
  }),
]);

/** Reads a run's custom stream events one by one as progress (undefined: an event that says none). */
export function createStageProgressTracker(
  stages: readonly Pick<StageDefinition, "id" | "title">[],
): (event: unknown) => StageProgress | undefined {
  const titles = new Map(stages.map((stage) => [stage.id, stage.title]));
  const done = new Map<string, number>();
  const named = (stage: string) => ({ stage, title: titles.get(stage) ?? stage });
  return (raw) => {
    const parsed = GraphProgressEventSchema.safeParse(raw);
    if (!parsed.success) return undefined;
    const event = parsed.data;
    switch (event.type) {
      case "status":
        return event.status === "running"
          ? { phase: "writing", ...named(event.contentId) }
          : undefined;
      case "start":
        done.set(event.contentId, 0);
        return { phase: "judging", ...named(event.contentId), done: 0, total: event.total };
      case "criterion_done": {
        const count = Math.min((done.get(event.contentId) ?? 0) + 1, event.total);
        done.set(event.contentId, count);
        return {
          phase: "judging",
          ...named(event.contentId),
          done: count,
          total: event.total,
          criterionId: event.criterionId,
          score: event.outcome.score,
        };
      }
      case "done":
        return {
          phase: "judged",
          ...named(event.contentId),
          passed: event.passed,
          overallScore: event.overallScore,
        };
    }
  };
}

/** One sentence for a progress event: "Judging Research: 3 of 7 criteria done". */
export function describeStageProgress(progress: StageProgress): string {
  switch (progress.phase) {
    case "writing":
      return `Writing ${progress.title}`;
    case "judging":
      return progress.done === 0
        ? `Judging ${progress.title}: ${progress.total} criteria`
        : `Judging ${progress.title}: ${progress.done} of ${progress.total} criteria done`;
    case "judged": {
      const outcome = progress.passed ? "passed" : "did not pass";
      return `${progress.title} judged: ${shownScore(progress.overallScore)}, ${outcome}`;
    }
  }
}

/** Listens to a thread's progress (the command line draws it); must not throw. */
export type StageProgressListener = (threadId: string, progress: StageProgress) => void;
