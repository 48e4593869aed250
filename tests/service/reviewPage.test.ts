/**
 * The review pages as reviewers meet them, through `app.request()` as a browser without
 * JavaScript, on the real review desk: one decision form whose corrections and comment are
 * entered once; a refused decision shown again with what was entered; the 409 page of a review
 * someone decided first (who, what, when; links to the history and the next review); the
 * history with comments, feedback, edited text and corrections; status words instead of ids;
 * times as UTC instants; and the technical details of a failed evaluation for administrators only.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsx } from "hono/jsx";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceApp } from "../../src/service/app.js";
import { DecidedFirstPage } from "../../src/service/pages/decidedFirst.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { isWriterPrompt, ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { PageClient } from "./pageClient.js";
import { eventually, openRealDesk, type RealDesk } from "./realDesk.js";

let real: RealDesk;
let app: ReturnType<typeof createServiceApp>;
const tokens: Record<string, string> = {};
const reviewers: Record<string, Reviewer> = {};

beforeAll(async () => {
  real = await openRealDesk();
  app = createServiceApp({ desk: real.desk, logError: () => {} });
  for (const [name, role] of [
    ["ana", "admin"],
    ["bo", "reviewer"],
  ] as const) {
    tokens[name] = await real.addReviewer(name, role);
    reviewers[name] = (await real.desk.authenticate(tokens[name] ?? ""))!;
  }
}, 60_000);

afterAll(async () => {
  await real?.close();
});

/** A thread started by ana, bo assigned, once its first review (or the one after `after`) waits. */
async function waitingThread(title: string): Promise<string> {
  const ana = reviewers.ana!;
  const { threadId } = await real.desk.startProposal(
    { rfp: `${title}\nFlood resilience grants.`, applicant: "Harbour Trust", title },
    ana,
  );
  await real.desk.assignReviewer(threadId, "bo", ana);
  await nextReviewOf(threadId);
  return threadId;
}

function nextReviewOf(threadId: string, after?: string) {
  return eventually(`a review of ${threadId}`, async () => {
    const status = await real.desk.threadStatus(threadId, reviewers.ana!);
    if (status.status === "failed") throw new Error(`the thread failed: ${status.error}`);
    if (status.status !== "waiting") return undefined;
    const review = await real.desk.getReview(threadId, reviewers.ana!);
    return review.interruptId === after ? undefined : review;
  });
}

async function signedIn(name: string): Promise<{ client: PageClient; csrf: string }> {
  const client = new PageClient(app);
  const csrf = await client.signIn(tokens[name] ?? "");
  return { client, csrf };
}

function count(html: string, text: string): number {
  return html.split(text).length - 1;
}

/** The `name="correction-<i>-criterion"` index of a criterion on the page. */
function correctionIndex(html: string, criterionId: string): string {
  const match = new RegExp(`name="correction-(\\d+)-criterion" value="${criterionId}"`).exec(html);
  if (match?.[1] === undefined) throw new Error(`no correction fields for ${criterionId}`);
  return match[1];
}

