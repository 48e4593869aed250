/**
 * The proposal in the review service, on the real desk with the Ollama-protocol stand-in writing
 * and judging: `GET /api/threads/:id/proposal` (JSON, or Markdown by query or Accept header, with
 * a download name), the proposal page linked from the thread page (a draft while the run goes on,
 * section text containing markup shown as text), the review's round and the feedback it answers
 * (API and page), and structured content on the review page — shown as labelled fields, edited one
 * text area per field, a refused edit shown again with what was typed, prose refused by the API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderProposal } from "../../src/cli/outputFile.js";
import type { ReviewDetail } from "../../src/desk/answers.js";
import type { ProposalDocument } from "../../src/proposal/document.js";
import { createServiceApp } from "../../src/service/app.js";
import { isWriterPrompt, ollamaProposalResponder } from "../devserver/proposalResponder.js";
import type { OllamaResponder } from "../doubles/index.js";
import { SECTION_IDS, STAGE_IDS } from "../proposalStages.js";
import { apiClient, errorOf } from "./apiClient.js";
import { PageClient } from "./pageClient.js";
import { eventually, openRealDesk, type RealDesk } from "./realDesk.js";

const MARKUP = '<script>alert("s")</script><img src=x onerror=alert(2)>';

/** A budget as a model writes it: a GFM table, one cell with markup and one with a script link. */
const BUDGET_TABLE = [
  "| Item | Amount |",
  "|---|---:|",
  "| Retrofit crews | $120,000 |",
  "| [Sensors](javascript:alert(3)) <b>x</b> | $30,000 |",
].join("\n");

/** The stand-in, with markup in every section the writer writes. */
function markupWriter(): OllamaResponder {
  const answer = ollamaProposalResponder(0.85);
  return async (request, n) => {
    const text = await answer(request, n);
    if (!isWriterPrompt(request.messages) || text.trimStart().startsWith("{")) return text;
    return `${text}\n\n## Risks ${MARKUP}\n\n- first risk\n- second **risk**\n\n${BUDGET_TABLE}`;
  };
}

let real: RealDesk;
let app: ReturnType<typeof createServiceApp>;
let api: ReturnType<typeof apiClient>;
let ana: string;
let bo: string;

beforeAll(async () => {
  real = await openRealDesk(markupWriter());
  app = createServiceApp({ desk: real.desk, logError: () => {} });
  api = apiClient(app);
  ana = await real.addReviewer("ana");
  bo = await real.addReviewer("bo");
}, 60_000);

afterAll(async () => {
  await real?.close();
});

/** The title the stand-in's research gives every proposal here. */
const PROPOSAL_TITLE =
  "Cool and Dry Homes — a proposal by Harbor Neighbors Alliance to Calder Bay Community Foundation";

async function start(title: string): Promise<string> {
  const started = await api.post("/api/proposals", ana, {
    rfp: `${title}\nGrants for coastal resilience.`,
    applicant: "Harbour Trust, retrofit crews since 2012.",
    title,
  });
  expect(started.status).toBe(202);
  return (started.body as { threadId: string }).threadId;
}

/** The review the thread waits for once it is ready (after `previous`, when given). */
async function nextReview(threadId: string, previous?: string): Promise<ReviewDetail> {
  return eventually(`a review of ${threadId}`, async () => {
    const answer = await api.get(`/api/reviews/${threadId}`, ana);
    if (answer.status !== 200) return undefined;
    const review = answer.body as ReviewDetail;
    return review.interruptId === previous ? undefined : review;
  });
}

async function decide(threadId: string, review: ReviewDetail, body: Record<string, unknown>) {
  return api.post(`/api/reviews/${threadId}/decisions`, ana, {
    interruptId: review.interruptId,
    ...body,
  });
}

async function finished(threadId: string) {
  return eventually(`${threadId} finished`, async () => {
    const status = await api.get(`/api/threads/${threadId}`, ana);
    return (status.body as { status: string }).status === "finished" ? true : undefined;
  });
}

