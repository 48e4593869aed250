/**
 * A thread whose run its process stopped (the CLI's Ctrl-C: a desk that runs no jobs, its
 * `stopping` signal aborted while the writer's model call waits at the Ollama-protocol stand-in),
 * then seen through `evalgate serve`'s desk on the same file: it is stopped, never "being worked
 * on"; the service's start-up recovery leaves it to the person who goes on with it; the thread
 * page says so and offers Go on, which runs it on to its first review.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createReviewDesk, type ReviewDeskHandle } from "../../src/desk/createReviewDesk.js";
import { createServiceApp } from "../../src/service/app.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { hashToken, newReviewerToken } from "../../src/store/tokens.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";
import { apiClient } from "./apiClient.js";
import { PageClient } from "./pageClient.js";
import { eventually } from "./realDesk.js";

const MODEL = "evalgate-stopped:test";
const RETRY_FORM = 'id="retry-thread-form"';

let server: OllamaServer | undefined;
let temp: ReturnType<typeof tempDir> | undefined;
const desks: ReviewDeskHandle[] = [];

afterEach(async () => {
  for (const desk of desks.splice(0)) await desk.close();
  await server?.close();
  temp?.remove();
});

describe("a thread whose run was stopped", () => {
  it("is stopped, not worked on, until someone goes on with it; going on runs it to its review", async () => {
    server = await startOllamaServer({
      models: [MODEL],
      responder: ollamaProposalResponder(0.85),
      behaviour: { hold: "before-response" },
    });
    temp = tempDir("evalgate-stopped-");
    const sqlitePath = join(temp.dir, "checkpoints.sqlite");
    const env = { OLLAMA_BASE_URL: server.url };
    const model = `ollama:${MODEL}`;

    const stop = new AbortController();
    const command = await createReviewDesk({
      sqlitePath,
      env,
      model,
      jobs: { run: false },
      stopping: stop.signal,
    });
    desks.push(command);
    const token = newReviewerToken();
    await command.store.addReviewer("ana", "admin", hashToken(token));
    const ana = (await command.authenticate(token)) as Reviewer;
    const { threadId } = await command.startProposal(
      { rfp: "Stopped runs\nFlood resilience grants.", applicant: "Harbour Trust" },
      ana,
    );
    const advancing = command.advanceThread(threadId);
    await server.waitFor((s) => s.held >= 1);
    stop.abort();
    expect(await advancing).toBe("busy");
    await server.waitFor((s) => s.clientDisconnects >= 1);

    const stopped = await command.threadStatus(threadId, ana);
    expect(stopped.status).toBe("stopped");
    expect((await command.store.eventsAfter(threadId, 0, 500)).at(-1)).toMatchObject({
      type: "stopped",
      message:
        "the process running it was stopped; retry the thread to go on from its last finished step",
    });
    await command.close();
    desks.splice(0);

    // The service starts on the file: its recovery runs what waits for a job, not a stopped run.
    server.setBehaviour({});
    server.release();
    const served = await createReviewDesk({ sqlitePath, env, model });
    desks.push(served);
    const asked = server.chatRequests().length;
    const app = createServiceApp({ desk: served, logError: () => {} });
    const api = await apiClient(app).get(`/api/threads/${threadId}`, token);
    expect(api.body).toMatchObject({ status: "stopped" });
    const client = new PageClient(app);
    const csrf = await client.signIn(token);
    const page = await (await client.get(`/threads/${threadId}`)).text();
    expect(page).toContain("stopped before it was done; go on with it to finish");
    expect(page).not.toContain("being worked on");
    expect(page).toContain(RETRY_FORM);
    expect(page).toContain('<button type="submit">Go on</button>');
    expect(server.chatRequests()).toHaveLength(asked);

    const goOn = await client.post(`/threads/${threadId}/retry`, { _csrf: csrf });
    expect(goOn.status).toBe(303);
    await eventually("the research review", async () => {
      const status = await served.threadStatus(threadId, ana);
      if (status.status === "failed") throw new Error(`the thread failed: ${status.error}`);
      return status.status === "waiting" ? true : undefined;
    });
    expect((await served.getReview(threadId, ana)).stage).toBe("research");
    const after = await (await client.get(`/threads/${threadId}`)).text();
    expect(after).not.toContain(RETRY_FORM);
  }, 120_000);
});

describe("a thread whose process was stopping when its run began", () => {
  it("is stopped before any model call, and a retry goes on with it", async () => {
    server = await startOllamaServer({ models: [MODEL], responder: ollamaProposalResponder(0.85) });
    temp = tempDir("evalgate-stopped-early-");
    const sqlitePath = join(temp.dir, "checkpoints.sqlite");
    const env = { OLLAMA_BASE_URL: server.url };
    const model = `ollama:${MODEL}`;
    const command = await createReviewDesk({
      sqlitePath,
      env,
      model,
      jobs: { run: false },
      stopping: AbortSignal.abort(),
    });
    desks.push(command);
    const token = newReviewerToken();
    await command.store.addReviewer("ana", "admin", hashToken(token));
    const ana = (await command.authenticate(token)) as Reviewer;
    const { threadId } = await command.startProposal(
      { rfp: "Stopped early\nFlood resilience grants.", applicant: "Harbour Trust" },
      ana,
    );
    expect(await command.advanceThread(threadId)).toBe("busy");
    expect((await command.threadStatus(threadId, ana)).status).toBe("stopped");
    expect(server.chatRequests()).toHaveLength(0);
    await command.close();
    desks.splice(0);

    const served = await createReviewDesk({ sqlitePath, env, model });
    desks.push(served);
    expect(await served.retryThread(threadId, ana)).toEqual({ threadId, status: "queued" });
    await eventually("the research review", async () => {
      const status = await served.threadStatus(threadId, ana);
      if (status.status === "failed") throw new Error(`the thread failed: ${status.error}`);
      return status.status === "waiting" ? true : undefined;
    });
    expect((await served.getReview(threadId, ana)).stage).toBe("research");
  }, 120_000);
});
