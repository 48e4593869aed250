/**
 * createCatalogEvaluators with a scripted judge: the results each evaluator gives (computed by
 * hand beside each case), one evaluation per example whichever evaluators ask, the example's
 * reference outputs as the reference of reference-based points, and what could not be evaluated
 * reported as `score: null` with a comment — never a score.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCatalog } from "../../src/criteria/parse.js";
import { isEvalgateError } from "../../src/errors.js";
import { textOf } from "../../src/evaluators/catalogEvaluators.js";
import {
  createCatalogEvaluators,
  type EvaluatorInput,
  toEvaluatorResults,
} from "../../src/evaluators/index.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ModelUnavailableError } from "../../src/llm/errors.js";
import { GUARD_FINDING_ANSWER, type RecordedMessage, ScriptedChatModel } from "../doubles/index.js";

/**
 * Three points, multipliers 1, 1, 2 (weights 0.25, 0.25, 0.5): a key point the judge scores, the
 * answer's ROUGE-L against the example's reference, and whether it names the nurses.
 */
const CATALOG = parseCatalog(
  JSON.stringify({
    id: "training",
    points: [
      "States the objective clearly.",
      ["rouge_l", {}],
      { fn: "contains", fnArgs: "nurses", multiplier: 2 },
    ],
  }),
  { format: "json", source: "training.json" },
);

const EXAMPLE: EvaluatorInput = {
  inputs: { question: "What will the project do?" },
  outputs: { answer: "We train forty nurses in rural clinics." },
  referenceOutputs: { answer: "We train forty nurses by March." },
};

// ROUGE-L: we train forty nurses in rural clinics (7 words) / we train forty nurses by march (6):
// LCS 4, P = 4/7, R = 4/6, F = 2·(4/7)·(2/3) / (4/7 + 2/3) = (16/21) / (26/21) = 8/13.
const ROUGE = 8 / 13;
// Overall: 0.25·0.8 + 0.25·8/13 + 0.5·1.
const OVERALL = 0.25 * 0.8 + 0.25 * ROUGE + 0.5;

/** Scores the key point 0.8, or answers prose with no score when `unanswerable`. */
function judge(answer: "score" | "unanswerable" = "score"): ScriptedChatModel {
  return new ScriptedChatModel({
    model: "judge",
    responder: (messages: RecordedMessage[]) => {
      const user = messages.find((m) => m.role === "user")?.content ?? "";
      if (!user.includes("States the objective clearly.")) throw new Error("unexpected prompt");
      if (answer === "unanswerable") return "I cannot tell from this text.";
      return JSON.stringify({ reasoning: "The objective is stated.", score: 0.8 });
    },
  });
}