describe("the decision form", () => {
  it("is one form: corrections and comment once, a button per decision, Enter guarded", async () => {
    const threadId = await waitingThread("One form");
    const { client } = await signedIn("bo");
    const html = await (await client.get(`/reviews/${threadId}`)).text();
    expect(count(html, "<form")).toBe(2); // the decision form and sign-out
    expect(count(html, 'id="corrections"')).toBe(1);
    expect(count(html, "score is wrong")).toBe(
      (await real.desk.getReview(threadId, reviewers.bo!)).evaluation?.criteria.length,
    );
    expect(count(html, 'name="comment"')).toBe(1);
    for (const action of ["approve", "revise", "edit"]) {
      expect(html).toContain(`name="action" value="${action}"`);
    }
    // The first submit button of the form is a disabled one, so Enter submits nothing.
    const form = html.slice(html.indexOf('id="decision-form"'));
    expect(form.indexOf("<button")).toBe(
      form.indexOf('<button type="submit" class="enter-guard" disabled'),
    );
  });

  it("shows a refused decision again with everything entered kept, and records nothing", async () => {
    const threadId = await waitingThread("Kept on refusal");
    const { client, csrf } = await signedIn("bo");
    const page = await (await client.get(`/reviews/${threadId}`)).text();
    const review = await real.desk.getReview(threadId, reviewers.bo!);
    const award = correctionIndex(page, "award_parameters");
    const posted = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: review.interruptId,
      action: "revise",
      feedback: "",
      comment: "The award range needs its <source>.",
      [`correction-${award}-criterion`]: "award_parameters",
      [`correction-${award}-kind`]: "score",
      [`correction-${award}-value`]: "0.3",
      [`correction-${award}-note`]: "no ceiling given",
    });
    expect(posted.status).toBe(400);
    const html = await posted.text();
    expect(html).toContain(
      '<p class="error-words">Your decision was not recorded. To ask for a revision, say what the writer should change.</p>',
    );
    // The code is for looking up, in a details line: never in the words a reviewer reads.
    expect(html).toContain(
      '<p class="muted error-details">Details: INVALID_INPUT, field feedback.</p>',
    );
    expect(html).not.toMatch(/error-words">[^<]*\[INVALID_INPUT\]/);
    expect(html).toContain("The award range needs its &lt;source&gt;.</textarea>");
    expect(html).toContain(`<details class="correction" open="">`);
    expect(html).toContain(`name="correction-${award}-value" min="0" max="1"`);
    expect(html).toMatch(new RegExp(`id="correction-${award}-value"[^>]*value="0.3"`));
    expect(html).toMatch(new RegExp(`id="correction-${award}-note"[^>]*value="no ceiling given"`));
    expect(await real.desk.store.decisionsOf(threadId)).toEqual([]);
    expect((await real.desk.getReview(threadId, reviewers.bo!)).interruptId).toBe(
      review.interruptId,
    );
  });

  it("refuses a decision without a button's action, and corrections sent with a retry", async () => {
    const threadId = await waitingThread("No action");
    const { client, csrf } = await signedIn("bo");
    const review = await real.desk.getReview(threadId, reviewers.bo!);
    const none = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: review.interruptId,
      comment: "pressed Enter",
    });
    expect(none.status).toBe(400);
    expect(await none.text()).toContain("Choose a decision with one of its buttons");
    const offered = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: review.interruptId,
      action: "retry",
    });
    expect(offered.status).toBe(422);
    expect(await offered.text()).toContain("Your decision was not recorded. This review takes");
    expect(await real.desk.store.decisionsOf(threadId)).toEqual([]);
  });
});

