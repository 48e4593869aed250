import { afterEach, describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { createEvaluationNode } from "../../src/graph/evaluationNode.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import {
  jsonAnswer,
  type OllamaServer,
  ScriptedChatModel,
  startOllamaServer,
} from "../doubles/index.js";
import {
  type AnswerByTitle,
  answerByTitle,
  catalogOf,
  judgeOf,
  tableAnswer,
  titleIn,
  userPromptOf,
} from "./helpers.js";

const CONTENT = "The consortium pilots a permit portal with two councils; the budget is itemised.";

function panelCatalog() {
  return catalogOf({
    id: "panel",
    name: "Panel",
    version: "1",
    passingThreshold: 0.5,
    criteria: [
      {
        id: "feasibility",
        title: "Feasibility",
        description: "The plan can be delivered.",
        weight: 1,
        method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
      },
      {
        id: "partners",
        title: "Partner commitment",
        description: "Partners are named.",
        weight: 1,
        method: { kind: "check" },
      },
      {
        id: "clarity",
        title: "Clarity",
        description: "The text is clear.",
        weight: 1,
        method: {
          kind: "levels",
          levels: [
            { id: "weak", label: "Weak", score: 0 },
            { id: "fair", label: "Fair", score: 0.5 },
            { id: "strong", label: "Strong", score: 1 },
          ],
        },
      },
    ],
  });
}

const score = (value: number) =>
  jsonAnswer({ reasoning: `Feasible: ${value}.`, score: value, hits: [], misses: [] });
const check = (result: "pass" | "fail") =>
  jsonAnswer({ reasoning: `Partners: ${result}.`, result });
const level = (id: string) => jsonAnswer({ reasoning: `Clarity ${id}.`, level_id: id });

function answers(feasibility: number, partners: "pass" | "fail", clarity: string): AnswerByTitle {
  return {
    Feasibility: score(feasibility),
    "Partner commitment": check(partners),
    Clarity: level(clarity),
  };
}

/** Judges a 4, pass, strong; b 5, pass, strong; c 2, fail, strong. */
function threeJudges(overrides: { c?: AnswerByTitle } = {}) {
  return [
    new ScriptedChatModel({ model: "a", responder: answerByTitle(answers(4, "pass", "strong")) }),
    new ScriptedChatModel({ model: "b", responder: answerByTitle(answers(5, "pass", "strong")) }),
    new ScriptedChatModel({
      model: "c",
      responder: answerByTitle(overrides.c ?? answers(2, "fail", "strong")),
    }),
  ];
}

async function evaluateWithPanel(
  models: ScriptedChatModel[],
  panel: { aggregate?: "median" | "mean" | "majority"; minAgreement?: number } = {},
) {
  return evaluateContent({
    content: CONTENT,
    catalog: panelCatalog(),
    judges: models.map((m) => judgeOf(m)),
    panel,
  });
}

