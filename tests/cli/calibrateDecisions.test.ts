/**
 * `evalgate calibrate` on labels made the way reviewers make them: a proposal run paused at its
 * first review (against the Ollama-protocol test server), a decision through `evalgate review`
 * with one score marked wrong, then the report of that store.
 */
import { describe, expect, it } from "vitest";
import { CalibrationReportSchema } from "../../src/calibration/reportModel.js";
import {
  DB,
  evalgate,
  proposalServer,
  serverEnv,
  threadIdOf,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();

describe("evalgate calibrate after a real decision", () => {
  it("reports the decision's labels, the marked score as the judge's disagreement", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const env = serverEnv(server);
      // No answers: the run stops at the first review (research) and stays paused.
      const run = await evalgate(["run", "rfp.md", "--db", DB], { cwd, env });
      expect(run.code).toBe(0);
      const threadId = threadIdOf(run.stdout);
      const decided = await evalgate(
        [
          ...["review", threadId, "approve", "--db", DB],
          ...["--correct", "funder_priorities=0.4", "--note", "funder_priorities=wrong funder"],
        ],
        { cwd, env },
      );
      expect(decided.stderr).not.toContain("evalgate:");
      expect(decided.code).toBe(0);

      const calibrated = await evalgate(["calibrate", "--db", DB, "--format", "json"], {
        cwd,
        env,
      });
      expect(calibrated.code).toBe(0);
      const report = CalibrationReportSchema.parse(JSON.parse(calibrated.stdout));
      // The research review: 5 criteria, all judged 0.85 and met (thresholds 0.7, 0.7, 0.6,
      // 0.6, 0.5); funder_priorities marked 0.4 (below 0.7: the reviewer fails it).
      expect(report.overall.counts).toEqual({
        labels: 5,
        marked: 1,
        accepted: 4,
        judgeErrors: 0,
        compared: 5,
      });
      // 4 both pass, 1 judge only: po = 4/5; the judge passed everything (pJ = 1), pR = 4/5,
      // pe = 1·4/5 + 0·1/5 = 4/5, κ = (4/5 − 4/5)/(1 − 4/5) = 0: no better than chance.
      expect(report.overall.table).toEqual({
        bothPass: 4,
        judgeOnlyPass: 1,
        reviewerOnlyPass: 0,
        bothFail: 0,
      });
      expect(report.overall.agreement.value).toBeCloseTo(0.8, 12);
      expect(report.overall.kappa.value).toBeCloseTo(0, 12);
      expect(report.disagreements).toMatchObject([
        {
          criterionId: "funder_priorities",
          disagreed: 1,
          compared: 1,
          judgeTooLenient: 1,
          judgeTooStrict: 0,
        },
      ]);
      const funder = report.contentTypes
        .flatMap((group) => group.criteria)
        .find((criterion) => criterion.criterionId === "funder_priorities");
      expect(funder?.markedScores).toEqual([{ judge: 0.85, reviewer: 0.4 }]);
      // One decision, approved after the judge's gate passed: κ of one pair is not a figure.
      expect(report.gate).toMatchObject({ decisions: 1, approve: 1 });
      expect(report.gate.kappa).toEqual({ value: null, missing: "too-few-labels" });
    } finally {
      await server.close();
    }
  }, 180_000);
});
