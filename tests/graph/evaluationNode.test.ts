import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LangGraphRunnableConfig, MemorySaver, START } from "@langchain/langgraph";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { GraphError } from "../../src/graph/errors.js";
import {
  createEvaluationNode,
  type EvaluationNodeOptions,
} from "../../src/graph/evaluationNode.js";
import { addEvaluationStage, createProposalBuilder } from "../../src/graph/evaluationStage.js";
import { sectionStage } from "../../src/graph/stages.js";
import {
  type EvaluationContext,
  mergeSections,
  type OverallProposalStateType,
} from "../../src/graph/state.js";
import { type OllamaServer, ScriptedChatModel, startOllamaServer } from "../doubles/index.js";
import { judgeResponder, scoringJudge } from "./helpers.js";
import { lastUser } from "./proposalHarness.js";

const RESEARCH = { funder: "Calder Bay Community Foundation", priorities: ["flood resilience"] };
const STATEMENT = "Flooding displaced 1,240 Calder Bay households in 2024 (County report, p. 4).";

/** A proposal state as the graph would hand it to a node: the defaults plus what is given. */
function stateWith(values: Partial<OverallProposalStateType>): OverallProposalStateType {
  const defaults: Partial<OverallProposalStateType> = {
    researchStatus: "not_started",
    solutionSoughtStatus: "not_started",
    connectionPairsStatus: "not_started",
    sections: {},
    isInterrupted: false,
    revisionCounts: {},
    revisionFeedback: {},
    reviewHistory: [],
    messages: [],
    errors: [],
  };
  return { ...defaults, ...values } as OverallProposalStateType;
}

const researchState = () =>
  stateWith({ researchResults: RESEARCH, researchStatus: "completed", applicantInput: STATEMENT });

function researchNode(options: Partial<EvaluationNodeOptions> = {}) {
  return createEvaluationNode({
    contentType: "research",
    criteriaPath: "research.json",
    contentExtractor: (s) => s.researchResults,
    resultField: "researchEvaluation",
    statusField: "researchStatus",
    ...options,
  });
}

const withContext = (context: EvaluationContext): LangGraphRunnableConfig =>
  ({ context }) as LangGraphRunnableConfig;

