/**
 * `evalgate run` and `evalgate review` say what they are doing between two reviews: on stderr,
 * which stage is being written or judged and each criterion done of the stage's total, in plain
 * lines when stderr is a pipe (as here). Driven end to end in a child process against the
 * Ollama-protocol test server.
 */
import { describe, expect, it } from "vitest";
import {
  answers,
  DB,
  evalgate,
  proposalServer,
  serverEnv,
  threadIdOf,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();

/** The progress lines of one stage, in the order printed. */
function stageLines(stderr: string, title: string): string[] {
  return stderr
    .split("\n")
    .filter(
      (line) =>
        line === `writing ${title}…` ||
        line.startsWith(`judging ${title}: `) ||
        line.startsWith(`${title} judged: `) ||
        new RegExp(`^\\[\\d+/\\d+\\] ${title}: `).test(line),
    );
}

describe.concurrent("progress between reviews", () => {
  it("run prints the stage written, judged criterion by criterion ([k/n]), and the outcome", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const run = await evalgate(["run", "rfp.md", "--applicant", "applicant.md"], {
        cwd,
        env: serverEnv(server),
        stdin: answers("a", "q"),
      });
      expect(run.code).toBe(0);
      const research = stageLines(run.stderr, "Research");
      expect(research[0]).toBe("writing Research…");
      const total = Number(/^judging Research: (\d+) criteria$/.exec(research[1] ?? "")?.[1]);
      expect(total).toBeGreaterThan(0);
      const counted = research.slice(2, 2 + total);
      expect(counted.map((line) => /^\[(\d+)\/(\d+)\]/.exec(line)?.slice(1))).toEqual(
        Array.from({ length: total }, (_, i) => [String(i + 1), String(total)]),
      );
      for (const line of counted) expect(line).toMatch(/^\[\d+\/\d+\] Research: \w+ → 0\.85$/);
      expect(research[2 + total]).toMatch(/^Research judged: 0\.85 \((passed|not passed)\)$/);
      expect(research).toHaveLength(3 + total);

      // After the approval, the next stage's progress follows the decision's line.
      const after = run.stderr.slice(run.stderr.indexOf("approve: running on to the next review…"));
      const solution = stageLines(after, "Solution Sought");
      expect(solution[0]).toBe("writing Solution Sought…");
      expect(solution.at(-1)).toMatch(/^Solution Sought judged: /);
      // No internal node names.
      expect(run.stderr).not.toMatch(/startEvaluate|generateResearch|evaluateSolution/);
    } finally {
      await server.close();
    }
  });

  it("review <thread> approve prints the next stage's progress", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const started = await evalgate(["run", "rfp.md"], { cwd, env: serverEnv(server) });
      const threadId = threadIdOf(started.stdout);
      const decided = await evalgate(["review", threadId, "approve", "--db", DB], {
        cwd,
        env: serverEnv(server),
      });
      expect(decided.code).toBe(0);
      const solution = stageLines(decided.stderr, "Solution Sought");
      expect(solution[0]).toBe("writing Solution Sought…");
      expect(solution.filter((line) => line.startsWith("["))).not.toHaveLength(0);
      expect(solution.at(-1)).toMatch(/^Solution Sought judged: /);
    } finally {
      await server.close();
    }
  });
});
