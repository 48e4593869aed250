import { describe, expect, it } from "vitest";
import { createServiceApp } from "../../src/service/app.js";
import { MemoryDesk, sampleEvaluation } from "./memoryDesk.js";
import { PageClient } from "./pageClient.js";

function setup() {
  const desk = new MemoryDesk();
  const app = createServiceApp({ desk, logError: () => {} });
  const token = desk.addReviewer("ada");
  return { desk, app, token, client: new PageClient(app) };
}

describe("review pages", () => {
  it("sends a visitor without a session to sign in", async () => {
    const { client } = setup();
    const response = await client.get("/reviews");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/signin");
  });

  it("sets the session cookie HttpOnly, SameSite=Strict, Path=/, and Secure only over https", async () => {
    const { app } = setup();
    const plain = await new PageClient(app).get("/signin");
    const cookie = plain.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^evalgate_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    const secure = await new PageClient(app, "https://review.example").get("/signin");
    expect(secure.headers.get("set-cookie")).toMatch(/; Secure/);
  });

  it("refuses a sign-in with a wrong token and one without the form's CSRF token", async () => {
    const { client, token } = setup();
    const csrf = PageClient.csrfOf(await (await client.get("/signin")).text());
    const wrong = await client.post("/signin", { _csrf: csrf, token: "not-a-token" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That token is not valid.");
    const forged = await client.post("/signin", { _csrf: "x".repeat(32), token });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain("reload the page");
  });

  it("shows the queue and a review with chart, reasoning, lists, warnings and only the offered actions", async () => {
    const { desk, client, token } = setup();
    const { threadId } = await desk.startProposal(
      { rfp: "Flood resilience" },
      { name: "ada", role: "reviewer" },
    );
    const thread = desk.threads.get(threadId)!;
    thread.review!.actions = ["approve", "edit"];
    thread.review!.evaluation = sampleEvaluation({
      warnings: [
        "a: the judge gave no reasoning",
        'possible prompt injection in content (override): "ignore all"',
      ],
      humanReviewRequired: true,
    });
    await client.signIn(token);
    const queue = await (await client.get("/reviews")).text();
    expect(queue).toContain(`href="/reviews/${threadId}"`);
    const html = await (await client.get(`/reviews/${threadId}`)).text();
    expect(html).toContain("<svg");
    expect(html).toContain("Reasoning for a.");
    expect(html).toContain("hit of a");
    expect(html).toContain("miss of b");
    expect(html).toContain("Thin budget");
    expect(html).toContain("Cite the county report");
    expect(html).toContain("Possible prompt injection");
    expect(html.indexOf("possible prompt injection in content")).toBeLessThan(
      html.indexOf("the judge gave no reasoning"),
    );
    expect(html).toContain('id="approve-form"');
    expect(html).toContain('id="edit-form"');
    expect(html).not.toContain('id="revise-form"');
  });

  it("escapes a script in the content, the title and the judge's words", async () => {
    const { desk, client, token } = setup();
    const attack = "<script>alert(1)</script>";
    const { threadId } = await desk.startProposal(
      { rfp: "x", title: `T ${attack}` },
      { name: "ada", role: "reviewer" },
    );
    const review = desk.threads.get(threadId)!.review!;
    review.content = `Intro ${attack} "quoted" & more`;
    review.evaluation = sampleEvaluation({ strengths: [attack] });
    await client.signIn(token);
    const html = await (await client.get(`/reviews/${threadId}`)).text();
    expect(html).not.toContain(attack);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toMatch(/<script>(?!\s*<\/script>)/);
  });

  it("sends the security headers", async () => {
    const { client } = setup();
    const response = await client.get("/signin");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
  });

  it("approves without JavaScript: 303 to progress, which moves on to the next review once it is ready", async () => {
    const { desk, client, token } = setup();
    const { threadId } = await desk.startProposal({ rfp: "x" }, { name: "ada", role: "reviewer" });
    const csrf = await client.signIn(token);
    const first = desk.threads.get(threadId)!.review!.interruptId;
    const posted = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: csrf,
      interruptId: first,
      action: "approve",
      comment: "",
    });
    expect(posted.status).toBe(303);
    const progressUrl = posted.headers.get("location")!;
    expect(progressUrl).toBe(`/reviews/${threadId}/progress?after=${first}`);
    const waiting = await client.get(progressUrl);
    const html = await waiting.text();
    expect(waiting.status).toBe(200);
    expect(html).toContain('<noscript><meta http-equiv="refresh"');
    expect(html).toContain('src="/assets/progress.js"');
    desk.advance(threadId);
    const ready = await client.get(progressUrl);
    expect(ready.status).toBe(303);
    expect(ready.headers.get("location")).toBe(`/reviews/${threadId}`);
  });

  it("refuses a decision form without the session's CSRF token, and records nothing", async () => {
    const { desk, client, token } = setup();
    const { threadId } = await desk.startProposal({ rfp: "x" }, { name: "ada", role: "reviewer" });
    await client.signIn(token);
    const interruptId = desk.threads.get(threadId)!.review!.interruptId;
    const response = await client.post(`/reviews/${threadId}/decisions`, {
      _csrf: "forged-token-forged-token",
      interruptId,
      action: "approve",
    });
    expect(response.status).toBe(403);
    expect(desk.threads.get(threadId)!.status.decisions).toEqual([]);
  });
});
