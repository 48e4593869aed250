/**
 * `evalgate run --judge … --judge … --judge …`: the model writes, a panel of three judges on the
 * Ollama-protocol test server judges every stage, the review shows each judge's answer and the
 * agreement, and the panel is kept with the thread for `run --thread`.
 */

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReviewStore } from "../../src/store/index.js";
import { answerPrompt, isWriterPrompt } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  APPLICANT,
  answers,
  DB,
  evalgate,
  MODEL,
  RFP,
  serverEnv,
  startEvalgate,
  threadIdOf,
  workFolders,
} from "./reviewHarness.js";

/** Each judge's 0–1 score, the same on every criterion. */
const UNITS: Readonly<Record<string, number>> = { "judge-a": 0.9, "judge-b": 0.8, "judge-c": 0.3 };
const JUDGES = Object.keys(UNITS);
const PANEL = JUDGES.flatMap((judge) => ["--judge", `ollama:${judge}`]);

let server: OllamaServer;
const freshFolder = workFolders();

beforeAll(async () => {
  server = await startOllamaServer({
    models: [MODEL, ...JUDGES],
    responder: (request) => answerPrompt(request.messages, UNITS[request.model] ?? 0.85),
  });
});
afterAll(async () => {
  await server?.close();
});

/** The models the server was asked by writer prompts, and by judge prompts. */
function modelsAsked() {
  const requests = server.chatRequests();
  const writers = new Set(requests.filter((r) => isWriterPrompt(r.messages)).map((r) => r.model));
  const judges = new Set(requests.filter((r) => !isWriterPrompt(r.messages)).map((r) => r.model));
  return { writers, judges };
}

