import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { END, START, StateGraph } from "@langchain/langgraph";
import { afterEach, beforeEach } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { createEvaluationNode } from "../../src/graph/evaluationNode.js";
import { createReviewNode } from "../../src/graph/reviewNode.js";
import { RESEARCH_STAGE } from "../../src/graph/stages.js";
import { OverallProposalState } from "../../src/graph/state.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { scoringJudge } from "../graph/helpers.js";

export const PROBLEM =
  "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";

/** The problem_statement catalog has five criteria: one judge call each per evaluation. */
export const PROBLEM_CRITERIA = 5;

export const problemInput = { content: PROBLEM, contentType: "problem_statement" };

/** The evaluation gate judged by a counting scripted model. */
export function gate(score = 0.85) {
  const model = scoringJudge(score);
  return { model, graph: buildEvaluationGraph({ model }) };
}

/**
 * A judge that refuses every call (a non-transient HTTP 400, so nothing is retried) while
 * `control.down` is true, and answers like scoringJudge (score 0.85, checks pass) once it is not.
 */
export function switchableJudge() {
  const control = { down: true };
  const model = new ScriptedChatModel({
    responder: (messages) => {
      if (control.down) {
        throw Object.assign(new Error("the judge rejected the request"), { status: 400 });
      }
      const user = messages.at(-1)?.content ?? "";
      if (user.includes('"result"')) {
        return JSON.stringify({ reasoning: "The requirement is met on page 1.", result: "pass" });
      }
      return JSON.stringify({
        reasoning: "Specific, sourced and complete for this criterion.",
        score: 0.85,
        hits: ["clear objectives"],
        misses: [],
      });
    },
  });
  return { model, control };
}

/** A one-stage proposal graph: write research → evaluate → review, judged by scoringJudge. */
export function researchGraph(options: { maxRevisions?: number } = {}) {
  const model = scoringJudge();
  let drafts = 0;
  const graph = new StateGraph(OverallProposalState)
    .addNode("generateResearch", () => {
      drafts += 1;
      return {
        researchResults: {
          summary: `Draft ${drafts}: the RFP funds flood resilience in coastal towns.`,
          sources: ["County report 2024, p. 4"],
        },
        researchStatus: "completed" as const,
      };
    })
    .addNode(
      "evaluateResearch",
      createEvaluationNode({
        contentType: "research",
        contentId: "research",
        title: "Research",
        contentExtractor: (state) => state.researchResults,
        criteriaPath: RESEARCH_STAGE.criteriaPath,
        resultField: RESEARCH_STAGE.resultField,
        statusField: RESEARCH_STAGE.statusField,
        model,
      }),
    )
    .addNode(
      "reviewResearch",
      createReviewNode({
        stage: RESEARCH_STAGE,
        stages: [RESEARCH_STAGE],
        generateNode: "generateResearch",
        evaluateNode: "evaluateResearch",
        reviewNode: "reviewResearch",
        next: () => END,
        maxRevisions: options.maxRevisions,
      }),
      { ends: ["generateResearch", "evaluateResearch", "reviewResearch", END] },
    )
    .addEdge(START, "generateResearch")
    .addEdge("generateResearch", "evaluateResearch")
    .addEdge("evaluateResearch", "reviewResearch");
  return { graph, model };
}

/** A fresh temp dir, and a function removing it. */
export function tempDir(prefix = "evalgate-orchestrator-") {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * For a describe block (call it in the block, before its tests): a SQLite checkpoint file in a
 * fresh folder for each test, and `open`, what the test opened on it: closed, and the folder
 * removed, after the test.
 */
export function checkpointFilePerTest(): {
  readonly sqlitePath: string;
  readonly open: Array<{ close(): Promise<void> }>;
} {
  let temp: ReturnType<typeof tempDir> | undefined;
  const open: Array<{ close(): Promise<void> }> = [];
  beforeEach(() => {
    temp = tempDir();
  });
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
    temp?.remove();
    temp = undefined;
  });
  return {
    get sqlitePath() {
      if (temp === undefined) throw new Error("the checkpoint file is made for each test");
      return join(temp.dir, "checkpoints.sqlite");
    },
    open,
  };
}
