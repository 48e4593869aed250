/**
 * How evaluateContent calls the judge: concurrency, model failures and cancellation, the trace
 * file, the model-written summary, input validation, and what the prompts carry.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { contentTypePrompt } from "../../prompts/evaluation/index.js";
import { SUMMARY_SYSTEM } from "../../prompts/evaluation/summaryPrompt.js";
import { EvaluationError, EvaluationModelError } from "../../src/engine/errors.js";
import { evaluateContent, runEvaluation } from "../../src/engine/evaluateContent.js";
import { NO_JUDGE_NOTE } from "../../src/engine/judgeCatalog.js";
import type { EvaluateContentOptions } from "../../src/engine/options.js";
import { fenceData } from "../../src/judge/fence.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ModelAbortedError, ModelUnavailableError } from "../../src/llm/errors.js";
import { type Trace, TraceSchema } from "../../src/scoring/result.js";
import { encodeResultsToon } from "../../src/scoring/resultsToon.js";
import {
  type OllamaServer,
  ScriptedChatModel,
  type ScriptedResponder,
  startOllamaServer,
} from "../doubles/index.js";
import {
  answerByTitle,
  BUDGET_CONTENT,
  BUDGET_TITLES,
  budgetAnswersAll,
  budgetCatalog,
  catalogOf,
  checkAnswer,
  ifbCatalog,
  judgeOf,
  scoreAnswer,
  systemPromptOf,
  userPromptOf,
} from "./helpers.js";

function sixCriteria() {
  return catalogOf({
    id: "six",
    name: "Six criteria",
    version: "1",
    criteria: Array.from({ length: 6 }, (_, i) => ({
      id: `k${i + 1}`,
      title: `Aspect ${i + 1}`,
      description: `How well does the content cover aspect number ${i + 1}?`,
      weight: 1,
      method: { kind: "score" as const, scale: { min: 0, max: 1 } },
    })),
  });
}

/**
 * Every call is held at the model's gate; the test lets them answer one at a time, each time only
 * once `limit` calls wait (or all that are left), and once every call that could start has had its
 * turns of the event loop to arrive. `maxInFlight` then counts what the engine ran at once.
 */
async function answerHeldCalls(model: ScriptedChatModel, total: number, limit: number) {
  for (let answered = 0; answered < total; answered += 1) {
    const expected = Math.min(limit, total - answered);
    await model.waitFor((m) => m.held >= expected);
    await eventLoopTurns(20);
    model.release(1);
  }
}

/** Lets every pending callback run: what would start now has started after these turns. */
async function eventLoopTurns(turns: number): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

async function maxInFlightWith(concurrency: number | undefined): Promise<number> {
  const model = new ScriptedChatModel({ hold: true, responder: () => scoreAnswer(0.7) });
  const evaluation = evaluateContent({
    content: "A short proposal section.",
    catalog: sixCriteria(),
    model: judgeOf(model),
    mode: "per-criterion",
    ...(concurrency === undefined ? {} : { concurrency }),
  });
  await answerHeldCalls(model, 6, concurrency ?? 4);
  const result = await evaluation;
  expect(model.calls).toHaveLength(6);
  expect(Object.keys(result.scores)).toHaveLength(6);
  return model.maxInFlight;
}

describe("concurrent per-criterion judging", () => {
  it("keeps exactly `concurrency` model calls in flight", async () => {
    expect(await maxInFlightWith(2)).toBe(2);
  });

  it("runs four at a time by default", async () => {
    expect(await maxInFlightWith(undefined)).toBe(4);
  });

  it("runs one at a time with concurrency 1", async () => {
    expect(await maxInFlightWith(1)).toBe(1);
  });
});

const T = BUDGET_TITLES;

function refused(): ModelUnavailableError {
  return new ModelUnavailableError("connection-refused", "connect ECONNREFUSED 127.0.0.1:11434", {
    provider: "ollama",
    model: "qwen2.5:7b-instruct",
    baseUrl: "http://127.0.0.1:11434",
  });
}