describe("the history of a proposal", () => {
  it("shows who decided what and when, with comment, feedback, edited text and corrections", async () => {
    const threadId = await waitingThread("History");
    const { client, csrf } = await signedIn("bo");
    const first = await real.desk.getReview(threadId, reviewers.bo!);
    const page = await (await client.get(`/reviews/${threadId}`)).text();
    const award = correctionIndex(page, "award_parameters");
    const approved = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: first.interruptId,
      action: "approve",
      comment: "Good research; the award range is <b>unclear</b>.",
      feedback: "typed into the revise box, not sent with an approval",
      [`correction-${award}-criterion`]: "award_parameters",
      [`correction-${award}-kind`]: "score",
      [`correction-${award}-value`]: "0.4",
    });
    expect(approved.status).toBe(303);
    const second = await nextReviewOf(threadId, first.interruptId);
    const revised = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: second.interruptId,
      action: "revise",
      // A browser sends a text area's line breaks as CRLF: kept as plain line breaks.
      feedback: "Name the excluded approaches.\r\nCite the county plan.",
    });
    expect(revised.status).toBe(303);
    const third = await nextReviewOf(threadId, second.interruptId);
    const edited = JSON.stringify({ ...JSON.parse(third.content), problem: "Edited problem <i>" });
    const edit = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: third.interruptId,
      action: "edit",
      content: edited,
    });
    expect(edit.status).toBe(303);

    const html = await (await client.get(`/threads/${threadId}`)).text();
    const history = html.slice(html.indexOf('<ol id="decisions">'));
    expect(count(history, '<li class="decision"')).toBe(3);
    expect(history).toContain("<strong>bo</strong> approved <em>Research</em>");
    expect(history).toContain("Good research; the award range is &lt;b&gt;unclear&lt;/b&gt;.");
    expect(history).not.toContain("typed into the revise box");
    expect(history).toContain("judge 0.85 → reviewer 0.4");
    expect(history).toContain(
      "<strong>bo</strong> asked for a revision of <em>Solution Sought</em>",
    );
    expect(history).toContain("Asked the writer: </span>Name the excluded approaches.");
    expect(history).toContain("<strong>bo</strong> edited <em>Solution Sought</em>");
    expect(history).toMatch(
      /<details class="edited"><summary>The edited text \([\d,]+ characters\)/,
    );
    expect(history).toContain("Edited problem &lt;i&gt;");
    expect(history).toMatch(
      /<time datetime="\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/,
    );
    const { decisions } = await real.desk.threadStatus(threadId, reviewers.bo!);
    expect(decisions.map((d) => [d.action, d.comment, d.feedback, d.content])).toEqual([
      ["approve", "Good research; the award range is <b>unclear</b>.", undefined, undefined],
      ["revise", undefined, "Name the excluded approaches.\nCite the county plan.", undefined],
      ["edit", undefined, undefined, edited],
    ]);
  }, 120_000);

  it("says statuses in words, never as ids, and times as UTC instants", async () => {
    const threadId = await waitingThread("Words");
    const { client } = await signedIn("bo");
    const thread = await (await client.get(`/threads/${threadId}`)).text();
    expect(thread).toContain('<strong id="thread-status">waiting for a reviewer</strong>');
    expect(thread).toContain("<td>Research</td><td>waiting for a reviewer</td>");
    expect(thread).toContain("<td>Solution Sought</td><td>not started</td>");
    for (const id of ["awaiting_review", "not_started", "connection_pairs", "problem_statement"]) {
      expect(thread, id).not.toContain(`>${id}<`);
    }
    const queue = await (await client.get("/reviews")).text();
    expect(queue).toMatch(/<td>Research<\/td>/);
    expect(queue).toMatch(/<time datetime="[^"]+Z">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/);
    expect(queue).toContain('<script src="/assets/page.js" defer="">');
    const review = await (await client.get(`/reviews/${threadId}`)).text();
    expect(review).toContain(
      "Stage <strong>Research</strong> · review of the judge&#39;s evaluation",
    );
  });

  it("progress events carry the line a reviewer reads", async () => {
    const threadId = await waitingThread("Progress words");
    const events = await real.desk.events(threadId, reviewers.bo!, 0);
    const { client } = await signedIn("bo");
    const stream = await client.get(`/threads/${threadId}/events`, { accept: "text/event-stream" });
    const reader = stream.body!.getReader();
    let text = "";
    while (count(text, "\n\n") < events.length) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    const lines = text
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => (JSON.parse(l.slice(6)) as { text: string }).text);
    expect(lines).toContain("Research written");
    expect(lines).toContain("Research judged");
    expect(lines).toContain("Research is ready for review");
    for (const line of lines) expect(line).not.toMatch(/[a-z][A-Z]|_/);
  });
});

