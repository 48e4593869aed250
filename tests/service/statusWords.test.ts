/**
 * The words for ids: every status a stage or a thread can have, every step of the real proposal
 * graph (read from the graph, so a step added later is covered), every review kind and decision,
 * and each kind of progress event — none is shown as a bare id.
 */
import { describe, expect, it } from "vitest";
import { ThreadStatusSchema } from "../../src/desk/answers.js";
import { ProcessingStatusSchema, REVIEW_ACTIONS } from "../../src/graph/model.js";
import { buildProposalGraph, loadProposalConfig } from "../../src/graph/proposalGraph.js";
import { stepsLeft } from "../../src/graph/threadProgress.js";
import {
  decisionName,
  progressText,
  REVIEW_KIND_WORDS,
  reviewKindName,
  STATUS_WORDS,
  stageName,
  statusName,
  stepName,
} from "../../src/service/statusWords.js";
import { ThreadEventSchema } from "../../src/store/threadEvents.js";

/** An id as code writes it: snake_case or camelCase. */
const CODE_ID = /[a-z][A-Z]|_/;

describe("status words", () => {
  it("has words for every stage status and every thread status", () => {
    const ids = [...ProcessingStatusSchema.options, ...ThreadStatusSchema.shape.status.options];
    for (const id of ids) {
      expect(STATUS_WORDS[id], id).toBeDefined();
      expect(statusName(id), id).not.toMatch(CODE_ID);
    }
    expect(statusName("awaiting_review")).toBe("waiting for a reviewer");
    // An id no table knows yet is still shown as words.
    expect(statusName("being_translated")).toBe("being translated");
  });

  it("names every step of the proposal graph in words, with the stage's title", () => {
    const nodes = Object.keys(buildProposalGraph().nodes).filter((n) => !n.startsWith("__"));
    expect(nodes).toContain("startEvaluateSolution");
    for (const node of nodes) {
      const words = stepName(node);
      expect(words, node).not.toMatch(CODE_ID);
      expect(words, node).not.toBe(node);
    }
    // The words of the progress lines: written, judging, judged, decided.
    expect(stepName("startEvaluateSolution")).toBe("Judging Solution Sought");
    expect(stepName("generateProblemStatement")).toBe("Problem Statement written");
    expect(stepName("evaluateConnectionPairs")).toBe("Connection Pairs judged");
    expect(stepName("reviewBudget")).toBe("decision on Budget applied");
    expect(stepName("loadRfp")).toBe("request for proposals read");
  });

  it("names the steps a stopped run has left in words, each once", () => {
    const nodes = Object.keys(buildProposalGraph().nodes).filter((n) => !n.startsWith("__"));
    for (const node of nodes) {
      const words = stepsLeft([node]);
      expect(words, node).not.toMatch(CODE_ID);
      expect(words, node).not.toBe(node);
    }
    expect(stepsLeft(["generateSolution"])).toBe("writing Solution Sought");
    // Both judging steps of a stage read the same: said once.
    expect(stepsLeft(["startEvaluateConnectionPairs", "evaluateConnectionPairs"])).toBe(
      "judging Connection Pairs",
    );
    expect(stepsLeft(["reviewBudget", "loadRfp"])).toBe(
      "the review of Budget, reading the request for proposals",
    );
    // A user's own graph: its node's name as words.
    expect(stepsLeft(["scoreDraft"])).toBe("score draft");
  });

  it("names stages, review kinds and decisions", () => {
    expect(stageName("connection_pairs")).toBe("Connection Pairs");
    // As config/proposal.json titles the sections, one spelling everywhere.
    expect(stageName("problem_statement")).toBe("Problem Statement");
    for (const section of loadProposalConfig()) expect(stageName(section.id)).toBe(section.title);
    expect(stageName("site_visit_plan")).toBe("Site Visit Plan");
    for (const kind of Object.keys(REVIEW_KIND_WORDS)) {
      expect(reviewKindName(kind)).not.toMatch(CODE_ID);
    }
    for (const action of REVIEW_ACTIONS) expect(decisionName(action)).not.toBe(action);
  });

  it("gives each kind of progress event a line without ids, and no error detail", () => {
    // Each type with the message the runner and the store write for it.
    const messages: Record<string, string | undefined> = {
      queued: "started by ana",
      running: undefined,
      stage: "startEvaluateProblemStatement",
      progress: "Judging Problem Statement: 3 of 5 criteria done",
      review_ready: "Problem Statement",
      finished: undefined,
      failed: "THREAD_STATE_INVALID: the checkpoint of problem_statement has work left",
      stopped: "the command running it was stopped; go on with: evalgate run --thread t-1",
    };
    const lines = ThreadEventSchema.shape.type.options.map((type) =>
      progressText({ type, stage: "problem_statement", message: messages[type] }),
    );
    expect(lines).toHaveLength(Object.keys(messages).length);
    for (const line of lines) expect(line).not.toMatch(CODE_ID);
    expect(progressText({ type: "stage", message: "evaluateResearch" })).toBe("Research judged");
    expect(progressText({ type: "progress", stage: "budget", message: "Writing Budget" })).toBe(
      "Writing Budget",
    );
    expect(progressText({ type: "review_ready", stage: "budget", message: "Budget" })).toBe(
      "Budget is ready for review",
    );
    expect(progressText({ type: "queued", stage: "research", message: "ana: revise" })).toBe(
      "ana asked for a revision of Research; waiting to go on",
    );
    const failed = progressText({
      type: "failed",
      message: "GraphRunError: model server http://127.0.0.1:11434 answered 500",
    });
    expect(failed).toBe("Stopped on an error");
    // A run stopped by its process says so and how to go on: never that it is worked on.
    expect(
      progressText({
        type: "stopped",
        message: "the command running it was stopped; go on with: evalgate run --thread t-1",
      }),
    ).toBe(
      "Stopped before it was done (the command running it was stopped; go on with: evalgate run --thread t-1)",
    );
    expect(statusName("stopped")).toBe("stopped before it was done; go on with it to finish");
  });
});