describe("a panel of judges", () => {
  it("every criterion is judged by each member; the median is the score; every answer is kept", async () => {
    const models = threeJudges();
    const result = await evaluateWithPanel(models);
    expect(models.map((m) => m.calls.length)).toEqual([3, 3, 3]);
    const [feasibility, partners, clarity] = result.criteria;
    // 4, 5, 2 → median 4 on 1–5 = 0.75.
    expect(feasibility).toMatchObject({ native: 4, score: 0.75 });
    expect(feasibility?.panel?.answers.map((a) => [a.judge, a.native])).toEqual([
      ["scripted:a", 4],
      ["scripted:b", 5],
      ["scripted:c", 2],
    ]);
    // pass, pass, fail → the middle answer is pass.
    expect(partners).toMatchObject({ native: "pass", score: 1 });
    expect(clarity).toMatchObject({ native: "strong", level: "strong", score: 1 });
    expect(result.panel).toMatchObject({
      judges: ["scripted:a", "scripted:b", "scripted:c"],
      aggregate: "median",
      gaps: 0,
    });
    expect(result.traces.filter((t) => t.purpose === "criterion")).toHaveLength(9);
  });

  it("reports agreement per criterion and overall, as computed by hand", async () => {
    const result = await evaluateWithPanel(threeJudges());
    const [feasibility, partners, clarity] = result.criteria.map((c) => c.panel);
    // 4, 5, 2 on 1–5: D_o = 2·(1 + 4 + 9)/6 = 14/3, D_e = 4 → 1 − 7/6 = −1/6.
    expect(feasibility).toMatchObject({ metric: "interval" });
    expect(feasibility?.agreement).toBeCloseTo(-1 / 6, 10);
    // pass, pass, fail: D_o = 4/6, D_e = 0.5 → −1/3.
    expect(partners).toMatchObject({ metric: "nominal" });
    expect(partners?.agreement).toBeCloseTo(-1 / 3, 10);
    expect(clarity).toMatchObject({ metric: "ordinal", agreement: 1 });
    // Alpha over the three criteria on 0–1 scores (0.75, 1, 0.25), (1, 1, 0), (1, 1, 1):
    // n = 9 (0 ×1, 0.25 ×1, 0.75 ×1, 1 ×6); Σ o·δ² = 0.875 + 2 = 2.875; Σ n·n·δ² = 21.25;
    // α = 1 − 8 · 2.875 / 21.25 = −1.75 / 21.25 = −0.0824.
    expect(result.panel?.agreement).toBeCloseTo(-1.75 / 21.25, 10);
  });

  it("agreement under minAgreement holds the result for a reviewer, with the reasons", async () => {
    const result = await evaluateWithPanel(threeJudges(), { minAgreement: 0.5 });
    expect(result.passed).toBe(false);
    expect(result.verdict).not.toBe("pass");
    expect(result.humanReviewRequired).toBe(true);
    // The agreements shown are cut down at 3 decimals: −1/3 shows −0.334, −0.0824 shows −0.083.
    expect(result.humanReviewReasons).toEqual([
      "criterion feasibility: the judges disagree (agreement -0.167 < 0.5: scripted:a 4, scripted:b 5, scripted:c 2)",
      "criterion partners: the judges disagree (agreement -0.334 < 0.5: scripted:a pass, scripted:b pass, scripted:c fail)",
      "the judges disagree across the criteria (Krippendorff's alpha -0.083 < 0.5)",
    ]);
    expect(result.panel?.minAgreement).toBe(0.5);
  });

  it("judges that agree pass without review", async () => {
    const agreeing = ["a", "b", "c"].map(
      (name) =>
        new ScriptedChatModel({
          model: name,
          responder: answerByTitle(answers(4, "pass", "strong")),
        }),
    );
    const result = await evaluateWithPanel(agreeing, { minAgreement: 0.8 });
    expect(result.criteria.map((c) => c.panel?.agreement)).toEqual([1, 1, 1]);
    expect(result.passed).toBe(true);
    expect(result.humanReviewRequired).toBe(false);
  });

  it("mean and majority", async () => {
    const mean = await evaluateWithPanel(threeJudges(), { aggregate: "mean" });
    // (0.75 + 1 + 0.25) / 3 = 0.667 → 1 + 0.667·4 = 3.667; pass/fail mean 0.667 is nearest pass.
    expect(mean.criteria[0]?.score).toBeCloseTo(2 / 3, 9);
    expect(mean.criteria[0]?.native).toBe(3.6667);
    expect(mean.criteria[1]).toMatchObject({ native: "pass" });
    const majority = await evaluateWithPanel(threeJudges(), { aggregate: "majority" });
    // 4, 5, 2 each once: the tie goes to the lowest, 2 (0.25); pass twice of three: pass.
    expect(majority.criteria[0]).toMatchObject({ score: 0.25, native: 2 });
    expect(majority.criteria[1]).toMatchObject({ native: "pass" });
  });

  it("a member that fails is a reported gap, not a smaller panel", async () => {
    const c = { ...answers(2, "fail", "strong"), Feasibility: new Error("judge c is down") };
    const result = await evaluateWithPanel(threeJudges({ c }));
    const feasibility = result.criteria[0];
    expect(feasibility?.panel?.answers[2]).toMatchObject({ judge: "scripted:c", evaluated: false });
    expect(feasibility?.panel?.answers[2]?.judgeError).toContain("judge c is down");
    // Median of 4 and 5: 4.5 (0.875).
    expect(feasibility).toMatchObject({ evaluated: true, score: 0.875, native: 4.5 });
    expect(result.panel?.gaps).toBe(1);
    expect(result.passed).toBe(false);
    // The agreements shown are cut down at 3 decimals: −1/3 shows −0.334, −0.0824 shows −0.083.
    expect(result.humanReviewReasons).toEqual([
      "criterion feasibility: the panel has a gap (scripted:c gave no answer); 2 of 3 judges decided it",
    ]);
    // The warning reaches reviewers: the member's error stays in its answer's judgeError.
    expect(result.warnings).toContain("feasibility: judge scripted:c gave no answer");
    expect(result.warnings.filter((w) => w.includes("judge c is down"))).toEqual([]);
  });

  it("progress says each criterion done once, with the panel's value, not the last member's answer", async () => {
    const c = { ...answers(2, "fail", "strong"), Feasibility: new Error("judge c is down") };
    const done: Array<{ id: string; native: unknown; evaluated: boolean }> = [];
    const result = await evaluateContent({
      content: CONTENT,
      catalog: panelCatalog(),
      judges: threeJudges({ c }).map((m) => judgeOf(m)),
      onProgress: (event) => {
        if (event.type !== "criterion_done") return;
        const { native, evaluated } = event.outcome;
        done.push({ id: event.criterionId, native, evaluated });
      },
    });
    // Feasibility: 4 and 5 answered, c failed: the median 4.5, as in the result.
    expect(done.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
      { id: "clarity", native: "strong", evaluated: true },
      { id: "feasibility", native: 4.5, evaluated: true },
      { id: "partners", native: "pass", evaluated: true },
    ]);
    expect(result.criteria[0]?.native).toBe(4.5);
  });

  it("a member whose every call fails leaves a gap on every criterion; the others still judge", async () => {
    const down = new Error("connection refused");
    const result = await evaluateWithPanel(
      threeJudges({ c: { Feasibility: down, "Partner commitment": down, Clarity: down } }),
    );
    expect(result.panel?.gaps).toBe(3);
    expect(result.criteria.every((cr) => cr.evaluated)).toBe(true);
    expect(result.humanReviewReasons).toHaveLength(3);
    expect(result.passed).toBe(false);
  });

  it("`model` names every judge in the panel's order, one whose calls all failed included", async () => {
    const [a, b, c] = threeJudges();
    const inOrder = await evaluateWithPanel([a, b, c] as ScriptedChatModel[]);
    expect(inOrder.model).toBe("scripted:a, scripted:b, scripted:c");
    expect(inOrder.panel?.judges.join(", ")).toBe(inOrder.model);
    // The panel's order, not the order calls answered: c, then a, then b.
    const reordered = await evaluateWithPanel([c, a, b] as ScriptedChatModel[]);
    expect(reordered.model).toBe("scripted:c, scripted:a, scripted:b");
    // A first judge whose every call fails is still a judge of the panel.
    const down = new Error("connection refused");
    const failedFirst = new ScriptedChatModel({
      model: "a",
      responder: answerByTitle({ Feasibility: down, "Partner commitment": down, Clarity: down }),
    });
    const [, b2, c2] = threeJudges();
    const withGap = await evaluateWithPanel([failedFirst, b2, c2] as ScriptedChatModel[]);
    expect(withGap.panel?.gaps).toBe(3);
    expect(withGap.model).toBe("scripted:a, scripted:b, scripted:c");
    // One judge: its model alone, as before.
    const [alone] = threeJudges();
    const single = await evaluateContent({
      content: CONTENT,
      catalog: panelCatalog(),
      model: judgeOf(alone as ScriptedChatModel),
    });
    expect(single.panel).toBeUndefined();
    expect(single.model).toBe("scripted:a");
  });

  it("panel options without two judges are refused: a minimum agreement one judge never falls under", async () => {
    const [a] = threeJudges();
    const asked = { content: CONTENT, catalog: panelCatalog(), panel: { minAgreement: 0.9 } };
    for (const judging of [
      { model: judgeOf(a as ScriptedChatModel) },
      { judges: [judgeOf(a as ScriptedChatModel)] },
    ]) {
      await expect(evaluateContent({ ...asked, ...judging })).rejects.toMatchObject({
        code: "EVALUATION_FAILED",
        message: "the panel option needs two or more judges",
      });
    }
    expect(a?.calls).toHaveLength(0);
    // An evaluation node is refused when it is made, not when a graph first runs it.
    expect(() =>
      createEvaluationNode({
        contentType: "budget",
        contentExtractor: () => CONTENT,
        criteriaPath: "budget.json",
        resultField: "budgetResult",
        statusField: "budgetStatus",
        judges: [judgeOf(a as ScriptedChatModel)],
        panel: { minAgreement: 0.9 },
      }),
    ).toThrow("the panel option needs two or more judges");
  });

  it("a member's notes on its judging name the member", async () => {
    const table = tableAnswer([
      ["feasibility", 4, "Feasible."],
      ["partners", "pass", "Named."],
      ["clarity", "strong", "Clear."],
    ]);
    // c answers prose to the batch, then each criterion alone.
    const prose = {
      ...answers(4, "pass", "strong"),
      Feasibility: jsonAnswer({ reasoning: "Feasible.", quotes: ["a".repeat(310)], score: 4 }),
    };
    const c = new ScriptedChatModel({
      model: "c",
      responder: (messages, n) =>
        userPromptOf(messages).includes("results[3]")
          ? "It all looks fine."
          : answerByTitle(prose)(messages, n),
    });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: panelCatalog(),
      judges: [
        new ScriptedChatModel({ model: "a", responder: () => table }),
        new ScriptedChatModel({ model: "b", responder: () => table }),
        c,
      ].map((m) => judgeOf(m)),
      mode: "batch",
    });
    const batchNotes = result.warnings.filter((w) => w.includes("batch: "));
    expect(batchNotes.length).toBeGreaterThan(0);
    for (const note of batchNotes) expect(note).toMatch(/^judge scripted:c: batch: /);
    // Its notes on an answer too, worded as "judge … quoted" is.
    expect(result.warnings).toContain(
      "feasibility: judge scripted:c: a quote of 310 characters was cut to 300",
    );
    expect(result.panel?.gaps).toBe(0);
  });

  it("the members share the concurrency limit", async () => {
    let active = 0;
    let started = 0;
    let most = 0;
    const waiting: Array<() => void> = [];
    const total = 9;
    const gated = (name: string) =>
      new ScriptedChatModel({
        model: name,
        responder: async (messages) => {
          active++;
          started++;
          most = Math.max(most, active);
          // Wait for a partner call (or the last call): proves two run at once, never more.
          if (active >= 2 || started === total) for (const go of waiting.splice(0)) go();
          else await new Promise<void>((go) => waiting.push(go));
          active--;
          const title = titleIn(messages.at(-1)?.content ?? "") ?? "";
          return answerByTitle(answers(4, "pass", "strong"))(
            [{ role: "user", content: `Criterion: ${title}` }],
            0,
          );
        },
      });
    const result = await evaluateContent({
      content: CONTENT,
      catalog: panelCatalog(),
      judges: ["a", "b", "c"].map((n) => judgeOf(gated(n))),
      concurrency: 2,
    });
    expect(started).toBe(total);
    expect(most).toBe(2);
    expect(result.panel?.gaps).toBe(0);
  });
});

