/**
 * `evalgate run` end to end: the real command in child processes, in a temporary working folder,
 * writing and judging against the Ollama-protocol test server, with the reviewer's answers on
 * stdin — approve, revise with feedback, edit from a file; a run resumed with --thread after its
 * process was killed (at a review, and in the middle of a model call); and the model check that
 * stops a run before anything is stored.
 */

import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { NO_APPLICANT } from "../../src/cli/review/runThread.js";
import { startOllamaServer } from "../doubles/index.js";
import {
  APPLICANT,
  answers,
  DB,
  evalgate,
  MODEL,
  promptCounts,
  proposalServer,
  RESEARCH_TASK,
  SOLUTION_TASK,
  STAGES,
  serverEnv,
  startEvalgate,
  storedThread,
  threadIdOf,
  userPrompt,
  workFolders,
  writerRequests,
} from "./reviewHarness.js";

const freshFolder = workFolders();
let workDir: string;

beforeAll(async () => {
  workDir = await freshFolder();
});

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = await startOllamaServer();
  const { port } = server;
  await server.close();
  return port;
}

/** The summary row of a stage: `<stage>  <status>  <score>  <verdict>`. */
function summaryRow(stdout: string, stage: string): string[] {
  const row = stdout
    .split("\n")
    .reverse()
    .find((line) => line.startsWith(`${stage} `));
  return row === undefined ? [] : row.trim().split(/\s{2,}/);
}

