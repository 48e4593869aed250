import { Command, END, MemorySaver } from "@langchain/langgraph";
import type { HumanInterrupt, HumanResponse } from "@langchain/langgraph/prebuilt";
import { describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { markdownCell } from "../../src/graph/markdownText.js";
import { skipIdleResume } from "../../src/graph/resumeGuard.js";
import { askedAgain, scoringJudge } from "./helpers.js";
import { pending, proposalRun, resume, start, values } from "./proposalHarness.js";

const PROBLEM = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";

const thread = (id: string) => ({ configurable: { thread_id: id } });

async function pausedGate(id: string, content = PROBLEM) {
  const model = scoringJudge(0.85);
  const graph = buildEvaluationGraph({ model }).compile({ checkpointer: new MemorySaver() });
  const paused = await graph.invoke({ content, contentType: "problem_statement" }, thread(id));
  const value = (paused as { __interrupt__?: Array<{ value: unknown }> }).__interrupt__?.[0]?.value;
  return { model, graph, value: value as HumanInterrupt & { type: string; title: string } };
}

describe("the review speaks Agent Inbox's protocol too", () => {
  it("the interrupt carries a HumanInterrupt beside the review metadata", async () => {
    const { value } = await pausedGate("inbox-a");
    expect(value.type).toBe("evaluation_review");
    expect(value.action_request.action).toBe(value.title);
    expect(value.action_request.args).toMatchObject({ content: PROBLEM, passed: true });
    expect(value.config).toEqual({
      allow_ignore: false,
      allow_respond: true,
      allow_edit: true,
      allow_accept: true,
    });
    expect(typeof value.description).toBe("string");
  });

  it("accept approves", async () => {
    const { graph } = await pausedGate("inbox-b");
    const accept: HumanResponse = { type: "accept", args: null };
    const done = await graph.invoke(new Command({ resume: accept }), thread("inbox-b"));
    expect(done.status).toBe("approved");
    expect(done.reviewHistory.map((r) => r.action)).toEqual(["approve"]);
  });

  it("a response asks for a revision with the text as feedback", async () => {
    const { graph } = await pausedGate("inbox-c");
    const response: HumanResponse = { type: "response", args: "Add the 2025 figures." };
    const done = await graph.invoke(new Command({ resume: response }), thread("inbox-c"));
    expect(done.status).toBe("revision_requested");
    expect(done.revisionFeedback).toEqual({ content: "Add the 2025 figures." });
  });

  it("an edit replaces the content with the edited argument", async () => {
    const { graph, value } = await pausedGate("inbox-d");
    const edit: HumanResponse = {
      type: "edit",
      args: { action: value.action_request.action, args: { content: "Edited statement." } },
    };
    const done = await graph.invoke(new Command({ resume: edit }), thread("inbox-d"));
    expect(done.status).toBe("edited");
    expect(done.content).toBe("Edited statement.");
  });

  it("ignore, or a malformed response, is refused without an error: the review asks again, saying why", async () => {
    const { graph, model } = await pausedGate("inbox-e");
    const calls = model.calls.length;
    const first = (await graph.getState(thread("inbox-e"))).tasks[0]?.interrupts[0]?.id;
    const seen = new Set([first]);
    for (const [resume, field, problem] of [
      [{ type: "ignore", args: null }, "type", /cannot be ignored/],
      [{ type: "response", args: "   " }, "args", /no visible text/],
      [{ type: "edit", args: { action: "x", args: {} } }, "args.args.content", /./],
      [{ type: "edit", args: "Edited statement." }, "args", /expected object/],
    ] as const) {
      const asked = await graph.invoke(new Command({ resume }), thread("inbox-e"));
      const value = askedAgain(asked);
      expect(value.description).toContain("**Your last answer was not accepted.**");
      expect(value.refusal.field).toBe(field);
      expect(value.refusal.problem).toMatch(problem);
      expect(value.description).toContain("**How to fix it:**");
      // The fix fits the answer: an edit is told how to send its content, not feedback.
      if (resume.type === "edit") expect(value.refusal.fix).toMatch(/^Send the edited text/);
      const state = await graph.getState(thread("inbox-e"));
      expect(state.next).toEqual(["review"]);
      // A new interrupt each time: the one to answer next.
      const id = state.tasks[0]?.interrupts[0]?.id;
      expect(seen.has(id)).toBe(false);
      seen.add(id);
    }
    expect(model.calls.length).toBe(calls);
    const done = await graph.invoke(
      new Command({ resume: { type: "accept", args: null } }),
      thread("inbox-e"),
    );
    expect(done.status).toBe("approved");
    expect(done.reviewHistory.map((r) => r.action)).toEqual(["approve"]);
  });

  it("takes the list of one response Agent Inbox sends, for each kind of answer", async () => {
    // Agent Inbox's submit: runs.stream(thread, graph, { command: { resume: [response] } }).
    const accepted = await pausedGate("inbox-f");
    const accept = [{ type: "accept", args: null }];
    const approved = await accepted.graph.invoke(
      new Command({ resume: accept }),
      thread("inbox-f"),
    );
    expect(approved.status).toBe("approved");

    // An editable review accepted without edits: Agent Inbox sends the action request along.
    const untouched = await pausedGate("inbox-g");
    const acceptWithRequest = [{ type: "accept", args: untouched.value.action_request }];
    const kept = await untouched.graph.invoke(
      new Command({ resume: acceptWithRequest }),
      thread("inbox-g"),
    );
    expect(kept.status).toBe("approved");
    expect(kept.content).toBe(PROBLEM);
    // The request it sends along is the content as shown, never read as an edit: text taken
    // from a PDF keeps its page breaks (form feeds), which no edit may hold, and is approved.
    const pages = "Flooding displaced 1,240 households.\fPage 2: the county report.";
    const paged = await pausedGate("inbox-g2", pages);
    const acceptPages = [{ type: "accept", args: paged.value.action_request }];
    const approvedPages = await paged.graph.invoke(
      new Command({ resume: acceptPages }),
      thread("inbox-g2"),
    );
    expect(approvedPages.status).toBe("approved");
    expect(approvedPages.content).toBe(pages);

    const revised = await pausedGate("inbox-h");
    const response = [{ type: "response", args: "Cite the 2025 county figures." }];
    const revision = await revised.graph.invoke(
      new Command({ resume: response }),
      thread("inbox-h"),
    );
    expect(revision.revisionFeedback).toEqual({ content: "Cite the 2025 county figures." });

    const edited = await pausedGate("inbox-i");
    // Agent Inbox edits every argument as text: the score arrives as a string and is not read.
    const args = { ...edited.value.action_request.args, content: "Edited.", overallScore: "0.85" };
    const edit = [{ type: "edit", args: { action: edited.value.action_request.action, args } }];
    const done = await edited.graph.invoke(new Command({ resume: edit }), thread("inbox-i"));
    expect(done.status).toBe("edited");
    expect(done.content).toBe("Edited.");
  });

  it("refuses ignore and lists of any other length in the list form, and asks again", async () => {
    const { graph, model } = await pausedGate("inbox-j");
    const calls = model.calls.length;
    const attempts: Array<{ resume: unknown; message: RegExp; field?: string }> = [
      { resume: [{ type: "ignore", args: null }], message: /cannot be ignored/ },
      // An unknown type is named as the field at fault, not the decision's `action` it never sent.
      {
        resume: [{ type: "approve", args: null }],
        message: /^is "approve": an answer's type is accept, response or edit$/,
        field: "type",
      },
      { resume: { type: 7, args: "Cite the report." }, message: /^is not text: /, field: "type" },
      { resume: [], message: /one answer; the list holds 0/ },
      {
        resume: [
          { type: "accept", args: null },
          { type: "response", args: "No." },
        ],
        message: /one answer; the list holds 2/,
      },
    ];
    for (const { resume, message, field } of attempts) {
      const asked = askedAgain(await graph.invoke(new Command({ resume }), thread("inbox-j")));
      expect(asked.refusal.problem).toMatch(message);
      if (field !== undefined) expect(asked.refusal.field).toBe(field);
      expect((await graph.getState(thread("inbox-j"))).next).toEqual(["review"]);
    }
    expect(model.calls.length).toBe(calls);
  });

  it("refuses Mark as Resolved (a state update as END) and a state update as the review: the review still waits", async () => {
    const { graph } = await pausedGate("inbox-resolve");
    const before = await graph.getState(thread("inbox-resolve"));
    // Agent Inbox's "Mark as Resolved": threads.updateState(id, { values: null, asNode: END }).
    for (const asNode of [END, "review"]) {
      await expect(graph.updateState(thread("inbox-resolve"), null, asNode)).rejects.toMatchObject({
        code: "REVIEW_NOT_SKIPPABLE",
        message: expect.stringContaining(`waits at a review (review): a state update as ${asNode}`),
      });
    }
    const after = await graph.getState(thread("inbox-resolve"));
    expect(after.config.configurable?.checkpoint_id).toBe(
      before.config.configurable?.checkpoint_id,
    );
    expect(after.next).toEqual(["review"]);
    const done = await graph.invoke(
      new Command({ resume: [{ type: "accept", args: null }] }),
      thread("inbox-resolve"),
    );
    expect(done.status).toBe("approved");

    // In the proposal graph the rest of the proposal is still written after the review.
    const run = proposalRun();
    await start(run);
    const review = await pending(run);
    await expect(run.graph.updateState(run.config, null, END)).rejects.toMatchObject({
      code: "REVIEW_NOT_SKIPPABLE",
    });
    expect((await pending(run))?.id).toBe(review?.id);
    await resume(run, { action: "approve" });
    expect((await pending(run))?.value.contentId).toBe("solution");
    // A state update that decides nothing is taken: run on, the review asks again.
    await run.graph.updateState(run.config, { applicantInput: "Calder Bay Housing Trust." });
    await run.graph.invoke(null, run.config);
    expect((await pending(run))?.value.contentId).toBe("solution");
  });

  it("refuses a structured edit whose JSON escapes smuggle a control character, a lone surrogate or invisible text into a field", async () => {
    const run = proposalRun();
    await start(run);
    const review = await pending(run);
    const written = (await run.graph.getState(run.config)).values.researchResults;
    const action = review?.value.title ?? "";
    const edit = (content: string) => [{ type: "edit", args: { action, args: { content } } }];
    for (const [content, place, problem] of [
      ['{"funder": "Calder\\u0000Bay"}', "funder", /control character/],
      ['{"priorities": ["flood", "\\u001b[2Jcleared"]}', "priorities item 2", /control character/],
      ['{"mission": "\\ud800"}', "mission", /lone surrogate/],
      ['{"funder": "\\u200b\\u2060"}', "funder", /no visible text/],
      ['{"notes": {"a\\u0007": "x"}}', 'notes "a\\\\u0007"', /control character/],
    ] as const) {
      const refusal = askedAgain(
        await run.graph.invoke(new Command({ resume: edit(content) }), run.config),
      ).refusal;
      expect(refusal.field).toBe("args.args.content");
      expect(refusal.problem).toMatch(new RegExp(`; ${place}: `));
      expect(refusal.problem).toMatch(problem);
    }
    const state = await run.graph.getState(run.config);
    expect(state.values.researchStatus).toBe("awaiting_review");
    expect(state.values.researchResults).toEqual(written);
    expect((await pending(run))?.value.contentId).toBe(review?.value.contentId);
    // Unicode that is text is taken, escaped or not.
    const done = await run.graph.invoke(
      new Command({ resume: edit('{"funder": "Fondation \\u010calder 🌊 مؤسسة"}') }),
      run.config,
    );
    expect(done.researchResults).toMatchObject({ funder: "Fondation Čalder 🌊 مؤسسة" });
  });

  it("refuses an answer Agent Inbox sends for a review that no longer waits: another stage's, or content since rewritten", async () => {
    const run = proposalRun();
    await start(run);
    type Shown = HumanInterrupt & { contentId: string };
    const shown = async () => (await pending(run))?.value as unknown as Shown;
    // Reviewer A opens the research review; reviewer B approves it first.
    const seenByA = await shown();
    await resume(run, { action: "approve" });
    expect((await shown()).contentId).toBe("solution");
    for (const answer of [
      { type: "accept", args: seenByA.action_request },
      { type: "edit", args: { ...seenByA.action_request, args: { content: '{"funder": "X"}' } } },
    ]) {
      const asked = askedAgain(
        await run.graph.invoke(new Command({ resume: [answer] }), run.config),
      );
      expect(asked.refusal.field).toBe("args.action");
      expect(asked.refusal.problem).toBe(
        'it answers "Research Evaluation Review", not the review waiting now ("Solution Sought Evaluation Review"): nothing was applied',
      );
      expect(asked.refusal.fix).toMatch(/^Open the review again/);
    }
    const state = await run.graph.getState(run.config);
    expect(state.values.solutionSoughtStatus).toBe("awaiting_review");
    expect(state.values.researchResults).toMatchObject({
      funder: "Calder Bay Community Foundation",
    });

    // The same review asked again after a revision: A's accept is of the text before it.
    await resume(run, { action: "approve" });
    await resume(run, { action: "approve" });
    const before = await shown();
    expect(before.contentId).toBe("problem_statement");
    await resume(run, { action: "revise", feedback: "Cite the county report." });
    const after = await shown();
    expect(after.action_request.action).toBe(before.action_request.action);
    const stale = [{ type: "accept", args: before.action_request }];
    const asked = askedAgain(await run.graph.invoke(new Command({ resume: stale }), run.config));
    expect(asked.refusal.field).toBe("args.args.content");
    expect(asked.refusal.problem).toMatch(
      /^it accepts the content as it was shown before it changed/,
    );
    const current = [{ type: "accept", args: after.action_request }];
    await run.graph.invoke(new Command({ resume: current }), run.config);
    expect((await shown()).contentId).toBe("methodology");
  });

  it("cannot tell a late Respond (text only) from a current one: it revises the review waiting now", async () => {
    const run = proposalRun();
    await start(run);
    // Reviewer A opens the research review; reviewer B approves it first.
    const seenByA = await pending(run);
    expect(seenByA?.value.contentId).toBe("research");
    await resume(run, { action: "approve" });
    const respond = [{ type: "response", args: "Name the funder's deadline." }];
    // Named by the interrupt A saw, the Respond is not applied: the solution review still waits.
    const named = { [seenByA?.id ?? ""]: respond };
    await run.graph.invoke(new Command({ resume: named }), run.config);
    const waiting = await pending(run);
    expect(waiting?.value.contentId).toBe("solution");
    expect(waiting?.value.refusal).toBeUndefined();
    expect((await values(run)).revisionCounts.solution).toBeUndefined();
    // The graphs a LangGraph server serves (skipIdleResume) also say why, on the review waiting.
    skipIdleResume(run.graph);
    await run.graph.invoke(new Command({ resume: named }), run.config);
    const told = await pending(run);
    expect(told?.value.contentId).toBe("solution");
    expect(told?.value.refusal?.problem).toBe(
      `it answers interrupt ${seenByA?.id}, which no longer waits (its review was answered already): nothing was applied`,
    );
    expect((await values(run)).revisionCounts.solution).toBeUndefined();
    // As Agent Inbox sends it (no id, no request), the same Respond revises the solution.
    const after = await run.graph.invoke(new Command({ resume: respond }), run.config);
    expect(after.reviewHistory.map((r) => `${r.contentId}:${r.action}`)).toEqual([
      "research:approve",
      "solution:revise",
    ]);
    expect(after.revisionCounts.solution).toBe(1);
    expect(after.revisionFeedback.solution).toBe("Name the funder's deadline.");
  });

  it("describes the evaluation in Markdown for the reviewer: outcome, criteria against thresholds, buttons", async () => {
    const { graph, value } = await pausedGate("inbox-k");
    const state = await graph.getState(thread("inbox-k"));
    const evaluation = state.values.evaluation;
    expect(evaluation).toBeTruthy();
    const description = value.description ?? "";
    expect(description).toContain("**Outcome:** overall 0.85 · verdict pass");
    expect(description).toContain("| criterion | score | threshold | met |");
    const rows = description
      .split("\n")
      .filter((line) => /^\| .* \| (yes|no|not evaluated) \|$/.test(line));
    expect(rows).toHaveLength(evaluation?.criteria.length ?? -1);
    for (const criterion of evaluation?.criteria ?? []) {
      expect(description).toContain(`| ${criterion.threshold.toFixed(2)} |`);
    }
    expect(description).toContain("**Accept** approves the content as it is.");
    expect(description).toContain("**Respond** asks for a revision");
    expect(description).toContain("**Edit** replaces the content");
    // The review's own one-line description stays beside it for the other readers.
    const intro = (value as { intro?: string }).intro ?? "";
    expect(intro).toMatch(/^Review the evaluation of the .+\.$/);
    expect(description.startsWith(markdownCell(intro, 1_000))).toBe(true);
  });

  it("says why an evaluation is held for human review: a panel whose judges disagree", async () => {
    const graph = buildEvaluationGraph({
      judges: [scoringJudge(0.95), scoringJudge(0.2)],
      panel: { minAgreement: 0.8 },
    }).compile({ checkpointer: new MemorySaver() });
    const paused = await graph.invoke(
      { content: PROBLEM, contentType: "problem_statement" },
      thread("inbox-held"),
    );
    const value = (paused as { __interrupt__?: Array<{ value: HumanInterrupt }> })
      .__interrupt__?.[0]?.value;
    const evaluation = (await graph.getState(thread("inbox-held"))).values.evaluation;
    expect(evaluation?.humanReviewRequired).toBe(true);
    const description = value?.description ?? "";
    expect(description).toContain("**Held for human review**");
    for (const reason of evaluation?.humanReviewReasons ?? []) {
      expect(description).toContain(`- ${markdownCell(reason, 300)}`);
    }
    expect(description).toContain("the judges disagree");
  });
});

describe("markdownCell", () => {
  it("escapes what would make links, images, HTML or tables, and keeps one line", () => {
    const text = markdownCell("[click](http://x) ![i](y) <img src=x onerror=1> a|b `c` *d*\nnext");
    expect(text).not.toMatch(/(^|[^\\])[[\]<>|`*!]/);
    expect(text).not.toContain("\n");
    expect(markdownCell("x".repeat(500), 20)).toHaveLength(20);
  });
});
