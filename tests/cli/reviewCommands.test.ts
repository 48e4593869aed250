/**
 * `evalgate reviews` and `evalgate review` end to end, in child processes against the
 * Ollama-protocol test server: a run left paused when its stdin ended is listed, then decided
 * review by review to completion (with the run's stored revision limit applied on resume), and
 * every way a decision can be refused is one message with exit code 2, the thread left as it was.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openReviewStore } from "../../src/store/index.js";
import {
  answers,
  DB,
  evalgate,
  proposalServer,
  STAGES,
  serverEnv,
  storedThread,
  threadIdOf,
  workFolders,
  writerRequests,
} from "./reviewHarness.js";

const freshFolder = workFolders();

const TIMELINE_TASK = 'Write the "Timeline" section';

describe.concurrent("evalgate reviews / review", () => {
  it("lists a run paused when its stdin ended, and decides it review by review to completion", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const db = "threads/review.sqlite";
      const env = serverEnv(server);
      // Approve six stages, ask for one revision of the timeline, then stdin ends.
      const run = await evalgate(["run", "rfp.md", "--db", db, "--max-revisions", "1"], {
        cwd,
        env,
        stdin: answers("a", "a", "a", "a", "a", "a", "r", "Put the milestones in months."),
      });
      expect(run.stderr).not.toContain("evalgate:");
      expect(run.code).toBe(0);
      const threadId = threadIdOf(run.stdout);
      expect(run.stdout).toContain("The input ended before the run finished.");
      expect(run.stdout).toContain(
        `Thread ${threadId} is paused at: Timeline Evaluation Review [timeline].\n` +
          `Go on with it later:\n  evalgate run --thread ${threadId} --db ${db}\n`,
      );
      expect(run.stdout).toContain(
        `  evalgate review ${threadId} approve | revise --feedback <text> | edit --content-file <file> --db ${db}\n`,
      );
      expect(writerRequests(server, TIMELINE_TASK)).toHaveLength(2);

      const [listed, elsewhere] = await Promise.all([
        evalgate(["reviews", "--db", db], { cwd, env }),
        evalgate(["reviews"], { cwd, env }),
      ]);
      expect(listed.code).toBe(0);
      const lines = listed.stdout.trimEnd().split("\n");
      expect(lines[0]).toMatch(/^thread\s+stage\s+type\s+score\s+waiting since$/);
      expect(lines).toHaveLength(3);
      expect(lines[2]).toMatch(
        new RegExp(
          `^${threadId}  timeline\\s+evaluation_review  0\\.85 pass  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC \\((now|\\d+ minutes? ago)\\)$`,
        ),
      );
      // Without --db the default store is read, and not created.
      expect(elsewhere.code).toBe(0);
      expect(elsewhere.stdout).toBe(`No paused threads: there is no checkpoint file at ${DB}.\n`);
      expect(existsSync(join(cwd, DB))).toBe(false);

      // The run's limit of one revision holds on resume: a second revise is escalated.
      const limited = await evalgate(
        ["review", threadId, "revise", "--feedback", "Add a buffer month.", "--db", db],
        { cwd, env },
      );
      expect(limited.stderr).toBe("");
      expect(limited.code).toBe(0);
      expect(limited.stdout).toContain(
        `decided revise on Timeline Evaluation Review [timeline], thread ${threadId}`,
      );
      expect(limited.stdout).toContain("Review: Timeline: Revision Limit Reached [timeline]");
      expect(limited.stdout).toContain(
        "type revision_limit · round 2 of at most 2 · revisions 1 of 1",
      );
      // The version under review answers the first revision's feedback; the refused one is not it.
      expect(limited.stdout).toContain(
        "This version answers the feedback of round 1:\n  > Put the milestones in months.\n",
      );
      expect(limited.stdout).not.toContain("> Add a buffer month.");
      expect(limited.stdout).toContain(
        `Decide with:\n  evalgate review ${threadId} approve | edit --content-file <file> | retry --db ${db}\n`,
      );
      expect(writerRequests(server, TIMELINE_TASK)).toHaveLength(2);

      const refused = await evalgate(
        ["review", threadId, "revise", "--feedback", "Once more.", "--db", db],
        { cwd, env },
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr.trim()).toBe(
        "evalgate: Timeline: Revision Limit Reached [timeline] (revision_limit) takes approve, edit, retry — not revise [COMMAND_INVALID]",
      );

      const approved = await evalgate(
        [
          "review",
          threadId,
          "approve",
          "--reviewer",
          "ana",
          "--comment",
          "Months are fine.",
          "--db",
          db,
        ],
        { cwd, env },
      );
      expect(approved.code).toBe(0);
      expect(approved.stdout).toContain("next review");
      expect(approved.stdout).toContain("Review: Conclusion Evaluation Review [conclusion]");
      expect(approved.stdout).toMatch(/criterion\s+score\s+threshold\s+met/);

      const last = await evalgate(
        [
          ...["review", threadId, "approve", "--db", db],
          ...["--correct", "closing_request=0.5", "--note", "closing_request=no amount asked"],
        ],
        { cwd, env },
      );
      expect(last.code).toBe(0);
      expect(last.stdout).toContain(
        `decided approve on Conclusion Evaluation Review [conclusion], thread ${threadId}\ncompleted\n`,
      );
      expect(last.stdout).toMatch(/conclusion\s+approved\s+0\.85\s+pass/);
      // It says how to get the proposal, and that command gives it.
      expect(last.stdout).toContain(
        `\nThe proposal: \`evalgate show ${threadId} --db ${db}\` (--out <file> to keep it).\n`,
      );
      const shown = await evalgate(["show", threadId, "--db", db, "--format", "json"], {
        cwd,
        env,
      });
      expect(shown.code).toBe(0);
      expect(JSON.parse(shown.stdout).state).toBe("complete");

      const stored = await storedThread(join(cwd, db), threadId);
      expect(stored.review).toBeUndefined();
      expect(STAGES.map((s) => stored.values.sections[s]?.status ?? null)).toEqual([
        null,
        null,
        null,
        "approved",
        "approved",
        "approved",
        "approved",
        "approved",
      ]);
      expect(stored.values.researchStatus).toBe("approved");
      expect(stored.history.slice(-4).map((d) => d.action)).toEqual([
        "revise",
        "revise",
        "approve",
        "approve",
      ]);
      expect(stored.history.at(-2)).toMatchObject({
        contentId: "timeline",
        reviewer: "ana",
        comment: "Months are fine.",
      });
      expect((await evalgate(["reviews", "--db", db], { cwd, env })).stdout).toBe(
        `No paused threads in ${db}.\n`,
      );
      // Every decision is a calibration label per criterion; the corrected one is marked.
      const labels = await openReviewStore({ sqlitePath: join(cwd, db), env: {} });
      try {
        const conclusion = (await labels.labelsFor(threadId)).filter(
          (l) => l.stage === "conclusion",
        );
        // The others keep the judge's 0.85, which the reviewer accepted, as the reviewer's score.
        expect(
          conclusion.map((l) => [l.criterionId, l.source, l.judgeScore, l.reviewerScore]),
        ).toEqual([
          ["case_synthesis", "accepted", 0.85, 0.85],
          ["closing_request", "marked", 0.85, 0.5],
          ["funder_impact", "accepted", 0.85, 0.85],
          ["section_consistency", "accepted", 0.85, 0.85],
          ["sustainability", "accepted", 0.85, 0.85],
        ]);
        expect(conclusion.find((l) => l.source === "marked")?.reviewerNote).toBe("no amount asked");
      } finally {
        await labels.close();
      }
    } finally {
      await server.close();
    }
  }, 150_000);

  it("refuses a decision it cannot make with one message and exit code 2, leaving the thread paused", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const env = serverEnv(server);
      const run = await evalgate(["run", "rfp.md"], { cwd, env });
      expect(run.code).toBe(0);
      const threadId = threadIdOf(run.stdout);
      await writeFile(join(cwd, "empty.md"), "  \n", "utf8");
      const calls = server.chatRequests().length;

      const cases: Array<[string[], string]> = [
        [
          ["no-such-thread", "approve"],
          `no thread "no-such-thread" in ${DB} (evalgate reviews lists the paused ones)`,
        ],
        [
          [threadId, "retry"],
          "Research Evaluation Review [research] (evaluation_review) takes approve, revise, edit — not retry",
        ],
        [[threadId, "revise"], "revise needs --feedback <text> for the writer"],
        [[threadId, "approve", "--feedback", "x"], "--feedback goes with revise, not with approve"],
        [
          [threadId, "edit", "--content-file", "empty.md"],
          "--content-file empty.md: the file is empty [INPUT_FILE_UNREADABLE]",
        ],
        [
          [threadId, "approve", "--db", "other.sqlite"],
          `no thread "${threadId}": there is no checkpoint file at other.sqlite`,
        ],
      ];
      const results = await Promise.all(
        cases.map(([args]) => evalgate(["review", ...args], { cwd, env })),
      );
      results.forEach((result, i) => {
        expect(result.code, cases[i]?.[1]).toBe(2);
        expect(result.stdout).toBe("");
        // The CLI's own refusals end with its code; an unreadable file with the file's.
        const message = cases[i]?.[1] ?? "";
        const shown = message.endsWith("]") ? message : `${message} [COMMAND_INVALID]`;
        expect(result.stderr).toBe(`evalgate: ${shown}\n`);
      });
      const bogus = await evalgate(["review", threadId, "bless"], { cwd, env });
      expect(bogus.code).toBe(2);
      expect(bogus.stderr).toContain("'bless' is invalid for argument 'action'");

      expect(existsSync(join(cwd, "other.sqlite"))).toBe(false);
      expect(server.chatRequests()).toHaveLength(calls);
      const stored = await storedThread(join(cwd, DB), threadId);
      expect(stored.review?.contentId).toBe("research");
      expect(stored.history).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);
});