describe("a decision that came too late", () => {
  it("409: who decided what and when, a link to the history and to the next review", async () => {
    const threadId = await waitingThread("Decided first");
    const review = await real.desk.getReview(threadId, reviewers.bo!);
    const bo = await signedIn("bo");
    const ana = await signedIn("ana");
    const approve = { interruptId: review.interruptId, action: "approve" };
    const first = await ana.client.post(`/reviews/${threadId}/decisions`, {
      _csrf: ana.csrf,
      ...approve,
    });
    expect(first.status).toBe(303);
    const next = await nextReviewOf(threadId, review.interruptId);

    const late = await bo.client.post(`/reviews/${threadId}/decisions`, {
      _csrf: bo.csrf,
      ...approve,
    });
    expect(late.status).toBe(409);
    const html = await late.text();
    expect(html).toContain("<h1>Someone decided this review first</h1>");
    expect(html).toMatch(
      /<strong>ana<\/strong> approved Research at <time datetime="[^"]+Z">[^<]+ UTC<\/time>\. Your decision was not recorded\./,
    );
    expect(html).toContain(`<a href="/threads/${threadId}#decisions" id="decided-thread">`);
    expect(html).toContain(`<a href="/reviews/${threadId}" id="next-review">`);
    expect(html).toMatch(
      /id="next-review">Next review waiting for you: “[^”]*Solution Sought[^”]*”/,
    );
    expect(next.stage).toBe("solution");
    // Both links lead somewhere: the history names ana's decision, the next review opens.
    const history = await (await bo.client.get(`/threads/${threadId}`)).text();
    expect(history).toContain("<strong>ana</strong> approved <em>Research</em>");
    expect((await bo.client.get(`/reviews/${threadId}`)).status).toBe(200);

    const again = await ana.client.post(`/reviews/${threadId}/decisions`, {
      _csrf: ana.csrf,
      ...approve,
    });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("<h1>You decided this review already</h1>");
    expect((await real.desk.threadStatus(threadId, reviewers.ana!)).decisions).toHaveLength(1);
  }, 120_000);

  it("409 with who decided for a stale form of structured content while the thread runs on", async () => {
    const threadId = await waitingThread("Stale structured form");
    const review = await real.desk.getReview(threadId, reviewers.bo!);
    const bo = await signedIn("bo");
    const ana = await signedIn("ana");
    // The research page's form, as a browser sends it: its edit fields go with every button.
    const page = await (await bo.client.get(`/reviews/${threadId}`)).text();
    expect(page).toContain('name="contentForm" value="object"');
    real.server.setBehaviour({ hold: "before-response" });
    try {
      const first = await ana.client.post(`/reviews/${threadId}/decisions`, {
        _csrf: ana.csrf,
        interruptId: review.interruptId,
        action: "approve",
      });
      expect(first.status).toBe(303);
      await real.server.waitFor((server) => server.held > 0);
      for (const action of ["approve", "edit"]) {
        const late = await bo.client.post(`/reviews/${threadId}/decisions`, {
          _csrf: bo.csrf,
          interruptId: review.interruptId,
          action,
          contentForm: "object",
          "content.funder": "Calder Bay Community Foundation",
        });
        expect(late.status).toBe(409);
        const html = await late.text();
        expect(html).toContain("<h1>Someone decided this review first</h1>");
        expect(html).toMatch(/<strong>ana<\/strong> approved Research at/);
      }
    } finally {
      real.server.setBehaviour({});
      real.server.release();
    }
    await nextReviewOf(threadId, review.interruptId);
    expect((await real.desk.threadStatus(threadId, reviewers.ana!)).decisions).toHaveLength(1);
  }, 120_000);

  it("409 for a review no longer waiting, and a way back to the queue when nothing waits", async () => {
    const threadId = await waitingThread("Moved on");
    const { client, csrf } = await signedIn("bo");
    const gone = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: "an-interrupt-long-gone",
      action: "approve",
    });
    expect(gone.status).toBe(409);
    const html = await gone.text();
    expect(html).toContain("<h1>This review is no longer waiting for a decision</h1>");
    expect(html).toContain(`href="/threads/${threadId}#decisions"`);
    const empty = String(
      await jsx(DecidedFirstPage, { reviewer: "bo", csrf: "c".repeat(32), threadId }).toString(),
    );
    expect(empty).toContain('<a href="/reviews" id="back-to-queue">');
  });
});

