/** Grouped mode: the criteria split into one TOON table call per server slot, chosen by `auto`. */
import { describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { type RecordedMessage, ScriptedChatModel } from "../doubles/index.js";
import { catalogOf, judgeOf, scoreAnswer, titleIn, userPromptOf } from "./helpers.js";

const CONTENT = [
  "Nordlicht GmbH, Hafenstrasse 1, Hamburg, builds a sensor fusion system for harbour cranes.",
  "The regional market is about 40 cranes; the pilot runs at two terminals in 2027.",
].join("\n");

/** The native score (1–5) each criterion is answered with. */
const SCORES: Readonly<Record<string, number>> = {
  c1: 5,
  c2: 4,
  c3: 3,
  c4: 2,
  c5: 1,
  c6: 4,
  c7: 3,
  c8: 5,
};

function catalog(count: number) {
  return catalogOf({
    id: "grouped",
    name: "Grouped catalog",
    version: "1",
    criteria: Object.keys(SCORES)
      .slice(0, count)
      .map((id) => ({
        id,
        title: `Aspect ${id}`,
        description: `Rate aspect ${id} (1-5).`,
        weight: 1,
        method: { kind: "score" as const, scale: { min: 1, max: 5, integer: true } },
      })),
  });
}

/** The ids a group prompt asks rows for, in order. */
function idsAsked(prompt: string): string[] {
  const listed = /one row per criterion in this order:\n(.+)\.\n/.exec(prompt);
  return listed === null ? [] : (listed[1] ?? "").split(", ");
}

/** Answers a group prompt with one row per id asked (except `skip`), a single prompt with JSON. */
function responder(skip: ReadonlySet<string> = new Set(), single?: (id: string) => string) {
  return (messages: RecordedMessage[]): string => {
    const prompt = userPromptOf(messages);
    const ids = idsAsked(prompt);
    if (ids.length === 0) {
      const id = titleIn(prompt)?.replace("Aspect ", "") ?? "";
      return single?.(id) ?? scoreAnswer(SCORES[id] ?? 1, `Single answer for ${id}.`);
    }
    const rows = ids
      .filter((id) => !skip.has(id))
      .map((id) => `  ${id},${SCORES[id]},"Evidence for ${id}."`);
    return [`results[${rows.length}]{id,score,reasoning}:`, ...rows].join("\n");
  };
}

const EXPECTED_SCORES = { c1: 1, c2: 0.75, c3: 0.5, c4: 0.25, c5: 0, c6: 0.75, c7: 0.5, c8: 1 };

describe("auto mode chooses by catalog", () => {
  it("groups eight criteria on four slots into four calls of two, at once", async () => {
    const model = new ScriptedChatModel({ hold: true, responder: responder() });
    const evaluation = evaluateContent({
      content: CONTENT,
      catalog: catalog(8),
      model: judgeOf(model),
    });
    await model.waitFor(() => model.held === 4);
    model.release();
    const result = await evaluation;

    expect(model.calls).toHaveLength(4);
    expect(model.maxInFlight).toBe(4);
    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 4 });
    const asked = model.calls.map((call) => idsAsked(userPromptOf(call.messages)));
    expect(asked.flat().sort()).toEqual(Object.keys(SCORES));
    for (const ids of asked) expect(ids).toHaveLength(2);
    expect(result.scores).toEqual(EXPECTED_SCORES);
    expect(result.traces.map((t) => t.purpose)).toEqual(["batch", "batch", "batch", "batch"]);
  });

  it("sends every group the same system prompt and the same content prefix", async () => {
    const model = new ScriptedChatModel({ responder: responder() });
    await evaluateContent({ content: CONTENT, catalog: catalog(8), model: judgeOf(model) });
    const users = model.calls.map((call) => userPromptOf(call.messages));
    const prefix = users[0]?.slice(0, (users[0]?.indexOf("<<<END CONTENT") ?? 0) + 1) ?? "";
    expect(prefix).toContain(CONTENT.split("\n")[0]);
    for (const call of model.calls) {
      expect(call.messages[0]).toEqual(model.calls[0]?.messages[0]);
      expect(userPromptOf(call.messages).startsWith(prefix)).toBe(true);
    }
  });

  it("asks one call per criterion when the slots would get fewer than two each", async () => {
    const model = new ScriptedChatModel({ responder: responder() });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(5),
      model: judgeOf(model),
    });
    expect(model.calls).toHaveLength(5);
    expect(result.judgeMode).toEqual({ mode: "per-criterion", groups: 0 });
  });

  it("makes as many groups as the server has parallel slots", async () => {
    const model = new ScriptedChatModel({ responder: responder() });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(8),
      model: judgeOf(model),
      parallelSlots: 2,
    });
    expect(model.calls.map((call) => idsAsked(userPromptOf(call.messages)).length)).toEqual([4, 4]);
    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 2 });
  });

  it("keeps a caller's own prompt template per criterion", async () => {
    const model = new ScriptedChatModel({ responder: responder() });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(8),
      model: judgeOf(model),
      evaluationPrompt: "Criterion: {{criterion_title}}\n{{criterion_description}}\n\n{{content}}",
    });
    expect(model.calls).toHaveLength(8);
    expect(result.judgeMode).toEqual({ mode: "per-criterion", groups: 0 });
  });
});

describe("a group answer that misses a criterion", () => {
  it("has it asked again (repair round), then alone, and scored from that answer", async () => {
    const model = new ScriptedChatModel({ responder: responder(new Set(["c8"])) });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(8),
      model: judgeOf(model),
      mode: "grouped",
    });
    const purposes = result.traces.map((t) => `${t.purpose}:${t.criterionIds.join(",")}`);
    expect(purposes).toContain("repair:c7,c8");
    expect(purposes).toContain("criterion:c8");
    expect(result.scores).toEqual(EXPECTED_SCORES);
    expect(result.criteria.find((c) => c.id === "c8")?.reasoning).toBe("Single answer for c8.");
    expect(result.warnings.some((w) => w.startsWith("group 4/4: "))).toBe(true);
  });

  it("is a judge error when no answer for it can be read: never a pass or a zero", async () => {
    const model = new ScriptedChatModel({
      responder: responder(new Set(["c8"]), () => "I cannot say."),
    });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: catalog(8),
      model: judgeOf(model),
      mode: "grouped",
    });
    expect(result.notEvaluated).toEqual(["c8"]);
    const c8 = result.criteria.find((c) => c.id === "c8");
    expect(c8).toMatchObject({ evaluated: false, score: null, met: null });
    expect(c8?.judgeError).toBeTruthy();
    expect(result.scores).not.toHaveProperty("c8");
    expect(result.passed).toBe(false);
  });
});
