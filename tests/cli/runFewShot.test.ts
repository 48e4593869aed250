/**
 * `evalgate run --few-shot` on corrections made the way reviewers make them: a first run paused at
 * its first review (research), `evalgate review approve --correct` marking one score wrong with a
 * note, then a second run with --few-shot whose judge prompt for that criterion (as the
 * Ollama-protocol stand-in received it) carries the correction, and whose stored result names it;
 * a third run without the flag (the shipped catalogs do not turn examples on) shows none.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EvaluationResultSchema } from "../../src/scoring/result.js";
import { openReviewStore } from "../../src/store/index.js";
import { isWriterPrompt } from "../devserver/proposalResponder.js";
import type { OllamaChatRequest } from "../doubles/index.js";
import {
  DB,
  evalgate,
  proposalServer,
  serverEnv,
  storedThread,
  threadIdOf,
  userPrompt,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();

const NOTE = "names the wrong funder entirely";

/** The judge prompts among these requests that judge funder_priorities (by its title). */
function funderPrompts(requests: readonly OllamaChatRequest[]): string[] {
  return requests
    .filter((r) => !isWriterPrompt(r.messages))
    .map(userPrompt)
    .filter((prompt) => prompt.includes("Criterion: Funder priorities and mission fit"));
}

async function researchOf(cwd: string, threadId: string) {
  const { values } = await storedThread(join(cwd, DB), threadId);
  return EvaluationResultSchema.parse(values.researchEvaluation);
}

describe("evalgate run --few-shot", () => {
  it("shows the judge a reviewer's earlier correction and records it in the result", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const env = serverEnv(server);
      const first = await evalgate(["run", "rfp.md", "--db", DB], { cwd, env });
      expect(first.code).toBe(0);
      const firstThread = threadIdOf(first.stdout);
      const decided = await evalgate(
        [
          ...["review", firstThread, "approve", "--db", DB],
          ...["--correct", "funder_priorities=0.3", "--note", `funder_priorities=${NOTE}`],
        ],
        { cwd, env },
      );
      expect(decided.code).toBe(0);
      const store = await openReviewStore({ sqlitePath: join(cwd, DB) });
      const marked = (await store.calibrationLabels({})).filter((l) => l.source === "marked");
      await store.close();
      expect(marked.map((l) => l.criterionId)).toEqual(["funder_priorities"]);
      const decisionId = marked[0]?.decisionId;

      const before = server.chatRequests().length;
      // --no-cache: every run asks the judge, so the prompts it is shown can be read.
      const second = await evalgate(["run", "rfp.md", "--db", DB, "--few-shot", "--no-cache"], {
        cwd,
        env,
      });
      expect(second.code).toBe(0);
      const shown = funderPrompts(server.chatRequests().slice(before));
      expect(shown.length).toBe(1);
      expect(shown[0]).toContain(`<<<EXAMPLE id=`);
      expect(shown[0]).toContain(NOTE);
      expect(shown[0]).toContain("0.3");
      const withExamples = await researchOf(cwd, threadIdOf(second.stdout));
      expect(withExamples.fewShotExamples).toEqual({
        funder_priorities: [`${decisionId}#funder_priorities`],
      });

      const middle = server.chatRequests().length;
      const third = await evalgate(["run", "rfp.md", "--db", DB, "--no-cache"], { cwd, env });
      expect(third.code).toBe(0);
      const plain = funderPrompts(server.chatRequests().slice(middle));
      expect(plain.length).toBeGreaterThan(0);
      for (const prompt of plain) {
        expect(prompt).not.toContain("<<<EXAMPLE");
        expect(prompt).not.toContain(NOTE);
      }
      const without = await researchOf(cwd, threadIdOf(third.stdout));
      expect(without.fewShotExamples).toBeUndefined();
    } finally {
      await server.close();
    }
  }, 240_000);
});
