/**
 * evaluateContent with reviewer corrections as few-shot examples: off unless asked (the source is
 * then never read), turned on per run or per catalog, the prompt's shared prefix byte for byte the
 * same with and without examples, the examples' label ids in the result and in the trace, the time
 * split (no correction decided at or after `before`), and auto mode asking per criterion.
 */
import { describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import {
  type ExampleQuery,
  type ExampleSource,
  inMemoryExampleSource,
} from "../../src/judge/exampleSource.js";
import type { FewShotExample } from "../../src/judge/fewShot.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { catalogOf, judgeOf, scoreAnswer, systemPromptOf, userPromptOf } from "./helpers.js";

const CONTENT = "We install solar panels on the town hall roof to reduce energy costs.";

function catalog(fewShot?: { enabled: boolean; maxExamples?: number }) {
  return catalogOf({
    id: "solar",
    name: "Solar",
    version: "1",
    ...(fewShot === undefined ? {} : { fewShot }),
    criteria: ["feasibility", "impact"].map((id) => ({
      id,
      title: id === "feasibility" ? "Feasibility" : "Impact",
      description: `How strong is the ${id}?`,
      weight: 1,
      method: { kind: "score" as const, scale: { min: 1, max: 5, integer: true } },
    })),
  });
}

function correction(labelId: string, criterionId: string, excerpt: string, decidedAt: string) {
  return {
    labelId,
    criterionId,
    contentType: "solution",
    decidedAt,
    excerpt,
    judgeValue: 5,
    correctedValue: 2,
    note: "no roof survey",
  } satisfies FewShotExample;
}

const CORRECTIONS = [
  correction(
    "d1#feasibility",
    "feasibility",
    "solar panels on a school roof",
    "2026-03-01T10:00:00Z",
  ),
  correction("d2#feasibility", "feasibility", "a new bicycle lane", "2026-03-02T10:00:00Z"),
  correction(
    "d3#feasibility",
    "feasibility",
    "solar panels reduce energy costs",
    "2026-03-05T10:00:00Z",
  ),
];

/** A source that counts the questions it is asked. */
function countingSource(inner: ExampleSource): ExampleSource & { asked: ExampleQuery[] } {
  const asked: ExampleQuery[] = [];
  return {
    asked,
    examples(query) {
      asked.push(query);
      return inner.examples(query);
    },
  };
}

function scripted() {
  return new ScriptedChatModel({ responder: () => scoreAnswer(3) });
}

describe("few-shot examples in evaluateContent", () => {
  it("are off by default: the source is never asked and the prompts carry no example", async () => {
    const model = scripted();
    const source = countingSource(inMemoryExampleSource(CORRECTIONS));
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(),
      model: judgeOf(model),
      fewShot: { source, enabled: false },
    });
    expect(source.asked).toEqual([]);
    expect(result.fewShotExamples).toBeUndefined();
    expect(model.calls.map((c) => userPromptOf(c.messages))).not.toContainEqual(
      expect.stringContaining("EXAMPLE"),
    );
  });

  it("keep the shared prefix byte for byte and record the label ids in result and trace", async () => {
    const plain = scripted();
    const withExamples = scripted();
    const base = { content: CONTENT, contentType: "solution" } as const;
    await evaluateContent({ ...base, catalog: catalog(), model: judgeOf(plain) });
    const result = await evaluateContent({
      ...base,
      catalog: catalog(),
      model: judgeOf(withExamples),
      fewShot: {
        source: inMemoryExampleSource(CORRECTIONS),
        maxExamples: 2,
        before: "2026-04-01T00:00:00Z",
      },
    });
    const feasibility = (model: ScriptedChatModel) =>
      model.calls.find((c) => userPromptOf(c.messages).includes("Criterion: Feasibility"))!;
    const before = feasibility(plain);
    const after = feasibility(withExamples);
    expect(systemPromptOf(after.messages)).toBe(systemPromptOf(before.messages));
    const plainUser = userPromptOf(before.messages);
    const user = userPromptOf(after.messages);
    const blockAt = user.indexOf("Earlier reviewer corrections");
    expect(blockAt).toBeGreaterThan(user.indexOf("<<<END CONTENT id="));
    // Everything before the block — system prompt, fenced content, criterion — is unchanged.
    expect(user.slice(0, blockAt)).toBe(plainUser.slice(0, blockAt));
    // The two most similar corrections, the most similar first; the bicycle lane is left out.
    expect(user.indexOf("solar panels reduce energy costs")).toBeLessThan(
      user.indexOf("solar panels on a school roof"),
    );
    expect(user).not.toContain("bicycle");
    expect(result.fewShotExamples).toEqual({ feasibility: ["d3#feasibility", "d1#feasibility"] });
    const trace = result.traces.find((t) => t.criterionIds.includes("feasibility"));
    expect(trace?.parameters.fewShotExamples).toEqual(["d3#feasibility", "d1#feasibility"]);
    const impact = result.traces.find((t) => t.criterionIds.includes("impact"));
    expect(impact?.parameters.fewShotExamples).toBeUndefined();
  });

  it("never show a correction decided at or after `before` (the time split)", async () => {
    const model = scripted();
    const source = countingSource(inMemoryExampleSource(CORRECTIONS));
    const result = await evaluateContent({
      content: CONTENT,
      contentType: "solution",
      catalog: catalog(),
      model: judgeOf(model),
      fewShot: { source, before: "2026-03-05T10:00:00Z" },
    });
    expect(source.asked.map((q) => q.before)).toEqual([
      "2026-03-05T10:00:00.000Z",
      "2026-03-05T10:00:00.000Z",
    ]);
    expect(result.fewShotExamples).toEqual({ feasibility: ["d1#feasibility", "d2#feasibility"] });
  });

  it("follow the catalog's setting, and say so when it is on without a source", async () => {
    const source = countingSource(inMemoryExampleSource(CORRECTIONS));
    const on = catalog({ enabled: true, maxExamples: 1 });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: on,
      model: judgeOf(scripted()),
      fewShot: { source },
    });
    expect(result.fewShotExamples).toEqual({ feasibility: ["d3#feasibility"] });
    const off = await evaluateContent({
      content: CONTENT,
      catalog: catalog({ enabled: false }),
      model: judgeOf(scripted()),
      fewShot: { source },
    });
    expect(off.fewShotExamples).toBeUndefined();
    expect(source.asked).toHaveLength(2); // the first evaluation's two criteria only
    const forced = await evaluateContent({
      content: CONTENT,
      catalog: catalog({ enabled: false }),
      model: judgeOf(scripted()),
      fewShot: { source, enabled: true, maxExamples: 2 },
    });
    expect(forced.fewShotExamples?.feasibility).toHaveLength(2);
    const alone = await evaluateContent({
      content: CONTENT,
      catalog: on,
      model: judgeOf(scripted()),
    });
    expect(alone.fewShotExamples).toBeUndefined();
    expect(alone.warnings).toContain(
      "the catalog turns few-shot examples on, but no example source was given: none were used",
    );
  });

  it("ask one call per criterion in auto mode, where it would otherwise group", async () => {
    const model = scripted();
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(),
      model: judgeOf(model),
      parallelSlots: 1,
      fewShot: { source: inMemoryExampleSource(CORRECTIONS) },
    });
    expect(result.judgeMode).toEqual({ mode: "per-criterion", groups: 0 });
    expect(model.calls).toHaveLength(2);
  });

  it("are left out with a warning when the source fails, and refuse bad limits", async () => {
    const failing: ExampleSource = {
      examples: () => Promise.reject(new Error("database is locked")),
    };
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(),
      model: judgeOf(scripted()),
      fewShot: { source: failing },
    });
    expect(result.passed === true || result.passed === false).toBe(true);
    expect(result.warnings).toContain(
      "feasibility: few-shot examples could not be read (database is locked); judged without",
    );
    await expect(
      evaluateContent({
        content: CONTENT,
        catalog: catalog(),
        model: judgeOf(scripted()),
        fewShot: { source: failing, maxExamples: 0 },
      }),
    ).rejects.toThrow(/^invalid fewShot option:[\s\S]*→ at maxExamples/);
  });
});