describe("createCatalogEvaluators", () => {
  it("gives each criterion's result and the overall one, from one judge call", async () => {
    const model = judge();
    const { all, keys } = await createCatalogEvaluators(CATALOG, { model });
    const results = await all(EXAMPLE);
    expect(keys).toEqual(["p1", "p2", "p3", "overall"]);
    expect(results.map((r) => r.key)).toEqual(keys);
    expect(results[0]?.score).toBe(0.8);
    expect(results[1]?.score).toBeCloseTo(ROUGE, 9);
    expect(results[2]?.score).toBe(1);
    expect(results[3]?.score).toBeCloseTo(OVERALL, 9);
    expect(results[0]?.comment).toBe(
      "States the objective clearly.: 0.80, met at 0.70. The objective is stated.",
    );
    expect(results[2]?.comment).toMatch(
      /^Function: contains\("nurses"\): 1\.00 \(pass\), met at 0\.70\./,
    );
    // A native value that is the score itself is not repeated (the score is kept to 10 digits).
    expect(results[1]?.comment).toMatch(/^Function: rouge_l\(\{\}\): 0\.61, not met at 0\.70\. /);
    expect(results[3]?.comment).toMatch(/^pass, passed\./);
    expect(results[3]?.metadata).toMatchObject({
      passed: true,
      verdict: "pass",
      notEvaluated: [],
      catalog: "training",
    });
    expect(model.calls).toHaveLength(1);
  });

  it("gives what the openevals view of the example's EvaluationResult says", async () => {
    const { all, evaluationOf } = await createCatalogEvaluators(CATALOG, {
      model: judge(),
      keyPrefix: "t.",
    });
    const results = await all(EXAMPLE);
    const view = toEvaluatorResults(await evaluationOf(EXAMPLE), { keyPrefix: "t." });
    expect(view).toEqual(results);
    expect(view.map((r) => r.key)).toEqual(["t.p1", "t.p2", "t.p3", "t.overall"]);
  });

  it("the per-criterion evaluators and the overall one share one evaluation per example", async () => {
    const model = judge();
    const { evaluators, overall } = await createCatalogEvaluators(CATALOG, { model });
    expect(evaluators.map((e) => e.name)).toEqual(["p1", "p2", "p3"]);
    expect(overall.name).toBe("overall");
    // One after another, as LangSmith calls an experiment's evaluators for a run.
    const sequential = [];
    for (const evaluator of [...evaluators, overall]) sequential.push(await evaluator(EXAMPLE));
    expect(sequential.map((r) => r.key)).toEqual(["p1", "p2", "p3", "overall"]);
    expect(model.calls).toHaveLength(1);
    // All at once, for another example: still one call for it.
    const other = { ...EXAMPLE, outputs: { answer: "Nurses will be trained." } };
    await Promise.all([...evaluators, overall].map((evaluator) => evaluator(other)));
    expect(model.calls).toHaveLength(2);
  });

  it("tells examples apart by content and reference, and keeps the most recent ones", async () => {
    const model = judge();
    const { all, evaluationOf } = await createCatalogEvaluators(CATALOG, {
      model,
      maxCachedExamples: 2,
    });
    const a = EXAMPLE;
    const b = { ...EXAMPLE, referenceOutputs: "We train forty nurses in rural clinics." };
    const c = { ...EXAMPLE, outputs: "Another answer." };
    await all(a);
    const sameReferenceOther = await all(b);
    // b's reference is the answer itself: ROUGE-L 1.
    expect(sameReferenceOther[1]?.score).toBe(1);
    expect(model.calls).toHaveLength(2);
    await all(b);
    expect(model.calls).toHaveLength(2);
    await all(c);
    // a was the oldest of three: evaluated again.
    await evaluationOf(a);
    expect(model.calls).toHaveLength(4);
  });

  it("more examples in flight at once than are kept still share one evaluation each", async () => {
    const model = judge();
    const { evaluators, overall } = await createCatalogEvaluators(CATALOG, {
      model,
      maxCachedExamples: 2,
    });
    // As LangSmith's evaluate() with a maxConcurrency over the limit: every example's first
    // evaluator asks before any evaluation ends, then each asks its next evaluators in turn.
    const examples = ["One.", "Two.", "Three."].map((answer) => ({ ...EXAMPLE, outputs: answer }));
    await Promise.all(
      examples.map(async (example) => {
        for (const evaluator of [...evaluators, overall]) await evaluator(example);
      }),
    );
    expect(model.calls).toHaveLength(3);
  });

  it("reports a criterion the judge could not answer as null, and the overall as null", async () => {
    const { all } = await createCatalogEvaluators(CATALOG, { model: judge("unanswerable") });
    const [point, rouge, contains, overall] = await all(EXAMPLE);
    expect(point?.score).toBeNull();
    expect(point?.comment).toMatch(/^Not evaluated: /);
    expect(point?.metadata).toMatchObject({ evaluated: false, met: null });
    expect(rouge?.score).toBeCloseTo(ROUGE, 9);
    expect(contains?.score).toBe(1);
    expect(overall?.score).toBeNull();
    // Over the others: (0.25·8/13 + 0.5·1) / 0.75 = 0.8718, shown cut down to 0.87.
    const overOthers = (0.25 * ROUGE + 0.5) / 0.75;
    expect(overall?.comment).toBe(
      `Not evaluated: 1 of 3 criteria could not be judged (p1); the score over the others was 0.87.`,
    );
    expect((overall?.metadata?.scoreOverEvaluated as number) ?? 0).toBeCloseTo(overOthers, 9);
  });

  it("when no criterion could be judged, no score over the others is given: there are none", async () => {
    const judgedOnly = parseCatalog(
      JSON.stringify({ id: "judged", points: ["States the objective clearly."] }),
      { format: "json", source: "judged.json" },
    );
    const { overall } = await createCatalogEvaluators(judgedOnly, { model: judge("unanswerable") });
    const result = await overall(EXAMPLE);
    expect(result.score).toBeNull();
    expect(result.comment).toBe("Not evaluated: the criterion could not be judged (p1).");
    expect(result.metadata?.scoreOverEvaluated).toBeNull();
  });

  it("a judge that cannot be reached: the judged point is null with the cause, the functions keep their scores", async () => {
    const down = new ScriptedChatModel({
      guard: "script",
      responder: () => {
        throw new ModelUnavailableError("connection-refused", "connect ECONNREFUSED", {
          provider: "scripted",
        });
      },
    });
    const { all } = await createCatalogEvaluators(CATALOG, {
      model: createChatModel(down, { maxRetries: 0 }),
    });
    const [point, rouge, contains, overall] = await all(EXAMPLE);
    expect(point?.score).toBeNull();
    expect(point?.comment).toMatch(/^Not evaluated: judge model error: .*ECONNREFUSED/);
    expect(rouge?.score).toBeCloseTo(ROUGE, 9);
    expect(contains?.score).toBe(1);
    expect(overall?.score).toBeNull();
    // The injection guard could not ask either: the comment says the result is held, and why.
    expect(overall?.metadata?.humanReviewRequired).toBe(true);
    expect(overall?.comment).toMatch(
      /^Not evaluated: 1 of 3 criteria .* A human must review it: the injection guard could not check the content \(MODEL_UNAVAILABLE\)\.$/,
    );
  });

  it("a result held for review keeps its score and says why, once per sentence", async () => {
    const model = new ScriptedChatModel({
      guard: GUARD_FINDING_ANSWER,
      responder: () => JSON.stringify({ reasoning: "The objective is stated.", score: 0.8 }),
    });
    const { overall } = await createCatalogEvaluators(CATALOG, { model });
    const result = await overall(EXAMPLE);
    expect(result.score).toBeCloseTo(OVERALL, 9);
    expect(result.metadata).toMatchObject({ passed: false, humanReviewRequired: true });
    expect(result.comment).toMatch(
      /^borderline, did not pass\. A human must review it: the injection guard found text aimed at the judge in the content: The content asks the evaluator for a perfect score\. /,
    );
  });

  it("without reference outputs, a reference-based point without its own reference is not evaluated", async () => {
    const { all } = await createCatalogEvaluators(CATALOG, { model: judge() });
    const results = await all({ outputs: EXAMPLE.outputs });
    expect(results[1]?.score).toBeNull();
    expect(results[1]?.comment).toMatch(/^Not evaluated: rouge_l: no reference answer/);
    expect(results[3]?.score).toBeNull();
  });

  it("an example that cannot be evaluated gives every key null with the reason", async () => {
    const model = judge();
    const { all, evaluationOf } = await createCatalogEvaluators(CATALOG, { model });
    // LangSmith passes no outputs when the target failed.
    const results = await all({ inputs: { question: "?" } });
    expect(results.map((r) => [r.key, r.score])).toEqual([
      ["p1", null],
      ["p2", null],
      ["p3", null],
      ["overall", null],
    ]);
    for (const result of results) {
      expect(result.comment).toBe(
        "Not evaluated: the evaluation failed (EVALUATION_FAILED: no content to evaluate (content is missing))",
      );
      expect(result.metadata).toEqual({ error: "EVALUATION_FAILED" });
    }
    await expect(evaluationOf({ inputs: {} })).rejects.toSatisfy((e) => isEvalgateError(e));
    // A target that returned nothing: LangSmith keeps a value that is not an object as
    // `{ outputs: value }`, so there is no content either (not the text "{}" judged).
    for (const nothing of [undefined, null]) {
      const [first] = await all({ outputs: { outputs: nothing } });
      expect(first?.score).toBeNull();
      expect(first?.comment).toMatch(/no content to evaluate/);
    }
    expect(model.calls).toHaveLength(0);
  });

  it("prefixes keys, names the overall key, and refuses options that cannot work", async () => {
    const { keys, all } = await createCatalogEvaluators(CATALOG, {
      model: judge(),
      keyPrefix: "training.",
      overallKey: "total",
    });
    expect(keys).toEqual(["training.p1", "training.p2", "training.p3", "training.total"]);
    expect(all.name).toBe("training.all");
    await expect(
      createCatalogEvaluators(CATALOG, { model: judge(), overallKey: "p2" }),
    ).rejects.toThrow(/overallKey: "p2" is also a criterion's id/);
    await expect(
      createCatalogEvaluators(CATALOG, { model: judge(), overallKey: " " }),
    ).rejects.toThrow(/overallKey: it is empty/);
    await expect(
      createCatalogEvaluators(CATALOG, { model: judge(), maxCachedExamples: 0 }),
    ).rejects.toThrow(/maxCachedExamples: expected a whole number ≥ 1, got 0/);
    await expect(createCatalogEvaluators(CATALOG, { model: "nonsense" })).rejects.toSatisfy((e) =>
      isEvalgateError(e, "MODEL_SPEC_INVALID"),
    );
    // A panel's judge that cannot be used is refused as well, not once per example.
    await expect(
      createCatalogEvaluators(CATALOG, { judges: [judge(), "nonsense"] }),
    ).rejects.toSatisfy((e) => isEvalgateError(e, "MODEL_SPEC_INVALID"));
  });

  it("loads a catalog file, and reads the content the way the options say", async () => {
    const dir = await mkdtemp(join(tmpdir(), "evalgate-evaluators-"));
    try {
      const path = join(dir, "names.json");
      await writeFile(path, JSON.stringify({ id: "names", points: [["contains", "Calder"]] }));
      const { all } = await createCatalogEvaluators(path, {
        model: judge(),
        content: (input) => (input.outputs as { draft: { text: string } }).draft.text,
      });
      const [hit] = await all({ outputs: { draft: { text: "Calder Bay" } } });
      expect(hit).toMatchObject({ key: "p1", score: 1 });
      await expect(createCatalogEvaluators(join(dir, "missing.json"))).rejects.toSatisfy((e) =>
        isEvalgateError(e, "CATALOG_NOT_FOUND"),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("textOf: the text of outputs and reference outputs", () => {
  it("takes text, a known key, a single field, or the last message", () => {
    expect(textOf("plain")).toBe("plain");
    expect(textOf({ output: "o", answer: "a" })).toBe("o");
    expect(textOf({ answer: "a", score: 3 })).toBe("a");
    expect(textOf({ summary: "only field" })).toBe("only field");
    expect(
      textOf({
        messages: [
          { role: "user", content: "q" },
          { role: "assistant", content: "last" },
        ],
      }),
    ).toBe("last");
    // Content as a list of blocks (chat-format and LangChain messages): its text blocks, joined.
    const blocks = [
      { type: "text", text: "We train " },
      { type: "image_url", image_url: { url: "data:," } },
      { type: "text", text: "nurses." },
    ];
    expect(textOf({ messages: [{ role: "assistant", content: blocks }] })).toBe("We train nurses.");
    expect(textOf({ role: "assistant", content: blocks })).toBe("We train nurses.");
    expect(textOf({ content: [{ type: "image_url", image_url: { url: "data:," } }] })).toBe(
      undefined,
    );
    expect(textOf({ a: "x", b: "y" })).toBeUndefined();
    expect(textOf(42)).toBeUndefined();
    expect(textOf(JSON.parse('{"__proto__": {"output": "polluted"}}'))).toBeUndefined();
  });
});