describe("evalgate run with a panel of judges", { timeout: 240_000 }, () => {
  it("the model writes, three judges judge; the review shows their answers, agreement and the hold", async () => {
    const cwd = await freshFolder();
    const first = await evalgate(
      ["run", "rfp.md", "--applicant", "applicant.md", ...PANEL, "--min-agreement", "0.5"],
      { cwd, env: serverEnv(server), stdin: answers("q") },
    );
    expect(first.stderr).not.toContain("evalgate:");
    expect(first.code).toBe(0);
    const threadId = threadIdOf(first.stdout);
    const asked = modelsAsked();
    expect([...asked.writers]).toEqual([MODEL]);
    expect([...asked.judges].sort()).toEqual(JUDGES);

    // Research has five criteria on 0–1, each answered 0.9, 0.8 and 0.3: median 0.8.
    // Per criterion: D_o = 2·(0.1² + 0.6² + 0.5²) / (3·2) = 0.62/3, D_e = 1/6 (two uniform picks
    // on 0–1), agreement 1 − (0.62/3)/(1/6) = −0.24.
    // Overall alpha (interval, 5 units × 3 coders): D_o = 0.62/3 as above; the 15 pooled values
    // (0.9, 0.8, 0.3 five times each) give D_e = 2·25·0.62 / (15·14) = 31/210; 1 − D_o/D_e = −0.4.
    expect(first.stdout).toContain(
      "panel: ollama:judge-a, ollama:judge-b, ollama:judge-c (median; agreement α -0.4, minimum 0.5)",
    );
    // List items are cut at the width of a non-terminal (100 columns): their starts are compared.
    expect(first.stdout).toContain(
      "  - funder_priorities: ollama:judge-a 0.9, ollama:judge-b 0.8, ollama:judge-c 0.3 — median;",
    );
    expect(first.stdout).toContain("Human review required");
    expect(first.stdout).toContain(
      "  - criterion funder_priorities: the judges disagree (agreement -0.24 < 0.5: ollama:judge-a 0.9,",
    );
    expect(first.stdout).toContain(
      "  - the judges disagree across the criteria (Krippendorff's alpha -0.4 < 0.5)",
    );
    expect(first.stdout).toMatch(/overall 0\.80 · verdict \S+ .*· passed no/);

    // The panel is kept with the thread …
    const reviews = await openReviewStore({ sqlitePath: join(cwd, DB) });
    const kept = await reviews.runSettings(threadId).finally(() => reviews.close());
    expect(kept?.panel).toEqual({
      judges: JUDGES.map((judge) => `ollama:${judge}`),
      minAgreement: 0.5,
    });

    // … and judges the next stage when the run goes on without the options.
    const judgedBefore = server.chatRequests().filter((r) => r.model === "judge-c").length;
    const second = await evalgate(["run", "--thread", threadId], {
      cwd,
      env: serverEnv(server),
      stdin: answers("a", "q"),
    });
    expect(second.stderr).not.toContain("evalgate:");
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("Review: Solution");
    expect(second.stdout.split("Review: Solution")[1]).toContain(
      "panel: ollama:judge-a, ollama:judge-b, ollama:judge-c (median;",
    );
    const judgedAfter = server.chatRequests().filter((r) => r.model === "judge-c").length;
    expect(judgedAfter).toBeGreaterThan(judgedBefore);
  });

  it("refuses a panel of one, and panel options without judges, before anything runs", async () => {
    const cwd = await freshFolder();
    const one = await evalgate(["run", "rfp.md", "--judge", "ollama:judge-a"], {
      cwd,
      env: serverEnv(server),
    });
    expect(one.code).toBe(2);
    expect(one.stderr).toContain("a panel needs two or more --judge");
    const none = await evalgate(["run", "rfp.md", "--min-agreement", "0.5"], {
      cwd,
      env: serverEnv(server),
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--aggregate and --min-agreement set up a panel");
  });
});

describe("evalgate serve with a panel of judges", { timeout: 400_000 }, () => {
  it("every proposal the service runs is judged by the panel; the review carries its answers", async () => {
    const cwd = await freshFolder();
    const env = serverEnv(server);
    const added = await evalgate(["reviewers", "add", "ana", "--role", "admin"], { cwd, env });
    expect(added.code).toBe(0);
    const token = /\n {2}(\S+)\n/.exec(added.stdout)?.[1] ?? "";
    const serve = startEvalgate(["serve", "--port", "0", ...PANEL, "--aggregate", "mean"], {
      cwd,
      env,
    });
    try {
      const [, url] = await serve.waitForStdout(/review service on (http:\/\/\S+)/, 60_000);
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const started = await fetch(`${url}/api/proposals`, {
        method: "POST",
        headers,
        body: JSON.stringify({ rfp: RFP, applicant: APPLICANT }),
      });
      expect(started.status).toBe(202);
      const { threadId } = (await started.json()) as { threadId: string };
      // The graph runs to its first review in a job: asked until the review is there.
      let review: Response | undefined;
      for (let attempt = 0; attempt < 3000; attempt += 1) {
        review = await fetch(`${url}/api/reviews/${threadId}`, { headers });
        if (review.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(review?.status).toBe(200);
      const body = (await review?.json()) as {
        evaluation: {
          panel?: { judges: string[]; aggregate: string; agreement: number | null; gaps: number };
          overallScore: number;
          criteria: Array<{ id: string; panel?: { answers: unknown[]; agreement: number | null } }>;
        };
      };
      // Mean of 0.9, 0.8 and 0.3 on every criterion: 2.0 / 3; agreement as worked out above.
      expect(body.evaluation.panel).toEqual({
        judges: JUDGES.map((judge) => `ollama:${judge}`),
        aggregate: "mean",
        agreement: -0.4,
        gaps: 0,
      });
      expect(body.evaluation.overallScore).toBeCloseTo(2 / 3, 3);
      for (const criterion of body.evaluation.criteria) {
        expect(criterion.panel?.answers, criterion.id).toHaveLength(3);
        expect(criterion.panel?.agreement, criterion.id).toBe(-0.24);
      }
      expect(modelsAsked().judges.has("judge-b")).toBe(true);
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
  });
});