describe("a panel over the Ollama protocol", () => {
  let server: OllamaServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("sends each criterion to every model named, and aggregates their answers", async () => {
    const byModel: Record<string, AnswerByTitle> = {
      "judge-a": answers(4, "pass", "strong"),
      "judge-b": answers(5, "pass", "fair"),
      "judge-c": answers(3, "fail", "fair"),
    };
    server = await startOllamaServer({
      models: Object.keys(byModel),
      responder: (request) => {
        const user = [...request.messages].reverse().find((m) => m.role === "user")?.content ?? "";
        const title = titleIn(user) ?? "";
        const answer = byModel[request.model]?.[title];
        if (typeof answer !== "string")
          throw new Error(`no answer for ${request.model} / ${title}`);
        return answer;
      },
    });
    const url = server.url;
    const judges = Object.keys(byModel).map((name) =>
      createChatModel(`ollama:${name}`, { baseUrl: url, env: {}, maxRetries: 0, timeoutMs: 5_000 }),
    );
    const result = await evaluateContent({
      content: CONTENT,
      catalog: panelCatalog(),
      judges,
    });
    const models = server.chatRequests().map((r) => r.model);
    expect(models.filter((m) => m === "judge-a")).toHaveLength(3);
    expect(models.filter((m) => m === "judge-b")).toHaveLength(3);
    expect(models.filter((m) => m === "judge-c")).toHaveLength(3);
    expect(result.panel?.judges).toEqual(["ollama:judge-a", "ollama:judge-b", "ollama:judge-c"]);
    // 4, 5, 3 → median 4; pass, pass, fail → pass; strong, fair, fair → the middle is fair.
    expect(result.criteria.map((c) => c.native)).toEqual([4, "pass", "fair"]);
    expect(result.criteria[2]?.panel?.answers.map((a) => a.native)).toEqual([
      "strong",
      "fair",
      "fair",
    ]);
  });
});
