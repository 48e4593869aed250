/**
 * The evaluation node's `fewShot` option: the engine's option is passed as it is; `enabled:
 * "catalog"` asks the stage's catalog, and a catalog that does not turn examples on leaves the
 * source unread. The gate graph takes the option too, and its checkpoints hold the examples the
 * result names but nothing of the source.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import type { EvaluationFewShot } from "../../src/graph/evaluationNode.js";
import { createEvaluationNode } from "../../src/graph/evaluationNode.js";
import type { OverallProposalStateType } from "../../src/graph/state.js";
import type { ExampleQuery, ExampleSource } from "../../src/judge/exampleSource.js";
import { inMemoryExampleSource } from "../../src/judge/exampleSource.js";
import { EvaluationResultSchema } from "../../src/scoring/result.js";
import { scoringJudge } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "evalgate-node-fewshot-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function catalogFile(name: string, fewShot?: { enabled: boolean }): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      id: name.replace(".json", ""),
      name: "Budget plan",
      version: "1",
      ...(fewShot === undefined ? {} : { fewShot }),
      criteria: [
        {
          id: "costs_itemised",
          title: "Costs itemised",
          description: "Is every cost line itemised with a unit price?",
          weight: 1,
          method: { kind: "score", scale: { min: 0, max: 1 } },
        },
      ],
    }),
  );
  return path;
}

const ON = catalogFile("budget-on.json", { enabled: true });
const SILENT = catalogFile("budget-silent.json");

const EXCERPT = "Ferry tickets 9,000 EUR lump sum, no quantities given.";

/** One correction, and every query the node made of it. */
function countedSource(): { source: ExampleSource; asked: ExampleQuery[] } {
  const inner = inMemoryExampleSource([
    {
      labelId: "dec7#costs_itemised",
      criterionId: "costs_itemised",
      contentType: "budget",
      decidedAt: "2026-03-02T08:00:00Z",
      excerpt: EXCERPT,
      judgeValue: 0.9,
      correctedValue: 0.2,
      note: "lump sums are not itemised",
    },
  ]);
  const asked: ExampleQuery[] = [];
  return {
    asked,
    source: {
      examples(query) {
        asked.push(query);
        return inner.examples(query);
      },
    },
  };
}

const CONTENT = "Ferry tickets: 30 × 300 EUR. Lodging: 12 nights × 80 EUR.";

async function judgeBudget(criteriaPath: string, fewShot: (s: ExampleSource) => EvaluationFewShot) {
  const model = scoringJudge();
  const counted = countedSource();
  const node = createEvaluationNode({
    contentType: "budget",
    criteriaPath,
    contentExtractor: (s) => s.applicantInput,
    resultField: "researchEvaluation",
    statusField: "researchStatus",
    model,
    traces: "inline",
    cache: false, // every run asks the judge: the prompts it is shown are what is checked
    fewShot: fewShot(counted.source),
  });
  const state = { applicantInput: CONTENT, errors: [], messages: [] };
  const update = await node(state as unknown as OverallProposalStateType);
  const result = EvaluationResultSchema.parse(update.researchEvaluation);
  const prompts = model.calls.map((call) => call.messages.at(-1)?.content ?? "");
  return { result, prompts, asked: counted.asked };
}

describe("createEvaluationNode fewShot", () => {
  it('"catalog": a catalog that turns examples on gets them, named in the result', async () => {
    const { result, prompts, asked } = await judgeBudget(ON, (source) => ({
      source,
      enabled: "catalog",
    }));
    expect(asked.map((q) => [q.criterionId, q.contentType])).toEqual([
      ["costs_itemised", "budget"],
    ]);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain(EXCERPT);
    expect(prompts[0]).toContain("lump sums are not itemised");
    expect(result.fewShotExamples).toEqual({ costs_itemised: ["dec7#costs_itemised"] });
  });

  it('"catalog": a catalog that does not say leaves the source unread and the prompt bare', async () => {
    const { result, prompts, asked } = await judgeBudget(SILENT, (source) => ({
      source,
      enabled: "catalog",
    }));
    expect(asked).toEqual([]);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).not.toContain(EXCERPT);
    expect(result.fewShotExamples).toBeUndefined();
  });

  it("true turns them on for a silent catalog; false keeps them off for one that asks", async () => {
    const on = await judgeBudget(SILENT, (source) => ({ source, enabled: true }));
    expect(on.prompts[0]).toContain(EXCERPT);
    expect(on.result.fewShotExamples).toEqual({ costs_itemised: ["dec7#costs_itemised"] });
    const off = await judgeBudget(ON, (source) => ({ source, enabled: false }));
    expect(off.asked).toEqual([]);
    expect(off.prompts[0]).not.toContain(EXCERPT);
    expect(off.result.fewShotExamples).toBeUndefined();
  });
});

describe("createEvaluationNode fewShot: corrections that name no content type", () => {
  it("holds for the node's content type too (they were left out before)", async () => {
    const untyped = inMemoryExampleSource([
      {
        labelId: "dec9#costs_itemised",
        criterionId: "costs_itemised",
        decidedAt: "2026-03-02T08:00:00Z",
        excerpt: EXCERPT,
        judgeValue: 0.9,
        correctedValue: 0.2,
        note: "lump sums are not itemised",
      },
    ]);
    const { result, prompts } = await judgeBudget(SILENT, () => ({
      source: untyped,
      enabled: true,
    }));
    expect(prompts[0]).toContain(EXCERPT);
    expect(result.fewShotExamples).toEqual({ costs_itemised: ["dec9#costs_itemised"] });
  });

  it("a correction of another content type is not shown", async () => {
    const other = inMemoryExampleSource([
      {
        labelId: "dec8#costs_itemised",
        criterionId: "costs_itemised",
        contentType: "timeline",
        decidedAt: "2026-03-02T08:00:00Z",
        excerpt: EXCERPT,
        judgeValue: 0.9,
        correctedValue: 0.2,
      },
    ]);
    const { result, prompts } = await judgeBudget(SILENT, () => ({ source: other, enabled: true }));
    expect(prompts[0]).not.toContain(EXCERPT);
    expect(result.fewShotExamples).toBeUndefined();
  });
});

describe("buildEvaluationGraph fewShot", () => {
  it("judges with the examples, and keeps no part of the source in the checkpoint", async () => {
    const model = scoringJudge();
    const counted = countedSource();
    const saver = new MemorySaver();
    const gate = buildEvaluationGraph({
      model,
      cache: false, // every run asks the judge: the prompts it is shown are what is checked
      traces: "inline",
      criteriaPath: ON,
      fewShot: { source: counted.source, enabled: "catalog" },
    }).compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "fewshot-gate" } };
    await gate.invoke({ content: CONTENT, contentType: "budget" }, config);
    const state = await gate.getState(config);
    const result = EvaluationResultSchema.parse(state.values.evaluation);
    expect(result.fewShotExamples).toEqual({ costs_itemised: ["dec7#costs_itemised"] });
    expect(counted.asked).toHaveLength(1);
    // The checkpoint's own fields: no source object, no few-shot option in the state.
    expect(Object.keys(state.values)).not.toContain("fewShot");
    expect(JSON.stringify(state.config)).not.toContain("examples");
  });
});