describe("model failures", () => {
  let server: OllamaServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("every call failing throws EvaluationModelError with the typed cause", async () => {
    const catalog = await budgetCatalog();
    const model = new ScriptedChatModel({
      responder: () => {
        throw refused();
      },
    });
    const error = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model),
    }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(EvaluationModelError);
    expect(error).toBeInstanceOf(EvaluationError);
    if (!(error instanceof EvaluationModelError)) return;
    expect(error.kind).toBe("model");
    expect(error.modelError).toBeInstanceOf(ModelUnavailableError);
    expect(error.cause).toBe(error.modelError);
    expect((error.modelError as ModelUnavailableError).reason).toBe("connection-refused");
    expect(error.message).toContain("5 criteria");
    expect(error.message).toContain("ollama serve");
    expect(model.calls).toHaveLength(5);
  });

  it("a judge that cannot be reached: each LLM criterion a judge error, the deterministic ones stand", async () => {
    const catalog = catalogOf({
      id: "mixed",
      name: "Mixed",
      version: "1",
      criteria: [
        {
          id: "total",
          title: "States a total",
          description: "The budget states its total",
          weight: 1,
          method: { kind: "function", name: "contains", args: "Total" },
        },
        {
          id: "clarity",
          title: "Clarity",
          description: "Is the budget clear?",
          weight: 1,
          method: { kind: "score", scale: { min: 0, max: 1 } },
        },
      ],
    });
    const down = new ScriptedChatModel({
      responder: () => {
        throw refused();
      },
    });
    const events: string[] = [];
    const run = await runEvaluation({
      content: "Total 120,000 EUR.",
      catalog,
      model: judgeOf(down),
      onProgress: (event) => events.push(event.type),
    });
    expect(run.modelFailure?.modelError).toBeInstanceOf(ModelUnavailableError);
    // No `done`: the judge never answered.
    expect(events).not.toContain("done");
    expect(events).toContain("criterion_done");
    const [total, clarity] = run.result.criteria;
    expect(total).toMatchObject({ evaluated: true, score: 1 });
    expect(clarity).toMatchObject({ evaluated: false, score: null });
    expect(clarity?.judgeError).toMatch(/^judge model error: /);
    expect(run.result.passed).toBe(false);
    expect(run.result.notEvaluated).toEqual(["clarity"]);

    // evaluateContent throws it, the result beside the typed cause.
    const error = await evaluateContent({
      content: "Total 120,000 EUR.",
      catalog,
      model: judgeOf(down),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EvaluationModelError);
    if (!(error instanceof EvaluationModelError)) return;
    expect(error.result?.criteria.map((c) => c.evaluated)).toEqual([true, false]);

    // No judge at all: no call, the same judge error shape, no model failure.
    const alone = await runEvaluation({ content: "Total 120,000 EUR.", catalog, model: null });
    expect(alone.modelFailure).toBeUndefined();
    expect(alone.result.criteria.map((c) => c.evaluated)).toEqual([true, false]);
    expect(alone.result.criteria[1]?.judgeError).toBe(NO_JUDGE_NOTE);
    expect(alone.result.traces).toEqual([]);
  });

  it("an Ollama server answering 503 (no retries) fails the evaluation with ModelUnavailableError", async () => {
    server = await startOllamaServer({ behaviour: { status: 503, errorMessage: "server busy" } });
    const catalog = await budgetCatalog();
    const judge = createChatModel("ollama:qwen2.5:7b-instruct", {
      baseUrl: server.url,
      env: {},
      maxRetries: 0,
      timeoutMs: 2_000,
    });
    const error = await evaluateContent({ content: BUDGET_CONTENT, catalog, model: judge }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EvaluationModelError);
    if (!(error instanceof EvaluationModelError)) return;
    expect(error.modelError).toBeInstanceOf(ModelUnavailableError);
    expect(error.modelError).toMatchObject({ reason: "server-error", status: 503 });
    expect(server.chatRequests()).toHaveLength(5);
  });

  it("some calls failing: those criteria are judge errors and the result still comes back", async () => {
    const catalog = await budgetCatalog();
    const model = new ScriptedChatModel({
      responder: answerByTitle({
        ...budgetAnswersAll(0.8),
        [T.alignment]: refused(),
        [T.justification]: refused(),
      }),
    });
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model),
    });

    expect(result.notEvaluated).toEqual(["activity_alignment", "budget_justification"]);
    const alignment = result.criteria.find((c) => c.id === "activity_alignment");
    expect(alignment).toMatchObject({ evaluated: false, score: null });
    expect(alignment?.judgeError).toMatch(/^judge model error: .*refused the connection/);
    expect(result.scores).toEqual({
      arithmetic_accuracy: 0.8,
      funder_rule_compliance: 0.8,
      cost_reasonableness: 0.8,
    });
    expect(result.overallScore).toBeCloseTo(0.8, 10);
    expect(result.passed).toBe(false);
    const failed = result.traces.filter((t) => t.error !== undefined);
    expect(failed.map((t) => t.criterionIds[0]).sort()).toEqual([
      "activity_alignment",
      "budget_justification",
    ]);
    for (const trace of failed) {
      expect(trace.error).toMatch(/^ModelUnavailableError: /);
      expect(trace.rawResponse).toBe("");
    }
    expect(result.rawResponse).not.toHaveProperty("activity_alignment");
  });

  it("a failure retried by the model layer is not a failure of the evaluation", async () => {
    const catalog = await budgetCatalog();
    const model = new ScriptedChatModel({
      script: [refused()],
      responder: () => scoreAnswer(0.8, "Fine."),
    });
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model, { maxRetries: 1 }),
      mode: "per-criterion",
      concurrency: 1,
    });
    expect(model.calls).toHaveLength(6);
    expect(result.notEvaluated).toEqual([]);
  });

  it("a caller's AbortSignal aborts the evaluation", async () => {
    const catalog = await budgetCatalog();
    // Every call is held and never released: only the abort can end them.
    const model = new ScriptedChatModel({ hold: true, responder: () => scoreAnswer(0.8) });
    const controller = new AbortController();
    const evaluation = evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await model.waitFor((m) => m.held === 4);
    controller.abort(new Error("user cancelled"));
    const error = await evaluation;

    expect(error).toBeInstanceOf(ModelAbortedError);
    expect(model.aborted).toBe(4);
    expect(model.calls).toHaveLength(4);
    expect(model.calls.every((c) => c.hadSignal)).toBe(true);
  });

  it("an already aborted signal makes no model call", async () => {
    const catalog = await budgetCatalog();
    const model = new ScriptedChatModel({ responder: () => scoreAnswer(0.8) });
    const error = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model),
      signal: AbortSignal.abort(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelAbortedError);
    expect(model.calls).toHaveLength(0);
  });
});

