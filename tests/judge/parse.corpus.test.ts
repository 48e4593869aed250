import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Criterion } from "../../src/criteria/model.js";
import { JudgeAnswerSchema, toOutcome } from "../../src/judge/answer.js";
import { parseJudgeResponse } from "../../src/judge/parse.js";
import {
  clarityLevels,
  knockoutCheck,
  scoreFivePoint,
  scoreUnit,
  virtuePoint,
} from "./criteria.js";

const CorpusEntrySchema = z.object({
  name: z.string(),
  method: z.enum(["score-1-5", "score-0-1", "check", "levels", "point"]),
  text: z.string(),
  expected: z
    .object({
      usable: z.boolean(),
      native: z.union([z.number(), z.string()]).optional(),
      score01: z.number().optional(),
      level: z.string().optional(),
      reasoning: z.string().optional(),
      reasoningContains: z.string().optional(),
      hits: z.array(z.string()).optional(),
      misses: z.array(z.string()).optional(),
      judgeError: z.string().optional(),
      noteContains: z.string().optional(),
      notes: z.array(z.string()).optional(),
    })
    .strict(),
});

const corpus = z
  .array(CorpusEntrySchema)
  .parse(
    JSON.parse(
      readFileSync(new URL("../fixtures/judge-answers/corpus.json", import.meta.url), "utf8"),
    ),
  );

const CRITERIA: Record<z.infer<typeof CorpusEntrySchema>["method"], Criterion> = {
  "score-1-5": scoreFivePoint,
  "score-0-1": scoreUnit,
  check: knockoutCheck,
  levels: clarityLevels,
  point: virtuePoint,
};

describe("judge answer corpus", () => {
  it("holds at least 70 answers covering every method", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(70);
    expect(new Set(corpus.map((e) => e.method)).size).toBe(5);
    expect(new Set(corpus.map((e) => e.name)).size).toBe(corpus.length);
  });

  it.each(corpus.map((entry) => [entry.name, entry] as const))("%s", (_name, entry) => {
    const answer = parseJudgeResponse(entry.text, CRITERIA[entry.method]);
    const want = entry.expected;
    expect(JudgeAnswerSchema.safeParse(answer).success).toBe(true);
    expect(answer.usable).toBe(want.usable);

    if (want.usable) {
      expect(answer.judgeError).toBeUndefined();
      expect(answer.native).not.toBeNull();
    } else {
      expect(answer.score01).toBe(0);
      expect(answer.native).toBeNull();
      expect(answer.hits).toEqual([]);
      expect(answer.misses).toEqual([]);
      expect(answer.judgeError).toBeDefined();
      const outcome = toOutcome(answer);
      expect(outcome.evaluated).toBe(false);
      expect(outcome.score).toBeNull();
    }
    if (want.native !== undefined) expect(answer.native).toBe(want.native);
    if (want.score01 !== undefined) expect(answer.score01).toBeCloseTo(want.score01, 10);
    if (want.level !== undefined) expect(answer.level).toBe(want.level);
    if (want.reasoning !== undefined) expect(answer.reasoning).toBe(want.reasoning);
    if (want.reasoningContains !== undefined) {
      expect(answer.reasoning).toContain(want.reasoningContains);
    }
    if (want.hits !== undefined) expect(answer.hits).toEqual(want.hits);
    if (want.misses !== undefined) expect(answer.misses).toEqual(want.misses);
    if (want.judgeError !== undefined) expect(answer.judgeError).toContain(want.judgeError);
    if (want.noteContains !== undefined) {
      expect(answer.notes.join("\n")).toContain(want.noteContains);
    }
    if (want.notes !== undefined) expect(answer.notes).toEqual(want.notes);
  });
});
