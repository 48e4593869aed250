import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AIMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import type { DecisionRecord } from "../../src/graph/model.js";
import { PACKAGE_CRITERIA_DIR } from "../../src/graph/proposalConfig.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import {
  ModelContentPolicyError,
  ModelRateLimitError,
  ModelUnavailableError,
} from "../../src/llm/errors.js";
import { type RecordedMessage, ScriptedChatModel } from "../doubles/index.js";
import { judgeResponder, proposalResponder } from "./helpers.js";
import {
  fastJudge,
  input,
  isWriterCall,
  type ProposalRun,
  pending,
  proposalRun,
  type Responder,
  refusedResume,
  resume,
  start,
  switchableResponder,
  values,
  writerPrompts,
} from "./proposalHarness.js";

const WHERE = { provider: "scripted", model: "scripted-judge" };

const lastMessage = async (run: ProposalRun) => {
  const message = (await values(run)).messages.at(-1);
  expect(AIMessage.isInstance(message)).toBe(true);
  return message?.text ?? "";
};

/**
 * Shared by every error path: the stage is in error, the reviewer sees an evaluation_error, a
 * retry while the cause persists fails the same way without a second error entry, and a retry
 * after the cause is fixed evaluates and pauses for the normal review.
 */
async function expectRecoverableEvaluationFailure(
  run: ProposalRun,
  fixCause: () => void,
  expected: { error: RegExp; message: RegExp; judgeCallsPerTry: number },
) {
  const paused = await pending(run);
  expect(paused?.node).toBe("reviewResearch");
  expect(paused?.value).toMatchObject({
    type: "evaluation_error",
    contentId: "research",
    actions: ["retry", "edit", "approve"],
  });
  expect(paused?.value.error).toMatch(expected.error);
  let state = await values(run);
  expect(state.researchStatus).toBe("error");
  expect(state.isInterrupted).toBe(true);
  expect(state.errors).toHaveLength(1);
  expect(state.errors[0]).toMatch(expected.error);
  expect(state.errors[0]).toMatch(/^\[evaluate research\] /);
  expect(await lastMessage(run)).toMatch(expected.message);
  expect(await lastMessage(run)).toContain("resume with retry");

  // Retry while the cause persists: the same failure, still one entry, still paused.
  let before = run.model.calls.length;
  await resume(run, { action: "retry" });
  expect(run.model.calls.length - before).toBe(expected.judgeCallsPerTry);
  expect(run.model.calls.slice(before).some(isWriterCall)).toBe(false);
  state = await values(run);
  expect(state.researchStatus).toBe("error");
  expect(state.errors).toHaveLength(1);
  expect((await pending(run))?.value.type).toBe("evaluation_error");

  // The cause is fixed: a retry evaluates (the judge only) and asks for the normal review.
  fixCause();
  before = run.model.calls.length;
  await resume(run, { action: "retry", reviewer: "ops" });
  expect(run.model.calls.slice(before).some(isWriterCall)).toBe(false);
  expect(run.model.calls.length - before).toBe(5);
  state = await values(run);
  expect(state.researchStatus).toBe("awaiting_review");
  expect(state.researchEvaluation?.passed).toBe(true);
  expect(state.errors).toHaveLength(1); // history kept, nothing added
  expect(state.reviewHistory.map((r: DecisionRecord) => r.action)).toEqual(["retry", "retry"]);
  expect((await pending(run))?.value.type).toBe("evaluation_review");
  await resume(run, { action: "approve" });
  expect((await values(run)).researchStatus).toBe("approved");
  expect(writerPrompts(run.model, "research")).toHaveLength(1); // never rewritten
}