describe("the proposal route and page", () => {
  it("gives a draft while the run goes on, then the whole proposal: JSON, Markdown by query or Accept", async () => {
    const threadId = await start("Dune Grants 2027");
    let review = await nextReview(threadId);
    const draft = await api.get(`/api/threads/${threadId}/proposal`, ana);
    expect(draft.status).toBe(200);
    const drafted = draft.body as ProposalDocument;
    expect(drafted.state).toBe("draft");
    // Titled as a proposal, from its research; the RFP's title as the request it answers.
    expect(drafted.title).toBe(PROPOSAL_TITLE);
    expect(drafted.respondsTo).toBe("Dune Grants 2027");
    // The queue, the review and the thread name it the same way, as plain text.
    expect(review.title).toBe(`${PROPOSAL_TITLE}: Research Evaluation Review`);
    const queue = (await api.get("/api/reviews", ana)).body as { items: Array<{ title: string }> };
    expect(queue.items.map((i) => i.title)).toContain(
      `${PROPOSAL_TITLE}: Research Evaluation Review`,
    );
    const named = (await api.get(`/api/threads/${threadId}`, ana)).body as { title: string };
    expect(named.title).toBe(PROPOSAL_TITLE);
    expect(drafted.pending.map((p) => p.stage)).toEqual([...STAGE_IDS]);
    expect(drafted.pending[0]?.status).toBe("awaiting_review");

    for (const stage of STAGE_IDS) {
      expect(review.stage).toBe(stage);
      expect((await decide(threadId, review, { action: "approve" })).status).toBe(202);
      if (stage !== "conclusion") review = await nextReview(threadId, review.interruptId);
    }
    await finished(threadId);

    const json = await api.get(`/api/threads/${threadId}/proposal`, ana);
    const document = json.body as ProposalDocument;
    expect(document.state).toBe("complete");
    expect(document.sections.map((s) => s.stage)).toEqual([...SECTION_IDS]);
    expect(document.gates.map((g) => [g.stage, g.verdict, g.passed])).toEqual(
      STAGE_IDS.map((s) => [s, "pass", true]),
    );
    expect(document.gates[0]?.decisions).toMatchObject([{ action: "approve", reviewer: "ana" }]);

    const md = await api.get(`/api/threads/${threadId}/proposal?format=md`, ana);
    expect(md.status).toBe(200);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(md.headers.get("content-disposition")).toBe(
      `attachment; filename="proposal-${threadId}.md"`,
    );
    const text = md.body as string;
    expect(text.startsWith(`# ${PROPOSAL_TITLE}\n\n_In response to Dune Grants 2027_\n`)).toBe(
      true,
    );
    expect(text).not.toMatch(/<script|<img/);
    expect(text).toContain("\n#### Risks &lt;script>");
    const accepted = await app.request(`http://127.0.0.1/api/threads/${threadId}/proposal`, {
      headers: { authorization: `Bearer ${ana}`, accept: "text/markdown, */*;q=0.1" },
    });
    expect(accepted.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await accepted.text()).toBe(text);

    // The proposal page, linked from the thread page, shows the section's markup as text.
    const client = new PageClient(app);
    await client.signIn(ana);
    const thread = await (await client.get(`/threads/${threadId}`)).text();
    expect(thread).toContain(`<a href="/threads/${threadId}/proposal">Read the proposal</a>`);
    const page = await client.get(`/threads/${threadId}/proposal`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).toContain(
      "&lt;script&gt;alert(&quot;s&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;",
    );
    expect(html).toContain("<li>second <strong>risk</strong></li>");
    // The budget's table is a table on the page and in the HTML file `show --format html` writes.
    const table = '<td>Retrofit crews</td>\n<td style="text-align:right">$120,000</td>';
    expect(html).toContain('<div class="table-scroll"><table>');
    expect(html).toContain(table);
    expect(html).toContain("<td>[Sensors](javascript:alert(3)) &lt;b&gt;x&lt;/b&gt;</td>");
    expect(html).not.toContain('javascript:alert(3)"');
    const file = await renderProposal(document, "html");
    expect(file).toContain('<div class="table-scroll"><table>');
    expect(file).toContain(table);
    expect(file).not.toMatch(/<script|<img|<b>|href="javascript/);
    expect(html).not.toContain('id="draft-notice"');
    expect(html).toContain(`href="/threads/${threadId}/proposal.md"`);
    const download = await client.get(`/threads/${threadId}/proposal.md`);
    expect(download.headers.get("content-disposition")).toContain(`proposal-${threadId}.md`);
    expect(await download.text()).toBe(text);
  }, 120_000);

  it("answers 400 for an unknown format, 401 without a token, 403 to a reviewer not on the thread, 404 for no thread", async () => {
    const threadId = await start("Access checks");
    await nextReview(threadId);
    const bad = await api.get(`/api/threads/${threadId}/proposal?format=xml`, ana);
    expect(bad.status).toBe(400);
    expect(errorOf(bad).code).toBe("INVALID_INPUT");
    expect((await api.get(`/api/threads/${threadId}/proposal`)).status).toBe(401);
    expect(errorOf(await api.get(`/api/threads/${threadId}/proposal`, bo)).code).toBe(
      "NOT_ASSIGNED",
    );
    expect((await api.get("/api/threads/no-such-thread/proposal", ana)).status).toBe(404);
    // The page draws the draft, marked as such.
    const client = new PageClient(app);
    await client.signIn(ana);
    const thread = await (await client.get(`/threads/${threadId}`)).text();
    expect(thread).toContain("Read the draft so far");
    const html = await (await client.get(`/threads/${threadId}/proposal`)).text();
    expect(html).toContain('id="draft-notice"');
    // The same words for the same status on the thread's page, its proposal and its Markdown.
    expect(thread).toMatch(/<td>Research<\/td><td>waiting for a reviewer<\/td>/);
    expect(html).toContain("Research (waiting for a reviewer)");
    const markdown = await (await client.get(`/threads/${threadId}/proposal.md`)).text();
    expect(markdown).toContain("Research (waiting for a reviewer)");
    expect(`${html}${markdown}`).not.toMatch(/awaiting.review/);
  }, 60_000);
});

describe("reviews of structured content and revised versions", () => {
  it("numbers the rounds and shows the feedback a revised version answers, in the API and on the page", async () => {
    const threadId = await start("Rounds");
    const first = await nextReview(threadId);
    expect(first.round).toEqual({ number: 1, max: 4 });
    const feedback = "List the eligibility rules <b>as stated</b>.";
    expect((await decide(threadId, first, { action: "revise", feedback })).status).toBe(202);
    const second = await nextReview(threadId, first.interruptId);
    expect(second.stage).toBe("research");
    expect(second.round).toEqual({ number: 2, max: 4, feedback });
    const client = new PageClient(app);
    await client.signIn(ana);
    const html = await (await client.get(`/reviews/${threadId}`)).text();
    expect(html).toContain("round 2 of at most 4");
    expect(html).toContain("This version answers the feedback of round 1:");
    expect(html).toContain(
      '<blockquote class="text">List the eligibility rules &lt;b&gt;as stated&lt;/b&gt;.</blockquote>',
    );
  }, 60_000);

  it("shows the research as labelled fields, edits it one text area per field, and keeps what was typed when refused", async () => {
    const threadId = await start("Fields");
    const review = await nextReview(threadId);
    expect(review.contentKind).toBe("object");
    const client = new PageClient(app);
    const csrf = await client.signIn(ana);
    const html = await (await client.get(`/reviews/${threadId}`)).text();
    expect(html).toContain('<section id="content" data-content-kind="object">');
    expect(html).toContain("<dt>Funder</dt>");
    expect(html).toContain("<li>flood resilience</li>");
    expect(html).not.toContain("&quot;funder&quot;");
    expect(html).toContain('<textarea id="edit-funder" name="content.funder"');
    expect(html).toContain(
      '<label for="edit-priorities">Priorities (required, one a line)</label>',
    );
    expect(html).toContain('<label for="edit-sources">Sources (one a line)</label>');

    // A field of the wrong kind for its content cannot be posted: a hostile key is refused.
    const refused = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: review.interruptId,
      action: "edit",
      contentForm: "object",
      "content.funder": "Coastal Fund <i>typed</i>",
      "content.__proto__": "x",
    });
    expect(refused.status).toBe(400);
    const again = await refused.text();
    expect(again).toContain('id="edit-problems"');
    expect(again).toContain("is not a field name");
    expect(again).toContain("Coastal Fund &lt;i&gt;typed&lt;/i&gt;</textarea>");
    // Every field of the form is back, those left empty too.
    expect(again).toContain('<textarea id="edit-priorities" name="content.priorities"');
    expect(again).toContain('<textarea id="edit-sources" name="content.sources"');
    const reviewer = (await real.desk.authenticate(ana))!;
    expect((await real.desk.threadStatus(threadId, reviewer)).decisions).toEqual([]);

    // A required field emptied is refused by name, with what was typed kept; nothing is decided.
    const emptied = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: review.interruptId,
      action: "edit",
      contentForm: "object",
      "content.funder": "",
      "content.priorities": "- kept priority",
    });
    expect(emptied.status).toBe(400);
    const emptiedPage = await emptied.text();
    expect(emptiedPage).toContain("Funder: is required: it cannot be left out or emptied");
    expect(emptiedPage).toContain("- kept priority</textarea>");
    expect((await real.desk.threadStatus(threadId, reviewer)).decisions).toEqual([]);

    const saved = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: review.interruptId,
      action: "edit",
      contentForm: "object",
      "content.funder": "Coastal Fund",
      "content.priorities": "- dune planting\n\n* tenant safety\n",
      "content.sources": "",
    });
    expect(saved.status).toBe(303);
    const next = await nextReview(threadId, review.interruptId);
    expect(next.stage).toBe("solution");
    const document = (await api.get(`/api/threads/${threadId}/proposal`, ana))
      .body as ProposalDocument;
    expect(document.inputs[0]).toMatchObject({
      stage: "research",
      status: "edited",
      content: { funder: "Coastal Fund", priorities: ["dune planting", "tenant safety"] },
    });
    // The thread page's stages table: the edited stage's score is the replaced content's.
    const threadPage = await (await client.get(`/threads/${threadId}`)).text();
    const stages = threadPage.slice(threadPage.indexOf('id="stages"'));
    const rows = stages.slice(0, stages.indexOf("</table>")).split("<tr>").slice(2);
    const researchRow = rows.find((row) => row.includes("edited by a reviewer")) ?? "";
    expect(researchRow).toMatch(/\d+%\s*\(before the edit\)/);
    expect(rows.filter((row) => row.includes("(before the edit)"))).toHaveLength(1);
  }, 60_000);

  it("edits connection pairs as one group of fields per pair: an emptied required field is refused by name, typed values kept", async () => {
    const threadId = await start("Pairs");
    let review = await nextReview(threadId);
    for (const stage of ["research", "solution"]) {
      expect(review.stage).toBe(stage);
      await decide(threadId, review, { action: "approve" });
      review = await nextReview(threadId, review.interruptId);
    }
    expect(review).toMatchObject({ stage: "connection_pairs", contentKind: "list" });
    const client = new PageClient(app);
    const csrf = await client.signIn(ana);
    const html = await (await client.get(`/reviews/${threadId}`)).text();
    expect(html).toContain('name="content.0.funderNeed"');
    expect(html).toContain("<legend>New pair</legend>");
    const form = {
      _csrf: csrf,
      interruptId: review.interruptId,
      action: "edit",
      contentForm: "list",
      "content.0.funderNeed": "fewer displaced households",
      "content.0.applicantCapability": "",
      "content.1.funderNeed": "tenant outreach",
      "content.1.applicantCapability": "door-to-door volunteers",
      "content.1.strength": "moderate",
    };
    const refused = await client.post(`/reviews/${threadId}/decisions`, form);
    expect(refused.status).toBe(400);
    const again = await refused.text();
    expect(again).toContain("Applicant capability (pair 1): is required");
    expect(again).toContain("door-to-door volunteers</textarea>");
    // As a browser posts it: pair 1 emptied to remove it, pair 2 at fault, the two new pairs
    // blank. The problem names pair 2 and marks its field; the blanks come back as new pairs.
    const blank = { funderNeed: "", applicantCapability: "", strength: "", evidence: "" };
    const fields = (index: number, values: Record<string, string>) =>
      Object.fromEntries(Object.entries(values).map(([k, v]) => [`content.${index}.${k}`, v]));
    const shifted = await client.post(`/reviews/${threadId}/decisions`, {
      ...{ _csrf: csrf, interruptId: review.interruptId, action: "edit", contentForm: "list" },
      ...fields(0, blank),
      ...fields(1, { ...blank, funderNeed: "tenant outreach" }),
      ...fields(2, blank),
      ...fields(3, blank),
    });
    expect(shifted.status).toBe(400);
    const shiftedPage = await shifted.text();
    expect(shiftedPage).toContain("Applicant capability (pair 2): is required");
    expect(shiftedPage).toMatch(/id="edit-1-applicantCapability"[^>]*aria-invalid="true"/);
    expect(shiftedPage).not.toMatch(/id="edit-0-applicantCapability"[^>]*aria-invalid/);
    expect(shiftedPage.split("<legend>New pair</legend>")).toHaveLength(3);
    expect(shiftedPage).not.toContain("<legend>Pair 3</legend>");
    const saved = await client.post(`/reviews/${threadId}/decisions`, {
      ...form,
      "content.0.applicantCapability": "retrofitted 120 homes",
    });
    expect(saved.status).toBe(303);
    const section = await nextReview(threadId, review.interruptId);
    expect(section).toMatchObject({ stage: "problem_statement", contentKind: "text" });
    // A section is text: JSON fields sent in its place are refused, not kept as its prose.
    for (const content of [{ text: "Flooding displaced 1,240 households." }, ["a", "b"]]) {
      const fields = await decide(threadId, section, { action: "edit", content });
      expect(fields.status).toBe(400);
      expect(errorOf(fields)).toMatchObject({ code: "INVALID_INPUT", field: "content" });
      expect(errorOf(fields).message).toContain("the Problem Statement takes text");
    }
    const document = (await api.get(`/api/threads/${threadId}/proposal`, ana))
      .body as ProposalDocument;
    expect(document.inputs[2]?.content).toEqual([
      { funderNeed: "fewer displaced households", applicantCapability: "retrofitted 120 homes" },
      {
        funderNeed: "tenant outreach",
        applicantCapability: "door-to-door volunteers",
        strength: "moderate",
      },
    ]);
  }, 60_000);

  it("the API takes structured content as JSON by the edit rule and refuses prose in its place", async () => {
    const threadId = await start("API edits");
    const review = await nextReview(threadId);
    const prose = await decide(threadId, review, {
      action: "edit",
      content: "The funder is the Coastal Fund.",
    });
    expect(prose.status).toBe(400);
    expect(errorOf(prose)).toMatchObject({ code: "INVALID_INPUT", field: "content" });
    expect(errorOf(prose).message).toContain("plain text cannot replace it");
    const wrong = await decide(threadId, review, {
      action: "edit",
      content: JSON.stringify({ funder: ["not", "text"] }),
    });
    expect(errorOf(wrong).message).toContain("; funder: takes text, not a list");
    // A wrong type is refused, not turned into text; a required field cannot be emptied.
    const number = await decide(threadId, review, { action: "edit", content: '{"funder": 42}' });
    expect(errorOf(number).message).toContain("; funder: takes text, not a number");
    const emptied = await decide(threadId, review, {
      action: "edit",
      content: '{"priorities": []}',
    });
    expect(errorOf(emptied).message).toContain("; priorities: is required");
    // The JSON object itself is taken too, checked the same way.
    const object = await decide(threadId, review, {
      action: "edit",
      content: { funder: "Coastal Fund", sources: [{ page: 2 }] },
    });
    expect(object.status).toBe(400);
    expect(errorOf(object)).toMatchObject({ code: "INVALID_INPUT", field: "content" });
    expect(errorOf(object).message).toContain("; sources item 1: each item takes text");
    const before = (await api.get(`/api/threads/${threadId}/proposal`, ana))
      .body as ProposalDocument;
    // A partial edit: the fields it gives replace theirs, the others are kept.
    const json = await decide(threadId, review, {
      action: "edit",
      content: { funder: "Coastal Fund", priorities: ["dunes"] },
    });
    expect(json.status).toBe(202);
    await nextReview(threadId, review.interruptId);
    const document = (await api.get(`/api/threads/${threadId}/proposal`, ana))
      .body as ProposalDocument;
    expect(document.inputs[0]?.content).toEqual({
      ...(before.inputs[0]?.content as object),
      funder: "Coastal Fund",
      priorities: ["dunes"],
    });
  }, 60_000);
});
