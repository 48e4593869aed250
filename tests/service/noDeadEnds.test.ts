/**
 * No dead ends on the review pages, on the real desk with the Ollama-protocol stand-in writing and
 * judging: an empty queue says how work arrives; an administrator starts a proposal from the
 * queue (the request and the applicant as text or as files) through the desk call the API uses,
 * refused in words with what was typed kept; the finished proposals are a tab of the queue; a
 * finished proposal's review link answers 409 with the proposal linked and the reader in the
 * header; error pages say words, their code only in a details line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TEXT_CHARS } from "../../src/desk/requests.js";
import { createServiceApp } from "../../src/service/app.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { STAGE_IDS } from "../proposalStages.js";
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
    ["cy", "reviewer"],
  ] as const) {
    tokens[name] = await real.addReviewer(name, role);
    const reviewer = await real.desk.authenticate(tokens[name] ?? "");
    if (reviewer === undefined) throw new Error(`no reviewer ${name}`);
    reviewers[name] = reviewer;
  }
}, 60_000);

afterAll(async () => {
  await real?.close();
});

async function signedIn(name: string): Promise<{ client: PageClient; csrf: string }> {
  const client = new PageClient(app);
  const csrf = await client.signIn(tokens[name] ?? "");
  return { client, csrf };
}

function admin(): Reviewer {
  const ana = reviewers.ana;
  if (ana === undefined) throw new Error("no ana");
  return ana;
}

async function waitingReview(threadId: string, after?: string) {
  return eventually(`a review of ${threadId}`, async () => {
    const status = await real.desk.threadStatus(threadId, admin());
    if (status.status === "failed") throw new Error(`the thread failed: ${status.error}`);
    if (status.status !== "waiting") return undefined;
    const review = await real.desk.getReview(threadId, admin());
    return review.interruptId === after ? undefined : review;
  });
}

function startForm(csrf: string, fields: Record<string, string | File>): FormData {
  const form = new FormData();
  form.set("_csrf", csrf);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

describe("the queue, empty", () => {
  it("says how work arrives: the command to run, and the form below", async () => {
    const { client } = await signedIn("cy");
    const html = await (await client.get("/reviews")).text();
    expect(html).toContain("Nothing is waiting for your review right now.");
    expect(html).toContain("Proposals arrive here when a run pauses for review");
    expect(html).toContain("<code>npx evalgate run rfp.md --applicant applicant.md</code>");
    expect(html).toContain("Start one with the form below");
    expect(html).toContain('enctype="multipart/form-data"');
    expect(html).toContain('<form method="post" action="/proposals"');
    expect(html).toContain('<a href="/proposals/finished" class="tab">Finished</a>');
  });
});

describe("starting a proposal from the pages", () => {
  it("takes the request and the applicant as text, starts the thread and follows it", async () => {
    const { client, csrf } = await signedIn("ana");
    const posted = await client.postMultipart(
      "/proposals",
      startForm(csrf, {
        title: "Typed on the page",
        rfp: "Harbour Grants 2027\nFlood resilience for coastal towns.",
        applicant: "Harbour Trust, retrofit crews since 2012.",
      }),
    );
    expect(posted.status).toBe(303);
    const where = posted.headers.get("location") ?? "";
    const threadId = /^\/reviews\/([^/]+)\/progress$/.exec(where)?.[1];
    if (threadId === undefined) throw new Error(`went to ${where}`);
    const thread = await real.desk.store.thread(threadId);
    expect(thread?.title).toBe("Typed on the page");
    expect(thread?.creator).toBe("ana");
    expect(thread?.settings.input).toEqual({
      rfpDocument: "Harbour Grants 2027\nFlood resilience for coastal towns.",
      applicantInput: "Harbour Trust, retrofit crews since 2012.",
    });
    const review = await waitingReview(threadId);
    expect(review.stage).toBe(STAGE_IDS[0]);
    const progress = await client.get(where);
    expect(progress.status).toBe(303);
  });

  it("takes them as files: UTF-8 text read as it is, the title from the request's first line", async () => {
    const { client, csrf } = await signedIn("ana");
    const rfp = new File(["\uFEFFDune Fund — Call 3\nRestoring dunes, ½ match.\n"], "rfp.md", {
      type: "text/markdown",
    });
    const applicant = new File(["Coastal Care, since 2009."], "applicant.txt");
    const posted = await client.postMultipart(
      "/proposals",
      startForm(csrf, { rfp: "", applicant: "", rfpFile: rfp, applicantFile: applicant }),
    );
    expect(posted.status).toBe(303);
    const threadId = /^\/reviews\/([^/]+)\/progress$/.exec(
      posted.headers.get("location") ?? "",
    )?.[1];
    const thread = await real.desk.store.thread(threadId ?? "");
    expect(thread?.settings.input).toEqual({
      rfpDocument: "Dune Fund — Call 3\nRestoring dunes, ½ match.",
      applicantInput: "Coastal Care, since 2009.",
    });
    expect(thread?.title).toBe("A proposal in response to Dune Fund — Call 3");
  });

  it("refuses in words, the code only in a details line, with what was typed kept", async () => {
    const { client, csrf } = await signedIn("ana");
    const before = (await real.desk.store.listThreads({ status: "queued", limit: 1000 })).length;
    const missing = await client.postMultipart(
      "/proposals",
      startForm(csrf, { title: "Half <typed>", rfp: "Kept request text", applicant: " " }),
    );
    expect(missing.status).toBe(400);
    const html = await missing.text();
    expect(html).toContain(
      '<p class="error-words">The proposal was not started. The applicant is missing: paste it, or choose its file.</p>',
    );
    expect(html).toContain(
      '<p class="muted error-details">Details: INVALID_INPUT, field applicant.</p>',
    );
    expect(html).not.toContain("[INVALID_INPUT]");
    expect(html).toContain('name="rfp" rows="6" maxlength="200000">Kept request text</textarea>');
    expect(html).toContain('value="Half &lt;typed&gt;"');

    const both = await client.postMultipart(
      "/proposals",
      startForm(csrf, { rfp: "typed", rfpFile: new File(["filed"], "rfp.md"), applicant: "a" }),
    );
    expect(both.status).toBe(400);
    expect(await both.text()).toContain(
      "Give the request for proposals as text or as a file, not both.",
    );

    const binary = await client.postMultipart(
      "/proposals",
      startForm(csrf, {
        rfp: "a request",
        applicantFile: new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff])], "a.docx"),
      }),
    );
    expect(binary.status).toBe(400);
    const binaryHtml = await binary.text();
    expect(binaryHtml).toContain("The file of the applicant (a.docx) is not a text file");
    expect(binaryHtml).toContain("Details: INVALID_INPUT, field applicantFile.");

    const long = await client.postMultipart(
      "/proposals",
      startForm(csrf, { rfp: "x".repeat(MAX_TEXT_CHARS + 1), applicant: "a" }),
    );
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("Details: INVALID_INPUT, field rfp.");

    const after = (await real.desk.store.listThreads({ status: "queued", limit: 1000 })).length;
    expect(after).toBe(before);
  });

  it("follows the API's rule (any signed-in reader), and refuses a form without the session's CSRF token", async () => {
    // A reviewer may start a proposal through POST /api/proposals; the page gives them the same.
    const { client, csrf } = await signedIn("bo");
    const started = await client.postMultipart(
      "/proposals",
      startForm(csrf, { rfp: "a request", applicant: "an applicant" }),
    );
    expect(started.status).toBe(303);

    const { client: adminClient } = await signedIn("ana");
    const stale = await adminClient.postMultipart(
      "/proposals",
      startForm("not-the-token", { rfp: "a request", applicant: "an applicant" }),
    );
    expect(stale.status).toBe(403);
    expect(await stale.text()).toContain("Details: CSRF_REJECTED, field _csrf.");
  });
});

describe("a finished proposal", () => {
  let threadId: string;

  beforeAll(async () => {
    const ana = admin();
    const started = await real.desk.startProposal(
      { rfp: "Finish Line Grants\nFor finishing.", applicant: "Harbour Trust", title: "Done deal" },
      ana,
    );
    threadId = started.threadId;
    await real.desk.assignReviewer(threadId, "bo", ana);
    let after: string | undefined;
    for (const _stage of STAGE_IDS) {
      const review = await waitingReview(threadId, after);
      await real.desk.decide(threadId, { interruptId: review.interruptId, action: "approve" }, ana);
      after = review.interruptId;
    }
    await eventually("the thread finished", async () =>
      (await real.desk.threadStatus(threadId, ana)).status === "finished" ? true : undefined,
    );
  }, 120_000);

  it("is listed under Finished for its reviewers, linked to its proposal, and not for others", async () => {
    const { client } = await signedIn("bo");
    const html = await (await client.get("/proposals/finished")).text();
    expect(html).toContain('<a href="/proposals/finished" class="tab" aria-current="page">');
    expect(html).toContain(`<a href="/threads/${threadId}/proposal">Done deal</a>`);
    expect(html).toContain(`<a href="/threads/${threadId}">Stages and decisions</a>`);
    const { client: other } = await signedIn("cy");
    const none = await (await other.get("/proposals/finished")).text();
    expect(none).not.toContain(threadId);
    expect(none).toContain('id="finished-empty"');
    const bad = await client.get("/proposals/finished?cursor=not-ours");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('<span class="who">bo</span>');
  });

  it("has a progress page that says it is done once, in words, and links the proposal", async () => {
    const { client } = await signedIn("bo");
    const html = await (await client.get(`/reviews/${threadId}/progress`)).text();
    expect(html).toContain('Status: <strong id="thread-status">finished</strong>');
    expect(html).toContain("<h2>Every stage is done</h2>");
    expect(html.match(/finished/gi)).toHaveLength(1);
    expect(html).toContain(`<a href="/threads/${threadId}/proposal">Read the proposal</a>`);
  });

  it("answers its old review link with 409, the proposal linked and the reader in the header", async () => {
    const { client } = await signedIn("bo");
    const gone = await client.get(`/reviews/${threadId}`);
    expect(gone.status).toBe(409);
    const html = await gone.text();
    expect(html).toContain("<h1>This proposal is finished</h1>");
    expect(html).toContain(
      `<a href="/threads/${threadId}/proposal" id="decided-proposal">Read the proposal</a>`,
    );
    expect(html).toContain(`href="/threads/${threadId}#decisions"`);
    expect(html).toContain('<span class="who">bo</span>');
  });
});

describe("an error page", () => {
  it("names the signed-in reader in its header and says words, the code in a details line", async () => {
    const { client } = await signedIn("bo");
    const missing = await client.get("/threads/no-such-thread");
    expect(missing.status).toBe(404);
    const html = await missing.text();
    expect(html).toContain('<span class="who">bo</span>');
    expect(html).toContain("<h1>Not found</h1>");
    expect(html).toMatch(/<p class="error-words">No thread [^<]*\.<\/p>/);
    expect(html).toContain("Details: THREAD_NOT_FOUND.");
    expect(html).not.toMatch(/error-words">[^<]*\[THREAD_NOT_FOUND\]/);
  });
});