describe("error paths of the evaluation node, each resumed with retry once the cause is gone", () => {
  it("model timeout: status error, an entry naming the timeout, a friendly message; retry recovers", async () => {
    // The writer answers at once; the judge's first ten calls (two tries of five criteria) are
    // held and never released, so only the timeout ends them; after that the responder answers
    // at once (the timeout leaves room for that on a loaded machine).
    const held = { reply: (m: RecordedMessage[]) => judgeResponder()(m), hold: true };
    const model = new ScriptedChatModel({
      script: [(m) => proposalResponder()(m), ...Array.from({ length: 10 }, () => held)],
      responder: proposalResponder(),
    });
    const run = proposalRun({ model, judge: fastJudge(750) });
    await start(run);
    expect(model.aborted).toBe(5); // the first try's calls were cut short by the timeout
    expect(writerPrompts(run.model, "research")).toHaveLength(1);
    const fixCause = () => {
      expect(model.remaining).toBe(0);
      expect(model.aborted).toBe(10); // both tries' held calls ended by the timeout
    };
    await expectRecoverableEvaluationFailure(run, fixCause, {
      error:
        /model error \(timeout\): the judge model could not answer \(5 criteria\): .*did not answer within 750 ms \[EVALUATION_MODEL_FAILED\]$/,
      message: /the model took too long to answer/,
      judgeCallsPerTry: 5,
    });
  });

  const modelFaults: Array<{
    name: string;
    broken: Responder;
    error: RegExp;
    message: RegExp;
  }> = [
    {
      name: "rate limit",
      broken: () => {
        throw new ModelRateLimitError(undefined, "429 Too Many Requests", WHERE);
      },
      error: /model error \(rate_limit\): .*rate limited: 429 Too Many Requests/,
      message: /rate-limiting requests/,
    },
    {
      name: "service unavailable",
      broken: () => {
        throw new ModelUnavailableError("server-error", "503 Service Unavailable", WHERE, {
          status: 503,
        });
      },
      error: /model error \(unavailable\): .*server error \(HTTP 503\)/,
      message: /the model is not available/,
    },
    {
      name: "content policy",
      broken: () => {
        throw new ModelContentPolicyError("blocked by the content filter", WHERE);
      },
      error: /model error \(content_policy\): .*refused by content policy/,
      message: /refused the content \(content policy\)/,
    },
  ];

  for (const fault of modelFaults) {
    it(`${fault.name}: status error, a typed error entry, a friendly message; retry recovers`, async () => {
      const state = { active: true };
      const run = proposalRun({
        responder: switchableResponder(state, fault.broken),
        judge: fastJudge(),
      });
      await start(run);
      expect(writerPrompts(run.model, "research")).toHaveLength(1);
      await expectRecoverableEvaluationFailure(run, () => (state.active = false), {
        error: fault.error,
        message: fault.message,
        judgeCallsPerTry: 5,
      });
    });
  }

  it("processing: every judge answer unreadable → NOTHING_EVALUATED, the evaluation kept; retry recovers", async () => {
    const state = { active: true };
    const run = proposalRun({
      responder: switchableResponder(state, () => "I would rather not grade this."),
      judge: fastJudge(),
    });
    await start(run);
    const calls = run.model.calls.filter((c) => !isWriterCall(c)).length;
    expect(calls).toBeGreaterThanOrEqual(5);
    const failed = (await values(run)).researchEvaluation;
    expect(failed?.notEvaluated).toHaveLength(5);
    expect(failed?.passed).toBe(false);
    await expectRecoverableEvaluationFailure(run, () => (state.active = false), {
      error:
        /processing error \(nothing_evaluated\): no criterion could be evaluated .*\[NOTHING_EVALUATED\]$/,
      message: /none of the judge's answers could be read/,
      judgeCallsPerTry: calls,
    });
  });

  describe("criteria files", () => {
    const dirs: string[] = [];
    const tempCriteria = () => {
      const dir = mkdtempSync(join(tmpdir(), "evalgate-criteria-"));
      dirs.push(dir);
      return dir;
    };
    afterAll(() => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });

    it("an invalid criteria file is an error (never the defaults), with no judge call; fixed, a retry recovers", async () => {
      const dir = tempCriteria();
      const file = join(dir, "research.json");
      writeFileSync(
        file,
        JSON.stringify({
          id: "research",
          name: "Broken",
          criteria: [{ id: "c1", name: "One", description: "Rate it.", weight: -2 }],
        }),
      );
      const run = proposalRun({ graph: { evaluation: { criteriaDir: dir } }, judge: fastJudge() });
      await start(run);
      expect(run.model.calls.filter((c) => !isWriterCall(c))).toHaveLength(0);
      const paused = await pending(run);
      expect(paused?.value.type).toBe("evaluation_error");
      let state = await values(run);
      expect(state.researchStatus).toBe("error");
      expect(state.researchEvaluation ?? null).toBeNull();
      expect(state.errors).toHaveLength(1);
      expect(state.errors[0]).toMatch(/^\[evaluate research\] criteria catalog error: /);
      expect(state.errors[0]).toContain(file);
      expect(await lastMessage(run)).toContain("its criteria file is invalid");

      // Retrying with the file still broken: same error, one entry, no model call.
      await resume(run, { action: "retry" });
      expect(run.model.calls.filter((c) => !isWriterCall(c))).toHaveLength(0);
      expect((await values(run)).errors).toHaveLength(1);

      copyFileSync(join(PACKAGE_CRITERIA_DIR, "research.json"), file);
      await resume(run, { action: "retry" });
      state = await values(run);
      expect(state.researchStatus).toBe("awaiting_review");
      expect(state.researchEvaluation?.catalog?.id).toBe("research");
      expect(run.model.calls.filter((c) => !isWriterCall(c))).toHaveLength(5);
    });

    it("an invalid TOON file in the criteria folder is an error too", async () => {
      const dir = tempCriteria();
      writeFileSync(
        join(dir, "research.toon"),
        "criteria[2,]{id,type,weight,title,prompt}:\nc1,score\n",
      );
      const node = buildEvaluationGraph({
        model: new ScriptedChatModel({ responder: judgeResponder() }),
        criteriaDir: dir,
      }).compile({ checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: "toon-broken" } };
      const out = await node.invoke(
        { content: "Research notes.", contentType: "research", criteriaPath: "research.toon" },
        config,
      );
      expect(out.status).toBe("error");
      expect(out.errors[0]).toMatch(/criteria catalog error: .*research\.toon/);
    });

    it("a missing criteria file means the built-in defaults, with a warning saying so", async () => {
      const run = proposalRun({
        graph: {
          sections: [
            {
              id: "executive_summary",
              title: "Executive Summary",
              description: "Summarise the whole proposal on one page.",
            },
          ],
        },
      });
      await run.graph.invoke(
        input({
          researchResults: { funder: "Calder Bay CF" },
          researchStatus: "approved",
          solutionSoughtResults: { problem: "flood risk" },
          solutionSoughtStatus: "approved",
          connectionPairs: [{ funderNeed: "flood resilience", applicantCapability: "crews" }],
          connectionPairsStatus: "approved",
        }),
        run.config,
      );
      const state = await values(run);
      const evaluation = state.sections.executive_summary?.evaluation;
      expect(state.sections.executive_summary?.status).toBe("awaiting_review");
      expect(evaluation?.catalog?.id).toBe("default_executive_summary");
      expect(evaluation?.warnings.join("\n")).toMatch(
        /no criteria file "executive_summary\.json" found .*the built-in default criteria were used/,
      );
      expect(state.errors).toEqual([]);
    });
  });

  it("input validation: empty content is an error without any model call; once fixed, a retry evaluates it", async () => {
    const model = new ScriptedChatModel({ responder: judgeResponder() });
    const graph = buildEvaluationGraph({ model }).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "empty-content" } };
    const out = await graph.invoke({ content: "", contentType: "problem_statement" }, config);
    expect(model.calls).toHaveLength(0);
    expect(out.status).toBe("error");
    expect(out.errors).toEqual([
      "[evaluate content] invalid input: the content is empty [EVALUATION_FAILED]",
    ]);
    let state = await graph.getState(config);
    expect(state.values.messages.at(-1)?.text).toBe(
      "The Problem Statement could not be evaluated: the content is empty.",
    );
    expect(state.tasks[0]?.interrupts[0]?.value).toMatchObject({ type: "evaluation_error" });

    // Retrying the same empty content: the same error once, still no model call.
    await graph.invoke(new Command({ resume: { action: "retry" } }), config);
    expect(model.calls).toHaveLength(0);
    expect((await graph.getState(config)).values.errors).toHaveLength(1);

    // The content is supplied, then the reviewer retries.
    await graph.updateState(config, { content: "Flooding displaced 1,240 households in 2024." });
    await graph.invoke(new Command({ resume: { action: "retry" } }), config);
    state = await graph.getState(config);
    expect(model.calls).toHaveLength(5);
    expect(state.values.status).toBe("awaiting_review");
    const done = await graph.invoke(new Command({ resume: { action: "approve" } }), config);
    expect(done.status).toBe("approved");
    expect(done.errors).toHaveLength(1);
  });

  describe("generator failures", () => {
    it("a research answer that is not JSON: generation_error, no judge call; retry writes it again", async () => {
      const fault = { active: true };
      const run = proposalRun({
        responder: switchableResponder(fault, () => "Here is my research: lots of it.", "writer"),
      });
      await start(run);
      expect(run.model.calls).toHaveLength(1);
      const paused = await pending(run);
      expect(paused?.node).toBe("reviewResearch");
      expect(paused?.value).toMatchObject({
        type: "generation_error",
        contentId: "research",
        evaluation: null,
        actions: ["retry", "edit"],
      });
      let state = await values(run);
      expect(state.researchStatus).toBe("error");
      expect(state.researchResults).toBeUndefined();
      expect(state.errors).toEqual([
        "[generate research] processing error (processing): the research answer has no JSON object [GENERATION_OUTPUT_INVALID]",
      ]);
      expect(await lastMessage(run)).toBe(
        "The Research generation failed while processing the writer's answer (the research answer has no JSON object). Nothing was lost: resume with retry once the cause is fixed.",
      );

      // Nothing was written, so there is nothing to approve.
      const refused = await refusedResume(run, { action: "approve" });
      expect(refused).toMatchObject({ field: "action" });
      expect(refused.problem).toContain("nothing was written to approve");
      expect(refused.fix).toBe("Answer with edit or retry (in Agent Inbox: edit).");
      const again = await pending(run);
      expect(again?.node).toBe("reviewResearch");
      expect(again?.id).not.toBe(paused?.id);
      expect(again?.value).toMatchObject({ type: "generation_error", actions: ["retry", "edit"] });

      await resume(run, { action: "retry" }); // still broken
      expect(writerPrompts(run.model, "research")).toHaveLength(2);
      expect((await values(run)).errors).toHaveLength(1);

      fault.active = false;
      await resume(run, { action: "retry" });
      expect(writerPrompts(run.model, "research")).toHaveLength(3);
      state = await values(run);
      expect(state.researchStatus).toBe("awaiting_review");
      expect(state.researchResults).toMatchObject({ funder: "Calder Bay Community Foundation" });
      expect(run.model.calls.filter((c) => !isWriterCall(c))).toHaveLength(5);
    });

    it("a writer model failure is a generation_error naming the model error; retry recovers", async () => {
      const fault = { active: true };
      const run = proposalRun({
        responder: switchableResponder(
          fault,
          () => {
            throw new ModelUnavailableError("connection-refused", "ECONNREFUSED", WHERE);
          },
          "writer",
        ),
        judge: fastJudge(),
      });
      await start(run);
      expect((await pending(run))?.value.type).toBe("generation_error");
      expect((await values(run)).errors[0]).toMatch(
        /^\[generate research\] model error \(unavailable\): [^ ]+ refused the connection: ECONNREFUSED \[MODEL_UNAVAILABLE\]$/,
      );
      expect(await lastMessage(run)).toMatch(
        /^The Research generation could not be completed: the model is not available/,
      );
      fault.active = false;
      await resume(run, { action: "retry" });
      expect((await values(run)).researchStatus).toBe("awaiting_review");
    });

    it("an empty section answer is a generation_error for that section", async () => {
      const model = new ScriptedChatModel({
        responder: (messages) => {
          const user = messages.at(-1)?.content ?? "";
          return user.startsWith('Write the "Problem Statement"')
            ? "  "
            : proposalResponder()(messages);
        },
      });
      const run = proposalRun({ model, judge: () => createChatModel(model, { maxRetries: 0 }) });
      await start(run);
      for (let i = 0; i < 3; i += 1) await resume(run, { action: "approve" });
      const paused = await pending(run);
      expect(paused?.value).toMatchObject({
        type: "generation_error",
        contentId: "problem_statement",
      });
      expect((await values(run)).sections.problem_statement?.status).toBe("error");
    });
  });
});
