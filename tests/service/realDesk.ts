/**
 * The real review desk for the service tests: a temp SQLite data folder, the in-process job queue,
 * and the Ollama-protocol test server at the LLM boundary (it answers the writer's and the judge's
 * prompts). Reviewers get tokens through the store, as `evalgate reviewers add` does.
 */
import { join } from "node:path";
import {
  createReviewDesk,
  type ReviewDeskHandle,
  type ReviewDeskOptions,
} from "../../src/desk/createReviewDesk.js";
import type { Reviewer } from "../../src/store/reviewers.js";
import { hashToken, newReviewerToken } from "../../src/store/tokens.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaResponder, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { tempDir } from "../orchestrator/helpers.js";

const MODEL = "evalgate-service:test";

export interface RealDesk {
  desk: ReviewDeskHandle;
  server: OllamaServer;
  /** Adds a reviewer and returns the token they sign in with. */
  addReviewer(name: string, role?: Reviewer["role"]): Promise<string>;
  close(): Promise<void>;
}

export async function openRealDesk(
  responder: OllamaResponder = ollamaProposalResponder(0.85),
  options: Pick<ReviewDeskOptions, "maxRevisions" | "graph"> = {},
) {
  const server = await startOllamaServer({ models: [MODEL], responder });
  const temp = tempDir("evalgate-service-");
  const desk = await createReviewDesk({
    sqlitePath: join(temp.dir, "checkpoints.sqlite"),
    env: { OLLAMA_BASE_URL: server.url },
    model: `ollama:${MODEL}`,
    ...options,
  });
  let closed = false;
  const real: RealDesk = {
    desk,
    server,
    async addReviewer(name, role = "reviewer") {
      const token = newReviewerToken();
      await desk.store.addReviewer(name, role, hashToken(token));
      return token;
    },
    async close() {
      if (closed) return;
      closed = true;
      await desk.close();
      await server.close();
      temp.remove();
    },
  };
  return real;
}

/**
 * Polls until `check` gives a value. Jobs run in the background; the attempt limit only keeps a
 * broken test from hanging, it measures nothing.
 */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 2400; attempt += 1) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** Starts a proposal on the desk as `reviewer` and waits for its first review (the research's). */
export async function firstReviewOfNewProposal(desk: ReviewDeskHandle, reviewer: Reviewer) {
  const { threadId } = await desk.startProposal(
    { rfp: "Calder Bay flood resilience grants.", applicant: "Harbour Trust", title: "Bay" },
    reviewer,
  );
  const review = await eventually("the research review", async () => {
    try {
      return await desk.getReview(threadId, reviewer);
    } catch {
      return undefined;
    }
  });
  return { threadId, review };
}