describe("a failed evaluation", () => {
  /**
   * A desk whose writer answers and whose judge answers 500; a thread started by an admin (ana),
   * assigned to a plain reviewer (bo), waiting at its evaluation_error review.
   */
  async function judgeDownReview(rfp: string, options?: Parameters<typeof openRealDesk>[1]) {
    const failing = await openRealDesk(ollamaProposalResponder(0.85), options);
    failing.server.setBehaviour((_n, request) =>
      isWriterPrompt(request.messages) ? {} : { status: 500, error: "llama runner crashed" },
    );
    try {
      const app = createServiceApp({ desk: failing.desk, logError: () => {} });
      const admin = await failing.addReviewer("ana", "admin");
      const plain = await failing.addReviewer("bo");
      const ana = (await failing.desk.authenticate(admin))!;
      const { threadId } = await failing.desk.startProposal(
        { rfp, applicant: "Harbour Trust" },
        ana,
      );
      await failing.desk.assignReviewer(threadId, "bo", ana);
      const review = await eventually("the failed evaluation's review", async () => {
        const status = await failing.desk.threadStatus(threadId, ana);
        return status.status === "waiting" ? failing.desk.getReview(threadId, ana) : undefined;
      });
      expect(review.type).toBe("evaluation_error");
      return { failing, app, admin, plain, threadId, review };
    } catch (error) {
      await failing.close();
      throw error;
    }
  }

  it("is told in a reviewer's words; the model server's error is for administrators only", async () => {
    const {
      failing,
      app: failingApp,
      admin,
      plain,
      threadId,
      review,
    } = await judgeDownReview("Failing judge\nFlood resilience.");
    try {
      expect(review.error).toContain(failing.server.url.replace("http://", ""));

      const asReviewer = new PageClient(failingApp);
      await asReviewer.signIn(plain);
      const html = await (await asReviewer.get(`/reviews/${threadId}`)).text();
      expect(html).toContain("The judge could not evaluate this content, so it has no scores");
      expect(html).not.toContain("127.0.0.1");
      // The server's status is nowhere in what the reviewer reads (ids and tokens in attributes
      // are random, and may hold the digits 500 by chance).
      expect(html.replace(/="[^"]*"/g, '=""')).not.toMatch(/\b500\b/);
      expect(html).not.toContain("llama runner crashed");
      expect(html).not.toContain("Technical details");

      const asAdmin = new PageClient(failingApp);
      await asAdmin.signIn(admin);
      const adminHtml = await (await asAdmin.get(`/reviews/${threadId}`)).text();
      expect(adminHtml).toContain('<details class="admin-details" id="review-error-details">');
      expect(adminHtml).toContain("127.0.0.1");
    } finally {
      await failing.close();
    }
  }, 120_000);

  it("keeps the checks that need no judge: their score is shown, the model server's error is not", async () => {
    const criteriaDir = mkdtempSync(join(tmpdir(), "evalgate-judge-down-page-"));
    // Research: a check two of whose four phrases the writer's research holds, and a judged criterion.
    writeFileSync(
      join(criteriaDir, "research.json"),
      JSON.stringify({
        id: "research",
        name: "Research",
        version: "1.0.0",
        criteria: [
          {
            id: "named_priorities",
            title: "Named priorities",
            description: "Names the funder, its priority, drought and wildfire.",
            weight: 1,
            method: {
              kind: "function",
              name: "contains_all_of",
              args: ["Calder Bay Community Foundation", "flood resilience", "drought", "wildfire"],
            },
          },
          {
            id: "fit",
            title: "Mission fit",
            description: "Does the research state the funder's mission?",
            weight: 1,
            method: { kind: "score", scale: { min: 0, max: 1 } },
          },
        ],
      }),
    );
    const {
      failing,
      app: failingApp,
      plain,
      threadId,
      review,
    } = await judgeDownReview("Judge down\nFlood resilience.", {
      graph: { evaluation: { criteriaDir } },
    });
    try {
      const byId = new Map(review.evaluation?.criteria.map((c) => [c.id, c]));
      // contains_all_of: two of the four phrases are in the research, 2/4.
      expect(byId.get("named_priorities")).toMatchObject({ evaluated: true, score: 0.5 });
      expect(byId.get("fit")).toMatchObject({ evaluated: false, score: null });

      const asReviewer = new PageClient(failingApp);
      await asReviewer.signIn(plain);
      const html = await (await asReviewer.get(`/reviews/${threadId}`)).text();
      expect(html).toContain("the checks that need no judge are scored below");
      expect(html).toContain("Overall 50%");
      expect(html).toContain("<li>Mission fit: could not be evaluated</li>");
      expect(html).not.toContain("Technical details");
      // The proposal document a plain reviewer reads says the stage failed, not what failed.
      const proposal = await (await asReviewer.get(`/threads/${threadId}/proposal`)).text();
      expect(proposal).toContain("research: stopped on an error; an administrator can see");
      for (const page of [html, proposal]) {
        expect(page).not.toContain("127.0.0.1");
        expect(page.replace(/="[^"]*"/g, '=""')).not.toMatch(/\b500\b/);
        expect(page).not.toContain("llama runner crashed");
      }
    } finally {
      await failing.close();
      rmSync(criteriaDir, { recursive: true, force: true });
    }
  }, 120_000);
});
