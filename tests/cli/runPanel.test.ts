/**
 * `evalgate run --judge … --judge … --judge …`: the model writes, a panel of three judges on the
 * Ollama-protocol test server judges every stage, the review shows each judge's answer and the
 * agreement, and the panel is kept with the thread for `run --thread`.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerPrompt, isWriterPrompt } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  answers,
  DB,
  evalgate,
  MODEL,
  serverEnv,
  threadIdOf,
  workFolder,
} from "./reviewHarness.js";

/** Each judge's 0–1 score, the same on every criterion. */
const UNITS: Readonly<Record<string, number>> = { "judge-a": 0.9, "judge-b": 0.8, "judge-c": 0.3 };
const JUDGES = Object.keys(UNITS);
const PANEL = JUDGES.flatMap((judge) => ["--judge", `ollama:${judge}`]);

let server: OllamaServer;
const folders: Array<Awaited<ReturnType<typeof workFolder>>> = [];

beforeAll(async () => {
  server = await startOllamaServer({
    models: [MODEL, ...JUDGES],
    responder: (request) => answerPrompt(request.messages, UNITS[request.model] ?? 0.85),
  });
});
afterAll(async () => {
  await server?.close();
  for (const folder of folders) await folder.remove();
});

async function freshFolder(): Promise<string> {
  const folder = await workFolder();
  folders.push(folder);
  return folder.dir;
}

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
    const kept = JSON.parse(await readFile(join(cwd, `${DB}.runs.json`), "utf8"));
    expect(kept.threads[threadId].panel).toEqual({
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
