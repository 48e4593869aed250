/**
 * `evalgate run` end to end on a stage that went wrong: the judge cannot answer on the research
 * (an evaluation error), the reviewer replaces the research with the terminal's edit form from a
 * file — prose first, refused with what the research takes, and the edit asked for again — and
 * the run goes on to completion. The finished run shows no error as current (the research moved
 * on); the proposal's appendix keeps it, marked superseded.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isWriterPrompt, ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaResponder, startOllamaServer } from "../doubles/index.js";
import {
  answers,
  DB,
  evalgate,
  MODEL,
  SOLUTION_TASK,
  serverEnv,
  storedThread,
  threadIdOf,
  userPrompt,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();

/** The stand-in, whose judge has no usable answer until the solution is being written. */
function judgeSilentAtFirst(): OllamaResponder {
  const answer = ollamaProposalResponder(0.85);
  let solutionStarted = false;
  return async (request, n) => {
    if (isWriterPrompt(request.messages) && userPrompt(request).startsWith(SOLUTION_TASK)) {
      solutionStarted = true;
    }
    if (!isWriterPrompt(request.messages) && !solutionStarted) return "I would rather not say.";
    return answer(request, n);
  };
}

const FORM = [
  "<!-- the research, rewritten by the reviewer -->",
  "## Funder",
  "Calder Bay Community Foundation",
  "",
  "## Priorities",
  "- flood resilience",
  "- tenants in low-income housing",
  "",
  "## Sources",
  "\\# RFP, section 2 (a line that starts with # in the text)",
].join("\n");

describe("evalgate run after an evaluation error", () => {
  it("takes the research as an edit form from a file, refuses prose, and ends with the error superseded", async () => {
    const server = await startOllamaServer({ models: [MODEL], responder: judgeSilentAtFirst() });
    try {
      const cwd = await freshFolder();
      await writeFile(join(cwd, "prose.md"), "The funder cares about floods.\n", "utf8");
      await writeFile(join(cwd, "research.md"), `${FORM}\n`, "utf8");
      const run = await evalgate(["run", "rfp.md", "--reviewer", "ana"], {
        cwd,
        env: serverEnv(server),
        stdin: answers("e", "prose.md", "e", "research.md", "a", "a", "a", "a", "a", "a", "a"),
      });
      expect(run.stderr).not.toContain("evalgate:");
      expect(run.code).toBe(0);
      const threadId = threadIdOf(run.stdout);
      expect(run.stdout).toContain("type evaluation_error");
      expect(run.stdout).toContain(
        "The edit does not fit the research:\n  - line 1: text before the first field heading\nChoose edit again to fix it (your text is kept).",
      );

      const stored = await storedThread(join(cwd, DB), threadId);
      expect(stored.values.researchStatus).toBe("edited");
      expect(stored.values.researchResults).toMatchObject({
        funder: "Calder Bay Community Foundation",
        priorities: ["flood resilience", "tenants in low-income housing"],
        sources: ["# RFP, section 2 (a line that starts with # in the text)"],
      });
      // The fields the form file leaves out keep what the writer wrote.
      expect(stored.values.researchResults?.mission).toBe("resilient coastal neighbourhoods");
      // The state keeps the error; the finished run does not show it as current.
      expect(stored.values.errors.some((e) => e.startsWith("[evaluate research]"))).toBe(true);
      const summary = run.stdout.slice(run.stdout.indexOf(`Run completed (thread ${threadId})`));
      expect(summary).not.toContain("\nErrors\n");
      expect(summary).toContain(
        "1 earlier error superseded since (the stages moved on; the proposal's appendix lists them)",
      );

      const proposal = await readFile(join(cwd, `proposal-${threadId}.md`), "utf8");
      expect(proposal).not.toContain("\n**Errors**\n");
      expect(proposal).toContain(
        "**Earlier errors (superseded: the stage has moved on since)**\n\n- research: \\[evaluate research\\]",
      );
      expect(proposal).toContain("**Funder:** Calder Bay Community Foundation");
      const research = proposal.split("\n").find((l) => l.startsWith("| Research |"));
      // Its failed evaluation judged nothing: no score is shown for it, never a zero.
      expect(research?.split(" | ").slice(1, 3)).toEqual(["edited by a reviewer", "not evaluated"]);
      expect(summary).toMatch(/\nresearch\s+edited\s+—\s+not evaluated\n/);
    } finally {
      await server.close();
    }
  }, 120_000);
});