describe.concurrent("evalgate run", () => {
  it("is driven through approve, revise (with feedback) and edit (from a file) by answers on stdin, to completion", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const problem =
        "Flooding displaced 1,240 Calder Bay households in 2024 (County report, p. 4); 61% earn under the area median.";
      await writeFile(join(cwd, "problem.md"), `${problem}\n`, "utf8");
      const feedback = "Name the excluded approaches and cite the RFP page.";
      const run = await evalgate(
        ["run", "rfp.md", "--applicant", "applicant.md", "--reviewer", "ana"],
        {
          cwd,
          env: serverEnv(server),
          stdin: answers(
            "maybe", // research: not a choice, asked again
            "a",
            "r", // solution: revise …
            "", // … an empty feedback goes back to the choices
            "revise",
            feedback,
            "approve", // the revised solution
            "a", // connection pairs
            "e", // problem statement: edit …
            "missing.md", // … a file that is not there: asked again
            "problem.md",
            "a",
            "a",
            "a",
            "a",
          ),
        },
      );
      expect(run.stderr).not.toContain("evalgate:");
      expect(run.stderr).not.toContain(NO_APPLICANT);
      expect(run.code).toBe(0);
      const threadId = threadIdOf(run.stdout);
      expect(run.stdout.split("\n")[0]).toBe(`thread ${threadId} (checkpoints in ${DB})`);

      // Each review shows the scores against the thresholds, the lists and the content.
      expect(run.stdout).toContain("Review: Research Evaluation Review [research]");
      expect(run.stdout).toMatch(/criterion\s+score\s+threshold\s+met/);
      expect(run.stdout).toMatch(/funder_priorities .*\(critical\)\s+0\.85\s+0\.70\s+yes/);
      expect(run.stdout).toContain("overall 0.85 · verdict pass · passed yes");
      expect(run.stdout).toContain("Strengths\n  - ");
      expect(run.stdout).toContain("Suggestions\n  - ");
      // The whole content, readable: the research as labelled fields, not JSON.
      expect(run.stdout).toContain(
        "Content\n  Funder: Calder Bay Community Foundation\n  Mission: resilient coastal neighbourhoods\n  Applicant: Harbor Neighbors Alliance\n  Project: Cool and Dry Homes\n  Priorities:\n    - flood resilience\n",
      );
      expect(run.stdout).not.toContain('"funder"');
      // The revised solution's review is round 2 and shows the feedback it answers.
      const solutionReviews = run.stdout.split(
        "Review: Solution Sought Evaluation Review [solution]",
      );
      expect(solutionReviews).toHaveLength(3);
      expect(solutionReviews[1]).toContain("type evaluation_review · round 1 of at most 4\n");
      expect(solutionReviews[1]).not.toContain("answers the feedback");
      expect(solutionReviews[2]).toContain("type evaluation_review · round 2 of at most 4\n");
      expect(solutionReviews[2]).toContain(
        `This version answers the feedback of round 1:\n  > ${feedback}\n`,
      );
      expect(run.stdout).toContain(
        '"maybe" is not a choice: answer approve, revise, edit, mark, quit.',
      );
      expect(run.stdout).toContain("content file missing.md: no such file\n");
      expect(run.stdout).toContain(`Run completed (thread ${threadId}).`);
      for (const stage of STAGES) {
        const [, status, score] = summaryRow(run.stdout, stage);
        expect(status, stage).toBe(stage === "problem_statement" ? "edited" : "approved");
        expect(score, stage).toBe("0.85");
      }
      expect(summaryRow(run.stdout, "problem_statement")[3]).toBe("pass (before the edit)");

      // The proposal is written to a new file, and the run says where.
      const file = `proposal-${threadId}.md`;
      expect(run.stdout).toContain(
        `The proposal is in ${file}; \`evalgate show ${threadId}\` prints it again.`,
      );
      const proposal = await readFile(join(cwd, file), "utf8");
      // Titled as a proposal, from its research; the RFP's first line as the request it answers.
      expect(proposal.split("\n").slice(0, 3)).toEqual([
        "# Cool and Dry Homes — a proposal by Harbor Neighbors Alliance to Calder Bay Community Foundation",
        "",
        "_In response to Calder Bay Community Foundation — Resilient Neighbourhoods 2026._",
      ]);
      expect(proposal).not.toContain("Draft");
      const headings = proposal.split("\n").filter((l) => /^##? /.test(l));
      expect(headings).toEqual([
        "# Cool and Dry Homes — a proposal by Harbor Neighbors Alliance to Calder Bay Community Foundation",
        "## Problem Statement",
        "## Methodology",
        "## Budget",
        "## Timeline",
        "## Conclusion",
        "## Appendix A: research, solution sought and connection pairs",
        "## Appendix B: gate results and decisions",
      ]);
      // The edited problem statement is the body's; the others are the writer's text.
      const body = proposal.slice(0, proposal.indexOf("## Appendix A"));
      expect(body).toContain(`## Problem Statement\n\n${problem}`);
      expect(body).toContain("This Methodology section explains the need");
      for (const input of [
        "### Research",
        "### Solution Sought",
        "### Connection Pairs",
        "#### Pair 1",
      ]) {
        expect(proposal).toContain(`\n${input}\n`);
      }
      expect(proposal).toContain("**Priorities:**\n\n- flood resilience\n- low-income households");
      const rows = proposal
        .split("\n")
        .filter((l) => l.startsWith("| ") && !l.startsWith("| Stage"));
      expect(rows.map((r) => r.split(" | ")[0])).toEqual([
        "| Research",
        "| Solution Sought",
        "| Connection Pairs",
        "| Problem Statement",
        "| Methodology",
        "| Budget",
        "| Timeline",
        "| Conclusion",
      ]);
      const solutionRow = rows[1]?.split(" | ") ?? [];
      // Stage, status, score, verdict, funding status, passed, judged with, round, decisions.
      expect(solutionRow.slice(1, 8)).toEqual([
        "approved",
        "0.85",
        "pass",
        "—",
        "yes",
        "solution@1.0.0",
        "2",
      ]);
      expect(solutionRow[8]).toContain(`revise by ana`);
      expect(solutionRow[8]).toContain("approve by ana");
      expect(rows[3]?.split(" | ").slice(1, 3)).toEqual([
        "edited by a reviewer",
        "0.85 (before the edit)",
      ]);

      // The revision went back to the writer with the feedback; the RFP and applicant were used.
      const solutionPrompts = writerRequests(server, SOLUTION_TASK).map(userPrompt);
      expect(solutionPrompts).toHaveLength(2);
      expect(solutionPrompts[0]).not.toContain(feedback);
      expect(solutionPrompts[1]).toContain(feedback);
      const [researchPrompt] = writerRequests(server, RESEARCH_TASK).map(userPrompt);
      expect(researchPrompt).toContain("Resilient Neighbourhoods 2026");
      expect(researchPrompt).toContain(APPLICANT);
      expect(server.chatRequests().every((r) => r.model === MODEL)).toBe(true);

      const stored = await storedThread(join(cwd, DB), threadId);
      expect(stored.review).toBeUndefined();
      expect(stored.values.sections.problem_statement?.content?.trim()).toBe(problem);
      expect(stored.values.sections.problem_statement?.status).toBe("edited");
      expect(stored.history.map((d) => `${d.contentId}:${d.action}`)).toEqual([
        "research:approve",
        "solution:revise",
        "solution:approve",
        "connection_pairs:approve",
        "problem_statement:edit",
        "methodology:approve",
        "budget:approve",
        "timeline:approve",
        "conclusion:approve",
      ]);
      expect(stored.history.every((d) => d.reviewer === "ana")).toBe(true);
      expect(stored.history[1]?.feedback).toBe(feedback);

      // A finished thread takes no more decisions.
      const late = await evalgate(["review", threadId, "approve"], { cwd, env: serverEnv(server) });
      expect(late.code).toBe(2);
      expect(late.stderr.trim()).toBe(
        `evalgate: thread ${threadId} is not waiting for a review: the run has completed; \`evalgate show ${threadId}\` prints its proposal [COMMAND_INVALID]`,
      );
    } finally {
      await server.close();
    }
  }, 120_000);

  it("--thread goes on with a run whose process was killed at a review, without writing or judging the research again", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const first = startEvalgate(["run", "rfp.md"], { cwd, env: serverEnv(server) });
      await first.waitForStdout(/Decide: /);
      first.child.kill("SIGKILL");
      const killed = await first.exited;
      expect(killed.code).toBeNull();
      const threadId = threadIdOf(killed.stdout);
      // Started without --applicant: one line says so, and how to give it.
      expect(killed.stderr.split("\n")).toContain(NO_APPLICANT);
      expect(NO_APPLICANT).toBe(
        "no --applicant file: the proposal will be written without the applicant's details (organisation, track record, idea); give them with --applicant <file>",
      );
      const beforeKill = server.chatRequests().length;
      // The research was written (one call) and judged (one call per criterion) before the kill.
      expect(writerRequests(server, RESEARCH_TASK)).toHaveLength(1);
      expect(beforeKill).toBeGreaterThan(1);

      const second = await evalgate(["run", "--thread", threadId], {
        cwd,
        env: serverEnv(server),
        stdin: answers(...STAGES.map(() => "a")),
      });
      expect(second.stderr).not.toContain("evalgate:");
      expect(second.stderr).not.toContain(NO_APPLICANT);
      expect(second.code).toBe(0);
      expect(second.stdout.split("\n")[0]).toBe(`thread ${threadId} (resumed from ${DB})`);
      // The pending review of the research is shown again, then the run goes on to the end.
      expect(second.stdout.indexOf("Review: Research Evaluation Review")).toBeGreaterThan(0);
      expect(second.stdout).toContain(`Run completed (thread ${threadId}).`);
      for (const stage of STAGES) expect(summaryRow(second.stdout, stage)[1]).toBe("approved");

      expect(writerRequests(server, RESEARCH_TASK)).toHaveLength(1);
      const repeated = [...promptCounts(server.chatRequests())].filter(([, n]) => n > 1);
      expect(repeated).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("--thread runs on a thread whose process was killed during a model call, from its last checkpoint", async () => {
    const hang = { solutionWriter: true };
    const server = await proposalServer((_n, request) =>
      hang.solutionWriter && userPrompt(request).startsWith(SOLUTION_TASK) ? { hang: true } : {},
    );
    try {
      const cwd = await freshFolder();
      const first = startEvalgate(["run", "rfp.md"], { cwd, env: serverEnv(server) });
      await first.waitForStdout(/Decide: /);
      first.write(answers("a")); // approve the research; the solution writer call then hangs
      await server.waitFor((s) => writerRequests(s, SOLUTION_TASK).length > 0);
      first.child.kill("SIGKILL");
      const threadId = threadIdOf((await first.exited).stdout);
      hang.solutionWriter = false;

      const second = await evalgate(["run", "--thread", threadId], {
        cwd,
        env: serverEnv(server),
        stdin: answers(...STAGES.slice(1).map(() => "a")),
      });
      expect(second.stderr).not.toContain("evalgate:");
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(
        "The run stopped with work left (writing Solution Sought); running on from there.",
      );
      expect(second.stdout).not.toContain("Review: Research Evaluation Review");
      expect(second.stdout).toContain(`Run completed (thread ${threadId}).`);
      for (const stage of STAGES) expect(summaryRow(second.stdout, stage)[1]).toBe("approved");

      // Only the call that was cut off was made again.
      expect(writerRequests(server, RESEARCH_TASK)).toHaveLength(1);
      expect(writerRequests(server, SOLUTION_TASK)).toHaveLength(2);
      const repeated = [...promptCounts(server.chatRequests())]
        .filter(([, n]) => n > 1)
        .map(([prompt, n]) => ({ solutionWriter: prompt.includes(SOLUTION_TASK), n }));
      expect(repeated).toEqual([{ solutionWriter: true, n: 2 }]);
      expect((await storedThread(join(cwd, DB), threadId)).history).toHaveLength(STAGES.length);
    } finally {
      await server.close();
    }
  }, 120_000);

  it("stops with the Ollama message and exit code 2 before any thread or checkpoint file exists", async () => {
    const port = await closedPort();
    const other = await startOllamaServer({ models: ["some-other-model:7b"] });
    try {
      const [down, notPulled] = await Promise.all(
        [`http://127.0.0.1:${port}`, other.url].map(async (url) => {
          const cwd = await freshFolder();
          const run = await evalgate(["run", "rfp.md"], {
            cwd,
            env: { OLLAMA_BASE_URL: url, EVALGATE_MODEL: MODEL },
            stdin: answers("a"),
          });
          return { run, cwd };
        }),
      );
      expect(down?.run.code).toBe(2);
      expect(down?.run.stdout).toBe("");
      expect(down?.run.stderr).toContain(
        `evalgate: Ollama is not reachable at http://127.0.0.1:${port}`,
      );
      expect(down?.run.stderr).toContain("`ollama serve`");
      expect(down?.run.stderr.trim().split("\n")).toHaveLength(1);
      expect(notPulled?.run.code).toBe(2);
      expect(notPulled?.run.stderr).toContain(
        `evalgate: model "${MODEL}" is not pulled on the Ollama server at ${other.url}`,
      );
      expect(notPulled?.run.stderr).toContain(`\`ollama pull ${MODEL}\``);
      for (const { cwd } of [down, notPulled].flatMap((r) => (r === undefined ? [] : [r]))) {
        expect(existsSync(join(cwd, ".evalgate"))).toBe(false);
      }
      expect(other.chatRequests()).toEqual([]);
    } finally {
      await other.close();
    }
  }, 60_000);

  it("refuses a run without an RFP, with an unreadable one, or for a thread that does not exist", async () => {
    const cwd = workDir;
    const env = {
      OLLAMA_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      EVALGATE_MODEL: MODEL,
    };
    const [none, missing] = await Promise.all([
      evalgate(["run"], { cwd, env }),
      evalgate(["run", "nowhere.md"], { cwd, env }),
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr.trim()).toBe(
      "evalgate: give the RFP file to start a run, or --thread <id> to go on with one [COMMAND_INVALID]",
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(
      "evalgate: RFP file nowhere.md: no such file [INPUT_FILE_UNREADABLE]",
    );
    expect(existsSync(join(cwd, ".evalgate"))).toBe(false);

    const server = await proposalServer();
    try {
      const unknown = await evalgate(["run", "--thread", "no-such-thread"], {
        cwd,
        env: serverEnv(server),
      });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr.trim()).toBe(
        `evalgate: no thread "no-such-thread": there is no checkpoint file at ${DB} [COMMAND_INVALID]`,
      );
      expect(existsSync(join(cwd, ".evalgate"))).toBe(false);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("--thread on a thread another run is writing says so, without claiming a decision was recorded", async () => {
    // The first run's research writer waits at the stand-in until released.
    const server = await proposalServer((n) => (n === 1 ? { hold: "before-response" } : {}));
    try {
      const cwd = await freshFolder();
      const env = serverEnv(server);
      const first = startEvalgate(["run", "rfp.md", "--thread", "busy-thread-1"], { cwd, env });
      await server.waitFor((s) => s.held === 1);
      const second = await evalgate(["run", "--thread", "busy-thread-1"], { cwd, env });
      expect(second.code).toBe(2);
      expect(second.stderr).not.toContain("decision");
      expect(second.stderr).toContain(
        "evalgate: thread busy-thread-1 is being run by another process (another evalgate run, or evalgate serve): go on with it when that one has stopped [COMMAND_INVALID]",
      );
      server.release();
      first.end(answers("q"));
      expect((await first.exited).code).toBe(0);
    } finally {
      await server.close();
    }
  }, 90_000);
});
