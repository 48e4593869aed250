/**
 * What a failed stage says where users read it: the writer's research answer is not JSON, and
 * `evalgate run`, `evalgate review … retry` and `evalgate show --format json` say what failed in the
 * error's own words with its code, never with a JS class name (`GraphError: …`).
 */
import { describe, expect, it } from "vitest";
import { isWriterPrompt, ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { startOllamaServer } from "../doubles/index.js";
import {
  evalgate,
  MODEL,
  RESEARCH_TASK,
  serverEnv,
  threadIdOf,
  userPrompt,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();

const FAILURE =
  "[generate research] processing error (processing): the research answer has no JSON object [GENERATION_OUTPUT_INVALID]";
/** `GraphError: `, `TypeError: `: a JS class name leading a text. */
const CLASS_NAME = /\b[A-Z][A-Za-z]*Error: /;

describe("a stage that failed, as the commands show it", () => {
  it("says what failed and its code, with no JS class name", async () => {
    const proposal = ollamaProposalResponder();
    const server = await startOllamaServer({
      models: [MODEL],
      responder: (request, n) =>
        isWriterPrompt(request.messages) && userPrompt(request).startsWith(RESEARCH_TASK)
          ? "I would rather describe the funder in prose."
          : proposal(request, n),
    });
    try {
      const cwd = await freshFolder();
      const env = serverEnv(server);
      const run = await evalgate(["run", "rfp.md"], { cwd, env });
      expect(run.stderr).not.toContain("evalgate:");
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("type generation_error");
      expect(run.stdout).toContain(`\nerror: ${FAILURE}\n`);
      expect(run.stdout).not.toMatch(CLASS_NAME);

      const threadId = threadIdOf(run.stdout);
      const [review, shown] = await Promise.all([
        // Retried while the writer still answers in prose: the same failure, shown again.
        evalgate(["review", threadId, "retry"], { cwd, env }),
        evalgate(["show", threadId, "--format", "json"], { cwd, env }),
      ]);
      expect(review.code).toBe(0);
      expect(review.stdout).toContain(`\nerror: ${FAILURE}\n`);
      expect(review.stdout).not.toMatch(CLASS_NAME);
      expect(shown.code).toBe(0);
      expect(shown.stdout).not.toMatch(CLASS_NAME);
      expect(JSON.parse(shown.stdout)).toMatchObject({
        errors: { current: [{ stage: "research", message: FAILURE }] },
      });
    } finally {
      await server.close();
    }
  });
});