async function traceLines(path: string): Promise<Trace[]> {
  const text = await readFile(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .trimEnd()
    .split("\n")
    .map((line) => TraceSchema.parse(JSON.parse(line)));
}

describe("traceFile", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "evalgate-engine-traces-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("appends one JSONL line per model call, each a valid trace", async () => {
    const catalog = await budgetCatalog();
    const traceFile = join(dir, "nested", "run", "traces.jsonl");
    const model = new ScriptedChatModel({ responder: answerByTitle(budgetAnswersAll(0.8)) });
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model),
      traceFile,
    });

    const lines = await traceLines(traceFile);
    // Five criteria and the injection guard's call.
    expect(lines).toHaveLength(6);
    expect(lines.filter((t) => t.purpose === "guard")).toHaveLength(1);
    expect(lines).toEqual(expect.arrayContaining(result.traces));
    expect(new Set(lines.map((t) => t.id)).size).toBe(6);

    // A second evaluation appends to the same file.
    const again = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(new ScriptedChatModel({ responder: answerByTitle(budgetAnswersAll(0.7)) })),
      traceFile,
    });
    const all = await traceLines(traceFile);
    expect(all).toHaveLength(12);
    expect(all.slice(0, 6)).toEqual(lines);
    expect(all.slice(6)).toEqual(expect.arrayContaining(again.traces));
  });

  it("records failed calls too, before EvaluationModelError is thrown", async () => {
    const catalog = await budgetCatalog();
    const traceFile = join(dir, "failed.jsonl");
    const model = new ScriptedChatModel({
      responder: () => {
        throw new ModelUnavailableError("server-error", "boom", { provider: "scripted" });
      },
    });
    await expect(
      evaluateContent({ content: BUDGET_CONTENT, catalog, model: judgeOf(model), traceFile }),
    ).rejects.toBeInstanceOf(EvaluationModelError);
    // Every criterion's call failed; the injection guard's answered.
    const lines = (await traceLines(traceFile)).filter((t) => t.purpose !== "guard");
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line.error).toMatch(/^ModelUnavailableError/);
  });

  it("has written every trace by the time an aborted evaluation rejects", async () => {
    const catalog = await budgetCatalog();
    const traceFile = join(dir, "aborted.jsonl");
    // The first call answers once released; the other four stay held until the abort.
    const model = new ScriptedChatModel({ hold: true, responder: () => scoreAnswer(0.8) });
    const controller = new AbortController();
    let firstDone: () => void = () => {};
    const firstAnswerIn = new Promise<void>((resolve) => {
      firstDone = resolve;
    });
    const evaluation = evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model),
      traceFile,
      concurrency: 5,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.type === "criterion_done") firstDone();
      },
    }).catch((e: unknown) => e);
    await model.waitFor((m) => m.held === 5);
    model.release(1);
    await firstAnswerIn;
    controller.abort();
    expect(await evaluation).toBeInstanceOf(ModelAbortedError);
    // The criteria's calls (the injection guard's answered before, not held).
    const lines = (await traceLines(traceFile)).filter((t) => t.purpose !== "guard");
    expect(model.calls).toHaveLength(5);
    expect(model.aborted).toBe(4);
    expect(lines).toHaveLength(5);
    expect(lines.filter((t) => t.error?.startsWith("ModelAbortedError"))).toHaveLength(4);
  });
});

