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
import { ServerSlots, SlotCountError, SlotWaitAbortedError } from "../../bench/latencySlots.js";
import { batchRepairPrompt } from "../../prompts/evaluation/index.js";
import type { Criterion } from "../../src/criteria/model.js";
import { parseJudgeResponse } from "../../src/judge/parse.js";
import { parseBatchResponse } from "../../src/judge/parseBatch.js";
import { renderJudgePrompt } from "../../src/judge/render.js";
import { renderBatchPrompt } from "../../src/judge/renderBatch.js";

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
    await Promise.all([1, 2, 3, 4].map(() => model.invoke(prompt)));

    const records = [...model.records].sort((a, b) => a.arrivalMs - b.arrivalMs);
    const [first, second, third, fourth] = records;
    if (!first || !second || !third || !fourth) throw new Error("expected four calls");
    expect(model.slots.maxBusy).toBe(2);
    // wave 1: the first two were served together, each started before the other ended
    expect(first.startMs).toBeLessThan(second.endMs);
    expect(second.startMs).toBeLessThan(first.endMs);
    // wave 2 starts when a slot frees, in arrival order
    const firstWaveEnd = Math.min(first.endMs, second.endMs);
    expect(third.startMs).toBeGreaterThanOrEqual(firstWaveEnd - 0.5);
    expect(fourth.startMs).toBeGreaterThanOrEqual(firstWaveEnd - 0.5);
    expect(third.startMs).toBeLessThanOrEqual(fourth.startMs);
    for (const r of records) expect(r.serviceMs).toBeGreaterThanOrEqual(39.9);

    const stats = scheduleStats(model.records, 2);
    expect(stats.slotBoundMs).toBeGreaterThanOrEqual(80);
    expect(stats.sequentialBoundMs).toBeGreaterThanOrEqual(160);
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

describe("ServerSlots", () => {
  it("grants at most `count` slots, queues the rest and hands a freed slot to the longest waiting", async () => {
    const slots = new ServerSlots(2);
    const granted: number[] = [];
    const requests = [1, 2, 3, 4].map((n) => slots.acquire().then(() => granted.push(n)));
    await Promise.all(requests.slice(0, 2));
    expect(granted).toEqual([1, 2]);
    expect(slots.busy).toBe(2);
    expect(slots.waiting).toBe(2);

    slots.release();
    await requests[2];
    expect(granted).toEqual([1, 2, 3]);
    expect(slots.busy).toBe(2);
    expect(slots.waiting).toBe(1);

    slots.release();
    slots.release();
    await requests[3];
    expect(granted).toEqual([1, 2, 3, 4]);
    expect(slots.busy).toBe(1);
    expect(slots.maxBusy).toBe(2);
  });

  it("drops a waiting request whose signal fires, without taking a slot", async () => {
    const slots = new ServerSlots(1);
    await slots.acquire();
    const controller = new AbortController();
    const waiting = slots.acquire(controller.signal);
    expect(slots.waiting).toBe(1);
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toBeInstanceOf(SlotWaitAbortedError);
    expect(slots.waiting).toBe(0);
    slots.release();
    expect(slots.busy).toBe(0);
    expect(() => new ServerSlots(0)).toThrow(SlotCountError);
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
    expect(answer.text.split("\n")[0]).toBe(
      `results[${criteria.length}]{id,score,quotes,reasoning}:`,
    );
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
