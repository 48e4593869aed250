import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { benchCatalog, proposalExcerpt } from "../../bench/engineCatalog.js";
import {
  ScheduleSlotsError,
  scheduleStats,
  sequentialLowerBound,
  slotLowerBound,
} from "../../bench/engineSchedule.js";
import { LatencyPromptError } from "../../bench/latencyAnswers.js";
import { LatencyChatModel, ZERO_LATENCY } from "../../bench/latencyModel.js";
import { batchRepairPrompt } from "../../prompts/evaluation/index.js";
import type { Criterion } from "../../src/criteria/model.js";
import {
  parseBatchResponse,
  parseJudgeResponse,
  renderBatchPrompt,
  renderJudgePrompt,
} from "../../src/judge/index.js";

const catalog = benchCatalog();
const content = await proposalExcerpt(150);

function promptFor(criterion: Criterion): [string, string][] {
  const prompt = renderJudgePrompt({ criterion, content });
  return [
    ["system", prompt.system],
    ["human", prompt.user],
  ];
}

function byKind(kind: Criterion["method"]["kind"], integer?: boolean): Criterion {
  const found = catalog.criteria.find(
    (c) =>
      c.method.kind === kind &&
      (integer === undefined || (c.method.kind === "score" && c.method.scale.integer === integer)),
  );
  if (found === undefined) throw new Error(`the bench catalog has no ${kind} criterion`);
  return found;
}

describe("LatencyChatModel slots", () => {
  it("serves at most N requests at once and queues the rest in arrival order", async () => {
    const model = new LatencyChatModel({
      fixedMs: 40,
      perPromptTokenMs: 0,
      perOutputTokenMs: 0,
      slots: 2,
    });
    const prompt = promptFor(byKind("check"));
    const started = performance.now();
    await Promise.all([1, 2, 3, 4].map(() => model.invoke(prompt)));
    const wall = performance.now() - started;

    const records = [...model.records].sort((a, b) => a.arrivalMs - b.arrivalMs);
    const [first, second, third, fourth] = records;
    if (!first || !second || !third || !fourth) throw new Error("expected four calls");
    expect(model.slots.maxBusy).toBe(2);
    // wave 1: the first two start at once; wave 2 starts when a slot frees
    expect(first.queueWaitMs).toBeLessThan(10);
    expect(second.queueWaitMs).toBeLessThan(10);
    const firstWaveEnd = Math.min(first.endMs, second.endMs);
    expect(third.startMs).toBeGreaterThanOrEqual(firstWaveEnd - 0.5);
    expect(fourth.startMs).toBeGreaterThanOrEqual(firstWaveEnd - 0.5);
    expect(third.queueWaitMs).toBeGreaterThan(30);
    expect(third.startMs).toBeLessThanOrEqual(fourth.startMs);
    for (const r of records) expect(r.serviceMs).toBeGreaterThanOrEqual(39.9);
    expect(wall).toBeGreaterThanOrEqual(79.5);
    expect(wall).toBeLessThan(200);

    const stats = scheduleStats(model.records, 2);
    expect(stats.slotBoundMs).toBeGreaterThanOrEqual(80);
    expect(stats.sequentialBoundMs).toBeGreaterThanOrEqual(160);
    expect(wall / stats.slotBoundMs).toBeLessThan(1.5);
  });

  it("charges fixed + per prompt token + per output token, reported as usage_metadata", async () => {
    const model = new LatencyChatModel({
      fixedMs: 2,
      perPromptTokenMs: 0.001,
      perOutputTokenMs: 0.01,
      slots: 1,
    });
    const prompt = promptFor(byKind("score", true));
    const answer = await model.invoke(prompt);
    const promptTokens = prompt.reduce((sum, [, text]) => sum + encode(text).length, 0);
    const outputTokens = encode(answer.text).length;
    expect(answer.usage_metadata).toMatchObject({
      input_tokens: promptTokens,
      output_tokens: outputTokens,
    });
    const [record] = model.records;
    expect(record?.modelledServiceMs).toBeCloseTo(2 + promptTokens * 0.001 + outputTokens * 0.01);
    expect(record?.serviceMs).toBeGreaterThanOrEqual((record?.modelledServiceMs ?? 0) - 0.1);
  });
});

describe("LatencyChatModel answers", () => {
  const model = new LatencyChatModel({ ...ZERO_LATENCY, slots: 4 });

  it("answers each single-criterion prompt in its method's contract", async () => {
    for (const criterion of catalog.criteria) {
      const answer = await model.invoke(promptFor(criterion));
      const parsed = parseJudgeResponse(answer.text, criterion);
      expect(parsed.usable, `${criterion.id}: ${parsed.judgeError}`).toBe(true);
      expect(parsed.notes).toEqual([]);
      expect(parsed.reasoning.length).toBeGreaterThan(40);
      const method = criterion.method;
      if (method.kind === "score") {
        expect(parsed.native).toBeGreaterThanOrEqual(method.scale.min);
        expect(parsed.native).toBeLessThanOrEqual(method.scale.max);
        if (method.scale.integer) expect(Number.isInteger(parsed.native)).toBe(true);
      }
      if (method.kind === "check") expect(["pass", "fail"]).toContain(parsed.native);
      if (method.kind === "levels") {
        expect(method.levels.map((l) => l.id)).toContain(parsed.level);
      }
    }
  });

  it("answers a batch prompt with one TOON row per id, agreeing with the single answers", async () => {
    const criteria = catalog.criteria;
    const prompt = renderBatchPrompt({ criteria, content });
    const answer = await model.invoke([
      ["system", prompt.system],
      ["human", prompt.user],
    ]);
    expect(answer.text.split("\n")[0]).toBe(`results[${criteria.length}]{id,score,reasoning}:`);
    const parsed = parseBatchResponse(answer.text, criteria);
    expect(parsed.problem).toBeUndefined();
    expect(parsed.notes).toEqual([]);
    expect(parsed.missing).toEqual([]);
    for (const criterion of criteria) {
      const single = parseJudgeResponse((await model.invoke(promptFor(criterion))).text, criterion);
      expect(parsed.answers.get(criterion.id)?.native, criterion.id).toEqual(single.native);
    }

    const missing = criteria.slice(0, 3);
    const repaired = await model.invoke([
      ["system", prompt.system],
      ["human", prompt.user],
      ["ai", "not a table"],
      [
        "human",
        batchRepairPrompt(
          "no table found",
          missing.map((c) => c.id),
        ),
      ],
    ]);
    const again = parseBatchResponse(repaired.text, missing);
    expect(again.missing).toEqual([]);
    expect([...again.answers.keys()]).toEqual(missing.map((c) => c.id));
  });

  it("refuses a prompt with no answer format it knows", async () => {
    await expect(model.invoke([["human", "Write a poem about rain."]])).rejects.toBeInstanceOf(
      LatencyPromptError,
    );
  });
});

describe("schedule lower bounds", () => {
  it("is the longest call or the total spread over the slots, whichever is larger", () => {
    expect(slotLowerBound([10, 10, 10, 50], 2)).toBe(50);
    expect(slotLowerBound([10, 10, 10, 10], 2)).toBe(20);
    expect(slotLowerBound([10, 10, 10, 10], 1)).toBe(40);
    expect(sequentialLowerBound([10, 10, 10, 50])).toBe(80);
    expect(() => slotLowerBound([10], 0)).toThrow(ScheduleSlotsError);
  });
});