const SUMMARY =
  "The budget is exact and within the funder's rules. Add the calculation basis for equipment.";

/** Criterion prompts answered by title; the summary prompt by `summary`. */
function withSummary(summary: () => string): ScriptedResponder {
  const criteria = answerByTitle(budgetAnswersAll(0.8));
  return (messages, n) =>
    systemPromptOf(messages) === SUMMARY_SYSTEM ? summary() : criteria(messages, n);
}

describe('summary: "model"', () => {
  it("asks the model for the feedback, traced with purpose summary, from the results TOON", async () => {
    const catalog = await budgetCatalog();
    const model = new ScriptedChatModel({ responder: withSummary(() => SUMMARY) });
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model),
      summary: "model",
    });

    expect(model.calls).toHaveLength(6);
    expect(result.feedback).toBe(SUMMARY);
    const summaries = result.traces.filter((t) => t.purpose === "summary");
    expect(summaries).toHaveLength(1);
    const [trace] = summaries;
    expect(trace?.criterionIds).toEqual([]);
    expect(trace?.systemPrompt).toBe(SUMMARY_SYSTEM);
    expect(trace?.rawResponse).toBe(SUMMARY);
    expect(trace?.userPrompt).toContain(encodeResultsToon(result));
    expect(trace?.userPrompt).toContain('criteria catalog "Budget Section"');
    for (const strength of result.strengths) expect(trace?.userPrompt).toContain(strength);
    // The summary call's tokens are part of the usage.
    const total = result.traces.reduce((acc, t) => acc + t.usage.totalTokens, 0);
    expect(result.usage.totalTokens).toBe(total);
    expect(trace?.usage.totalTokens).toBeGreaterThan(0);
  });

  it("keeps the deterministic feedback, with a warning, when the summary call fails", async () => {
    const catalog = await budgetCatalog();
    const deterministic = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(new ScriptedChatModel({ responder: withSummary(() => SUMMARY) })),
    });

    const model = new ScriptedChatModel({
      responder: withSummary(() => {
        throw new ModelUnavailableError("server-error", "summary model crashed", {
          provider: "scripted",
        });
      }),
    });
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model),
      summary: "model",
    });
    expect(result.feedback).toBe(deterministic.feedback);
    expect(result.feedback).toContain("Evaluation PASSED for catalog 'Budget Section'.");
    const warning = result.warnings.find((w) => w.startsWith("summary:"));
    // The model's error text is the administrators': in the trace, not in the warning.
    expect(warning).toBe(
      "summary: the model call failed (MODEL_UNAVAILABLE); the deterministic one is kept",
    );
    const trace = result.traces.find((t) => t.purpose === "summary");
    expect(trace?.error).toMatch(/^ModelUnavailableError/);
    expect(trace?.error).toContain("summary model crashed");
    expect(result.passed).toBe(true);
  });

  it("keeps the deterministic feedback when the summary is empty", async () => {
    const catalog = await budgetCatalog();
    const model = new ScriptedChatModel({ responder: withSummary(() => "   ") });
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model),
      summary: "model",
    });
    expect(result.feedback).toMatch(/^Evaluation PASSED/);
    expect(result.warnings.some((w) => w.startsWith("summary:"))).toBe(true);
  });

  it('is not asked for with the default summary "deterministic"', async () => {
    const catalog = await budgetCatalog();
    const model = new ScriptedChatModel({ responder: withSummary(() => SUMMARY) });
    const result = await evaluateContent({
      content: BUDGET_CONTENT,
      catalog,
      model: judgeOf(model),
    });
    expect(model.calls).toHaveLength(5);
    expect(result.traces.some((t) => t.purpose === "summary")).toBe(false);
    expect(result.feedback).toMatch(/^Evaluation PASSED/);
  });
});