describe("createEvaluationNode options", () => {
  it("contentExtractor: judges what it returns, not the stage's usual field", async () => {
    const model = scoringJudge();
    const node = researchNode({ model, contentExtractor: (s) => s.applicantInput });
    const update = await node(researchState());
    expect(model.calls).toHaveLength(5);
    for (const call of model.calls) {
      expect(lastUser(call)).toContain(STATEMENT);
      expect(lastUser(call)).not.toContain("Calder Bay Community Foundation");
    }
    expect(update.researchStatus).toBe("awaiting_review");
  });

  it("contentExtractor returning nothing: an input error, no model call", async () => {
    const model = scoringJudge();
    const update = await researchNode({ model, contentExtractor: () => ({}) })(researchState());
    expect(model.calls).toHaveLength(0);
    expect(update.researchStatus).toBe("error");
    expect(update.errors).toEqual([
      "[evaluate research] invalid input: the content is an empty object [EVALUATION_FAILED]",
    ]);
    expect(update.interruptMetadata?.type).toBe("evaluation_error");
    expect(update.researchEvaluation).toBeUndefined();

    // Missing and malformed content are input errors too.
    const missing = await researchNode({ model, contentExtractor: () => undefined })(
      researchState(),
    );
    expect(missing.errors?.[0]).toContain("there is no content to evaluate");
    const malformed = await researchNode({ model, contentExtractor: () => 42 })(researchState());
    expect(malformed.errors?.[0]).toContain("the content is a number, not text or structured data");
    expect(malformed.messages?.[0]?.text).toBe(
      "The Research could not be evaluated: the content is a number, not text or structured data.",
    );
    expect(model.calls).toHaveLength(0);
  });

  describe("criteriaPath", () => {
    const dir = mkdtempSync(join(tmpdir(), "evalgate-node-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("a JSON file by name (from the criteria folder) or by absolute path", async () => {
      const model = scoringJudge();
      const byName = await researchNode({ model, criteriaPath: "budget.json" })(researchState());
      expect(byName.researchEvaluation?.catalog?.id).toBe("budget");

      const file = join(dir, "two.json");
      writeFileSync(
        file,
        JSON.stringify({
          id: "two_criteria",
          name: "Two criteria",
          version: "1.0.0",
          criteria: [
            { id: "a", name: "Funder named", description: "Is the funder named?", weight: 0.5 },
            { id: "b", name: "Priorities", description: "Are the priorities listed?", weight: 0.5 },
          ],
        }),
      );
      const before = model.calls.length;
      const byPath = await researchNode({ model, criteriaPath: file })(researchState());
      expect(model.calls.length - before).toBe(2);
      expect(byPath.researchEvaluation?.catalog?.id).toBe("two_criteria");
      expect(Object.keys(byPath.researchEvaluation?.scores ?? {}).sort()).toEqual(["a", "b"]);
    });

    it("a score just under the passing threshold is never said with the threshold's percent", async () => {
      const file = join(dir, "one.json");
      const criterion = {
        id: "a",
        name: "Funder named",
        description: "Is the funder named?",
        weight: 1,
      };
      writeFileSync(
        file,
        JSON.stringify({ id: "one", name: "One", version: "1", criteria: [criterion] }),
      );
      // One criterion, weight 1: the overall score is its score, 0.7995, under 0.8 (79.95%).
      const model = scoringJudge(0.7995);
      const node = researchNode({ model, criteriaPath: file, passingThreshold: 0.8 });
      const update = await node(researchState());
      expect(update.researchEvaluation?.overallScore).toBeCloseTo(0.7995, 10);
      expect(update.researchEvaluation?.passed).toBe(false);
      expect(update.messages?.[0]?.text).toMatch(
        /^Research evaluated: did not pass with 79% \(\w+\)\. Awaiting review\.$/,
      );
    });

    it("a TOON criteria dialect catalog (data/criteria/ifb_profi.toon): funding status from its rules", async () => {
      const scores: Record<string, number> = { Innovation: 4, Market: 3 };
      const model = new ScriptedChatModel({
        responder: (messages) => {
          const user = messages.at(-1)?.content ?? "";
          if (user.includes("Requirement: Hamburg Base")) {
            return JSON.stringify({ reasoning: "Registered in Hamburg.", result: "pass" });
          }
          const title = /Criterion: (\w+)/.exec(user)?.[1] ?? "";
          return JSON.stringify({
            reasoning: `${title} judged.`,
            score: scores[title],
            hits: [],
            misses: [],
          });
        },
      });
      const node = researchNode({
        model,
        contentType: "application",
        criteriaPath: "data/criteria/ifb_profi.toon",
        contentExtractor: (s) => s.applicantInput,
      });
      const update = await node(researchState());
      expect(model.calls).toHaveLength(3);
      const result = update.researchEvaluation;
      expect(result?.catalog?.id).toBe("ifb_profi");
      expect(result?.nativeTotal).toBeCloseTo(3.4, 5); // 4·0.4 + 3·0.6
      expect(result?.status).toBe("REVIEW_REQUIRED");
      expect(result?.passed).toBe(false);
      expect(update.messages?.[0]?.text).toContain("REVIEW_REQUIRED");

      scores.Innovation = 5;
      scores.Market = 4;
      const fundable = (await node(researchState())).researchEvaluation;
      expect(fundable?.status).toBe("FUNDABLE");
      expect(fundable?.passed).toBe(true);
    });
  });

  it("evaluationPrompt: the caller's template reaches every judge prompt", async () => {
    const model = scoringJudge();
    const template =
      "Calder Bay panel rubric. Judge only: {{criterion_title}}.\n\n{{content}}\n\n{{answer_format}}";
    await researchNode({ model, evaluationPrompt: template })(researchState());
    expect(model.calls).toHaveLength(5);
    const titles = model.calls.map(
      (c) => /^Calder Bay panel rubric\. Judge only: (.+)\.$/m.exec(lastUser(c))?.[1],
    );
    expect(titles.every((t) => t !== undefined && t.length > 0)).toBe(true);
    expect(new Set(titles).size).toBe(5);
    for (const call of model.calls) {
      expect(lastUser(call)).toContain('"funder": "Calder Bay Community Foundation"');
      expect(lastUser(call)).toContain('"reasoning"'); // the answer contract is kept
    }
    // Without the option, the built-in template is used.
    const plain = scoringJudge();
    await researchNode({ model: plain })(researchState());
    expect(plain.calls.some((c) => lastUser(c).includes("Calder Bay panel rubric"))).toBe(false);
  });

  describe("resultField / statusField inside a section", () => {
    it("the node returns a nested sections update (no dotted key)", async () => {
      const model = scoringJudge();
      const node = createEvaluationNode({
        contentType: "problem_statement",
        criteriaPath: "problem_statement.json",
        contentExtractor: (s) => s.sections.problem_statement?.content,
        resultField: "sections.problem_statement.evaluation",
        statusField: "sections.problem_statement.status",
        model,
      });
      const state = stateWith({
        sections: {
          problem_statement: { id: "problem_statement", content: STATEMENT, status: "completed" },
        },
      });
      const update = await node(state);
      expect(Object.keys(update).filter((k) => k.includes("."))).toEqual([]);
      expect(Object.keys(update.sections ?? {})).toEqual(["problem_statement"]);
      const patch = update.sections?.problem_statement;
      expect(patch?.status).toBe("awaiting_review");
      expect(patch?.evaluation?.catalog?.id).toBe("problem_statement");
      expect(patch).not.toHaveProperty("content");
      const merged = mergeSections(state.sections, update.sections ?? {});
      expect(merged.problem_statement).toMatchObject({
        id: "problem_statement",
        content: STATEMENT,
        status: "awaiting_review",
      });
    });

    it("in a graph, the section keeps its content and gains the evaluation and status", async () => {
      const stage = sectionStage("problem_statement", "Problem Statement");
      const builder = createProposalBuilder();
      const names = addEvaluationStage(builder, {
        stage,
        stages: [stage],
        evaluation: { model: scoringJudge() },
      });
      builder.addEdge(START, names.startEvaluate as never);
      const graph = builder.compile({ checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: "section-fields" } };
      await graph.invoke(
        {
          rfpDocument: "Climate Resilience Fund 2025.",
          sections: {
            problem_statement: { id: "problem_statement", content: STATEMENT, status: "completed" },
          },
        },
        config,
      );
      const { values } = await graph.getState(config);
      expect(Object.keys(values).filter((k) => k.includes("."))).toEqual([]);
      expect(values.sections.problem_statement).toMatchObject({
        content: STATEMENT,
        status: "awaiting_review",
        evaluation: { passed: true },
      });
    });

    it("a field the state does not have is refused when the node is built", () => {
      const build = (resultField: string) => () =>
        researchNode({ resultField, model: scoringJudge() });
      expect(build("sections.problem_statement.score")).toThrow(GraphError);
      expect(build("reseachEvaluation")).toThrow(/state field "reseachEvaluation"/);
      expect(build("sections..evaluation")).toThrow(/state field "sections..evaluation"/);
    });
  });

  it("passingThreshold: the option overrides the catalog's; the run context's wins over both", async () => {
    const model = scoringJudge(0.85); // every criterion 0.85
    const defaultThreshold = await researchNode({ model })(researchState());
    expect(defaultThreshold.researchEvaluation?.passed).toBe(true);

    const strict = researchNode({ model, passingThreshold: 0.9 });
    const failed = await strict(researchState());
    expect(failed.researchEvaluation?.overallScore).toBeCloseTo(0.85, 5);
    expect(failed.researchEvaluation?.passed).toBe(false);
    expect(failed.researchStatus).toBe("awaiting_review");

    const lenient = await strict(
      researchState(),
      withContext({
        passingThreshold: 0.8,
        model: undefined,
        maxRevisions: undefined,
        mode: undefined,
      }),
    );
    expect(lenient.researchEvaluation?.passed).toBe(true);
    const stricter = await researchNode({ model })(
      researchState(),
      withContext({
        passingThreshold: 0.95,
        model: undefined,
        maxRevisions: undefined,
        mode: undefined,
      }),
    );
    expect(stricter.researchEvaluation?.passed).toBe(false);
  });

  describe("modelName and an injected model", () => {
    let server: OllamaServer | undefined;
    afterEach(async () => {
      vi.unstubAllEnvs();
      await server?.close();
      server = undefined;
    });

    it("modelName picks the judge on Ollama (default EVALGATE_MODEL); the run context's model wins over it; an injected model wins over both", async () => {
      server = await startOllamaServer({
        models: ["judge-a:1b", "judge-b:1b"],
        responder: () =>
          JSON.stringify({ reasoning: "Sourced and specific.", score: 0.9, hits: [], misses: [] }),
      });
      vi.stubEnv("OLLAMA_BASE_URL", server.url);

      const byName = await researchNode({ modelName: "ollama:judge-a:1b" })(researchState());
      expect(byName.researchEvaluation?.model).toBe("ollama:judge-a:1b");
      expect(server.chatRequests().map((r) => r.model)).toEqual(Array(5).fill("judge-a:1b"));

      const byContext = await researchNode({ modelName: "ollama:judge-a:1b" })(
        researchState(),
        withContext({
          model: "ollama:judge-b:1b",
          passingThreshold: undefined,
          maxRevisions: undefined,
          mode: undefined,
        }),
      );
      expect(byContext.researchEvaluation?.model).toBe("ollama:judge-b:1b");
      expect(
        server
          .chatRequests()
          .slice(5)
          .map((r) => r.model),
      ).toEqual(Array(5).fill("judge-b:1b"));

      // Neither: EVALGATE_MODEL on Ollama.
      vi.stubEnv("EVALGATE_MODEL", "judge-b:1b");
      const byDefault = await researchNode()(researchState());
      expect(byDefault.researchEvaluation?.model).toBe("ollama:judge-b:1b");
      expect(server.chatRequests()).toHaveLength(15);

      const injected = new ScriptedChatModel({ responder: judgeResponder(), model: "injected" });
      const byInjection = await researchNode({ modelName: "ollama:judge-a:1b", model: injected })(
        researchState(),
        withContext({
          model: "ollama:judge-b:1b",
          passingThreshold: undefined,
          maxRevisions: undefined,
          mode: undefined,
        }),
      );
      expect(injected.calls).toHaveLength(5);
      expect(server.chatRequests()).toHaveLength(15);
      expect(byInjection.researchEvaluation?.passed).toBe(true);
    });
  });

  describe("customValidator", () => {
    it("a rejection fails the result and says why; an acceptance leaves it as judged", async () => {
      const model = scoringJudge();
      const seen: unknown[] = [];
      const rejected = await researchNode({
        model,
        customValidator: (result, state) => {
          seen.push(state.researchResults);
          return { valid: result.overallScore > 0.9, reason: "the panel requires 90%" };
        },
      })(researchState());
      expect(seen).toEqual([RESEARCH]);
      expect(rejected.researchEvaluation?.passed).toBe(false);
      expect(rejected.researchEvaluation?.warnings).toContain(
        "the custom validator rejected the result: the panel requires 90%",
      );
      expect(rejected.researchStatus).toBe("awaiting_review");
      expect(rejected.messages?.[0]?.text).toContain("did not pass");
      // Every field says the same: a rejected result is a fail, and its summary says why.
      expect(rejected.researchEvaluation?.verdict).toBe("fail");
      expect(rejected.messages?.[0]?.text).toContain("(fail");
      expect(rejected.researchEvaluation?.feedback).toMatch(/^Evaluation FAILED/);
      expect(rejected.researchEvaluation?.feedback).toContain(
        "Rejected by the custom validator: the panel requires 90%",
      );
      expect(rejected.researchEvaluation?.validatorRejection).toBe("the panel requires 90%");

      const bare = await researchNode({ model, customValidator: async () => false })(
        researchState(),
      );
      expect(bare.researchEvaluation?.passed).toBe(false);
      expect(bare.researchEvaluation?.warnings).toContain(
        "the custom validator rejected the result",
      );

      const accepted = await researchNode({ model, customValidator: () => true })(researchState());
      expect(accepted.researchEvaluation?.passed).toBe(true);
      expect(accepted.researchEvaluation?.feedback).toMatch(/^Evaluation PASSED/);
      expect(accepted.researchEvaluation?.validatorRejection).toBeUndefined();
      expect(
        accepted.researchEvaluation?.warnings.some((w) => w.includes("custom validator")),
      ).toBe(false);
    });
  });

  it("reports evaluating and the criterion progress through the stream writer", async () => {
    const events: Array<Record<string, unknown>> = [];
    const config = {
      writer: (e: Record<string, unknown>) => events.push(e),
    } as LangGraphRunnableConfig;
    await researchNode({ model: scoringJudge() })(researchState(), config);
    expect(events[0]).toEqual({
      type: "status",
      contentId: "research",
      contentType: "research",
      status: "evaluating",
    });
    expect(events.filter((e) => e.type === "criterion_done")).toHaveLength(5);
    expect(events.at(-1)).toMatchObject({ type: "done", passed: true, contentId: "research" });
  });
});
