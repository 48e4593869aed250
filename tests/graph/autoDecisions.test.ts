import { describe, expect, it } from "vitest";
import { ModelUnavailableError } from "../../src/llm/errors.js";
import type { EvaluationResult } from "../../src/scoring/result.js";
import type { RecordedMessage } from "../doubles/index.js";
import { proposalResponder } from "./helpers.js";
import {
  fastJudge,
  isWriterCall,
  pending,
  proposalRun,
  SECTION_IDS,
  start,
  values,
  writerPrompts,
} from "./proposalHarness.js";

describe("automatic decisions of a stage", () => {
  it("autoApprove: content that passes is approved without a pause, to the end", async () => {
    const run = proposalRun({ graph: { autoApprove: true } });
    await start(run);
    expect(await pending(run)).toBeUndefined();
    const state = await values(run);
    expect(state.researchStatus).toBe("approved");
    for (const id of SECTION_IDS) expect(state.sections[id]?.status).toBe("approved");
    expect(state.isInterrupted).toBe(false);
    expect(state.reviewHistory).toEqual([]); // no reviewer decided anything
    expect(run.model.calls).toHaveLength(8 * 6);
  });

  it("autoApprove still pauses for content that fails", async () => {
    const run = proposalRun({ responder: proposalResponder(0.3), graph: { autoApprove: true } });
    await start(run);
    expect((await pending(run))?.value).toMatchObject({
      type: "evaluation_review",
      contentId: "research",
    });
    expect((await values(run)).researchEvaluation?.passed).toBe(false);
  });

  it("autoRevise: failing content goes back to its writer with the evaluation's feedback, up to maxRevisions", async () => {
    const run = proposalRun({
      responder: proposalResponder(0.3),
      graph: { autoRevise: true, maxRevisions: 2 },
    });
    await start(run);
    const prompts = writerPrompts(run.model, "research");
    expect(prompts).toHaveLength(3);
    expect(prompts[1]).toContain("Reviewer feedback: ");
    expect(prompts[1]).toContain("no measurable outcomes");
    const state = await values(run);
    expect(state.revisionCounts).toEqual({ research: 2 });
    // After the limit the reviewer decides.
    expect((await pending(run))?.value).toMatchObject({
      type: "evaluation_review",
      contentId: "research",
    });
    expect(run.model.calls.filter(isWriterCall)).toHaveLength(3);
    expect(run.model.calls).toHaveLength(3 * 6);
  });

  it("autoRevise with one criterion's judge down: the writer's feedback names the criterion, never the model server's error", async () => {
    const server = "http://10.20.30.40:11434";
    const failing = proposalResponder(0.3);
    const responder = (messages: RecordedMessage[]): string => {
      const writer = (messages[0]?.content ?? "").includes("grant writer");
      if (!writer && (messages.at(-1)?.content ?? "").includes("Eligibility requirements")) {
        throw new ModelUnavailableError("connection-refused", `connect ECONNREFUSED ${server}`, {
          provider: "ollama",
          model: "qwen2.5:7b-instruct",
          baseUrl: server,
        });
      }
      return failing(messages);
    };
    const run = proposalRun({
      responder,
      judge: fastJudge(),
      graph: { autoRevise: true, maxRevisions: 1 },
    });
    await start(run);
    const prompts = writerPrompts(run.model, "research");
    expect(prompts).toHaveLength(2);
    expect(prompts[1]).toContain("Eligibility requirements: could not be evaluated");
    expect(prompts[1]).toContain("no measurable outcomes"); // the criteria that were judged
    const state = await values(run);
    const evaluation: EvaluationResult | undefined = state.researchEvaluation;
    const eligibility = evaluation?.criteria.find((c) => c.id === "eligibility_requirements");
    expect(eligibility).toMatchObject({ evaluated: false, score: null });
    expect(eligibility?.judgeError).toContain(server); // for administrators
    expect(evaluation?.notEvaluated).toEqual(["eligibility_requirements"]);
    const paused = await pending(run);
    expect(paused?.value.type).toBe("evaluation_review");
    const read = [
      ...prompts,
      String(paused?.value.description),
      ...(evaluation?.weaknesses ?? []),
      ...(evaluation?.warnings ?? []),
    ];
    expect(read.filter((text) => /10\.20\.30\.40|ECONNREFUSED/.test(text))).toEqual([]);
  });

  it("autoRevise never decides on an older evaluation: a model failure on the revised content stops for the reviewer", async () => {
    const failing = proposalResponder(0.3);
    let researchWrites = 0;
    const responder = (messages: RecordedMessage[]): string => {
      const writer = (messages[0]?.content ?? "").includes("grant writer");
      const user = messages.at(-1)?.content ?? "";
      if (writer && user.startsWith("Analyse the request for proposals")) researchWrites += 1;
      if (!writer && researchWrites >= 2) {
        throw new ModelUnavailableError("server-error", "503 Service Unavailable", {
          provider: "scripted",
          model: "scripted-judge",
        });
      }
      return failing(messages);
    };
    const run = proposalRun({
      responder,
      judge: fastJudge(),
      graph: { autoRevise: true, maxRevisions: 2 },
    });
    await start(run);
    // One revision on the first (failing) evaluation; the second evaluation failed, so nothing
    // more is revised on the first one's verdict: the reviewer sees the failure.
    expect(writerPrompts(run.model, "research")).toHaveLength(2);
    expect((await values(run)).revisionCounts).toEqual({ research: 1 });
    expect((await pending(run))?.value).toMatchObject({
      type: "evaluation_error",
      contentId: "research",
    });
  });

  it("autoRevise never decides on an evaluation where nothing was judged: unreadable answers stop for the reviewer", async () => {
    const writer = proposalResponder(0.3);
    const responder = (messages: RecordedMessage[]): string =>
      (messages[0]?.content ?? "").includes("grant writer")
        ? writer(messages)
        : "I would rather not grade this.";
    const run = proposalRun({
      responder,
      judge: fastJudge(),
      graph: { autoRevise: true, maxRevisions: 2 },
    });
    await start(run);
    // The evaluation is kept (every criterion a judge error) but it is no verdict to revise on.
    const state = await values(run);
    expect(state.researchEvaluation?.notEvaluated).toHaveLength(5);
    expect(writerPrompts(run.model, "research")).toHaveLength(1);
    expect(state.revisionCounts).toEqual({});
    expect((await pending(run))?.value).toMatchObject({
      type: "evaluation_error",
      contentId: "research",
    });
  });
});