async function rejection(options: Partial<EvaluateContentOptions>): Promise<unknown> {
  const model = new ScriptedChatModel({ responder: () => scoreAnswer(0.8) });
  const error = await evaluateContent({
    content: "Budget: 50,000 EUR.",
    catalog: await budgetCatalog(),
    model: judgeOf(model),
    ...options,
  } as EvaluateContentOptions).catch((e: unknown) => e);
  expect(model.calls).toHaveLength(0);
  return error;
}

describe("invalid evaluation input", () => {
  it.each([
    ["concurrency 0", { concurrency: 0 }, /concurrency/],
    ["a fractional concurrency", { concurrency: 1.5 }, /concurrency/],
    ['mode "fast"', { mode: "fast" }, /mode/],
    ['summary "llm"', { summary: "llm" }, /summary/],
    ["a negative timeout", { timeoutMs: -1 }, /timeoutMs/],
    ["a timeout no timer can wait", { timeoutMs: 2 ** 31 }, /timeoutMs/],
    ["contextChunks 0", { contextChunks: 0 }, /contextChunks/],
  ])("%s is an EvaluationError of kind input", async (_what, options, field) => {
    const error = await rejection(options as Partial<EvaluateContentOptions>);
    expect(error).toBeInstanceOf(EvaluationError);
    if (!(error instanceof EvaluationError)) return;
    expect(error.kind).toBe("input");
    expect(error.name).toBe("EvaluationError");
    expect(error.message).toMatch(/^invalid evaluation options:\n✖ /);
    expect(error.message).toMatch(field);
  });

  it.each([
    ["undefined", undefined],
    ["null", null],
  ])("content %s is an EvaluationError of kind input", async (_what, content) => {
    const error = await rejection({ content });
    expect(error).toBeInstanceOf(EvaluationError);
    expect(error).toMatchObject({ kind: "input" });
    expect((error as Error).message).toMatch(/no content to evaluate/);
  });

  it("a function as content is an EvaluationError of kind input", async () => {
    const error = await rejection({ content: () => "text" });
    expect(error).toBeInstanceOf(EvaluationError);
    expect((error as Error).message).toMatch(/must be text or JSON data, got a function/);
  });

  it("valid options with defaults evaluate", async () => {
    const model = new ScriptedChatModel({ responder: () => scoreAnswer(0.8) });
    const result = await evaluateContent({
      content: "Budget: 50,000 EUR.",
      catalog: await budgetCatalog(),
      model: judgeOf(model),
      evaluator: "budget-gate",
    });
    expect(result.evaluator).toBe("budget-gate");
    expect(model.calls).toHaveLength(5);
  });
});

/** Content with what a careless renderer would change: runs of blank lines, trailing spaces. */
const PROMPT_CONTENT =
  "Budget overview  \n\n\n\nPersonnel: 36,000 EUR.\n\n\n\tEquipment: 10,000 EUR.";

describe("what the judge is sent", () => {
  it("the content reaches the judge unchanged, fenced, per criterion and in batch mode", async () => {
    const catalog = await ifbCatalog();
    const fenced = fenceData("CONTENT", PROMPT_CONTENT);

    const single = new ScriptedChatModel({
      responder: answerByTitle({
        "Hamburg Base": checkAnswer("pass", "ok"),
        Innovation: scoreAnswer(3),
        Market: scoreAnswer(3),
      }),
    });
    await evaluateContent({ content: PROMPT_CONTENT, catalog, model: judgeOf(single) });
    for (const call of single.calls) expect(userPromptOf(call.messages)).toContain(fenced);

    const table = 'results[3]{id,score,reasoning}:\n  c1,pass,"ok"\n  c2,3,"ok"\n  c3,3,"ok"';
    const batch = new ScriptedChatModel({ script: [table] });
    await evaluateContent({
      content: PROMPT_CONTENT,
      catalog,
      model: judgeOf(batch),
      mode: "batch",
    });
    expect(userPromptOf(batch.calls[0]!.messages)).toContain(fenced);
  });

  it("adds the content type's guidance and the catalog's instructions to the system prompt", async () => {
    const catalog = { ...(await budgetCatalog()), instructions: "Amounts are in euro." };
    const model = new ScriptedChatModel({ responder: answerByTitle(budgetAnswersAll(0.8)) });
    await evaluateContent({
      content: PROMPT_CONTENT,
      catalog,
      model: judgeOf(model),
      contentType: "budget",
    });
    const guidance = contentTypePrompt("budget")?.guidance;
    expect(guidance).toBeDefined();
    for (const call of model.calls) {
      const system = systemPromptOf(call.messages);
      expect(system).toContain(guidance ?? "");
      expect(system).toContain("Amounts are in euro.");
    }
  });

  it("a caller's evaluationPrompt replaces the instructions but keeps the answer contract", async () => {
    const catalog = catalogOf({
      id: "one",
      name: "One criterion",
      version: "1",
      criteria: [
        {
          id: "clarity",
          title: "Clarity",
          description: "Is the text clear?",
          weight: 1,
          method: { kind: "score", scale: { min: 0, max: 1 } },
        },
      ],
    });
    const model = new ScriptedChatModel({ responder: () => scoreAnswer(0.9, "Clear.") });
    const result = await evaluateContent({
      content: "A clear text.",
      catalog,
      model: judgeOf(model),
      evaluationPrompt: "Reviewer checklist for {{criterion_title}}:\n{{content}}",
    });
    const prompt = userPromptOf(model.calls[0]!.messages);
    expect(prompt.startsWith("Reviewer checklist for Clarity:")).toBe(true);
    expect(prompt).toContain(fenceData("CONTENT", "A clear text."));
    expect(prompt).toContain('"score" is a JSON number');
    expect(result.scores).toEqual({ clarity: 0.9 });
  });
});
