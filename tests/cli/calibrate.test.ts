/**
 * `evalgate calibrate` end to end: labels written through a real SQLite review store, the command
 * run in a child process, the figures checked against values computed by hand.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CalibrationReportSchema } from "../../src/calibration/reportModel.js";
import { parseCalibrationTime } from "../../src/cli/commands/calibrate.js";
import { openReviewStore } from "../../src/store/index.js";
import { labelHistory } from "../calibration/calibrationHistory.js";
import { runEvalgate, SPAWN_TIMEOUT } from "./helpers.js";

let dir = "";
const DB = "reviews.sqlite";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-calibrate-"));
  const store = await openReviewStore({ sqlitePath: join(dir, DB) });
  try {
    await store.addCalibrationLabels(labelHistory());
  } finally {
    await store.close();
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const calibrate = (args: readonly string[]) =>
  runEvalgate(["calibrate", ...args], { cwd: dir, timeoutMs: SPAWN_TIMEOUT });

describe("--since and --until", () => {
  const now = Date.parse("2026-11-23T12:00:00.000Z");

  it("take dates, ISO times and durations back from now", () => {
    expect(parseCalibrationTime("2026-11-01", now)).toBe("2026-11-01T00:00:00.000Z");
    expect(parseCalibrationTime("2026-11-01T09:30:00+01:00", now)).toBe("2026-11-01T08:30:00.000Z");
    // 30 days before noon on the 23rd: noon on 24 October.
    expect(parseCalibrationTime("30d", now)).toBe("2026-10-24T12:00:00.000Z");
    expect(parseCalibrationTime("12h", now)).toBe("2026-11-23T00:00:00.000Z");
    expect(parseCalibrationTime("2w", now)).toBe("2026-11-09T12:00:00.000Z");
  });

  it("refuse anything else", () => {
    for (const bad of ["yesterday", "30", "30 days", "2026-13-45", "-5d", ""]) {
      expect(() => parseCalibrationTime(bad, now)).toThrow(/expected a date/);
    }
  });
});

describe.concurrent("evalgate calibrate", () => {
  it(
    "prints the report as JSON with the hand-computed figures",
    async () => {
      const run = await calibrate(["--db", DB, "--format", "json"]);
      expect(run.stderr).toBe(`24 labels of 23 decisions from ${DB}\n`);
      expect(run.code).toBe(0);
      const report = CalibrationReportSchema.parse(JSON.parse(run.stdout));
      // c1 is an 8/2/1/9 table: κ = 0.70; best threshold 0.60 (see the scoring tests).
      const c1 = report.contentTypes[0]?.criteria[0];
      expect(c1?.figures.kappa.value).toBeCloseTo(0.7, 12);
      expect(c1?.sweep?.best.threshold).toBe(0.6);
      // d21's gate failed for want of the judge's answer: in no gate figure (tests/calibration).
      expect(report.gate.kappa.value).toBeCloseTo(86 / 119, 12);
      expect(report.gate.judgeErrors).toBe(1);
      expect(report.disagreements.map((entry) => entry.criterionId)).toEqual(["c2", "c1"]);
    },
    SPAWN_TIMEOUT,
  );

  it(
    "limits the labels to a time window and a content type (Markdown)",
    async () => {
      const run = await calibrate([
        "--db",
        DB,
        "--since",
        "2026-10-02",
        "--until",
        "2026-10-11",
        "--content-type",
        "budget",
      ]);
      expect(run.code).toBe(0);
      // d2…d10, one c1 label each: 6 accepted at 0.8 and 0.8→0.9 (both pass), 0.4→0.2 (both
      // fail), 0.9→0.5 (judge only): 7/1/0/1, n = 9, po = 8/9 ≈ 88.9%, pJ = 8/9, pR = 7/9,
      // pe = (56 + 2)/81, κ = (72 − 58)/(81 − 58) = 14/23 ≈ 0.61.
      expect(run.stdout).toContain("| Costs are justified (c1) | 9 | 3 | 6 | 0 | 88.9% | 0.61 |");
      // Gate: passed & approve d2–d6, passed & revise d7, d8, failed & approve d9, failed &
      // revise d10: 5/2/1/1, po = 6/9, pJ = 7/9, pR = 6/9, pe = (42 + 6)/81, κ = 6/33 ≈ 0.18.
      expect(run.stdout).toContain("| budget | 9 | 6 | 3 | 0 | 0 | 66.7% | 0.18 |");
      expect(run.stdout).not.toContain("summary");
      expect(run.stderr).toBe(`9 labels of 9 decisions from ${DB}\n`);
    },
    SPAWN_TIMEOUT,
  );

  it(
    "writes the HTML page to --out",
    async () => {
      const run = await calibrate(["--db", DB, "--since", "36500d", "-f", "html", "-o", "c.html"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("wrote the html calibration report to c.html\n");
      const html = await readFile(join(dir, "c.html"), "utf8");
      expect(html).toContain(`<svg class="chart kappa-bars"`);
      expect(html).toContain("Budget &lt;script&gt;alert(1)&lt;/script&gt; &amp; totals (c2)");
      expect(html).not.toContain("<script");
    },
    SPAWN_TIMEOUT,
  );

  it(
    "refuses a bad --since with a usage error",
    async () => {
      const run = await calibrate(["--db", DB, "--since", "last week"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain("option '--since <when>' argument 'last week' is invalid");
      expect(run.stderr).toContain("expected a date (2026-11-01)");
      expect(run.stdout).toBe("");
      // A period that ends before it starts: one line saying which bound, in the product's words.
      const backwards = await calibrate([
        "--db",
        DB,
        "--since",
        "2026-10-05",
        "--until",
        "2026-10-01",
      ]);
      expect(backwards.code).toBe(2);
      expect(backwards.stderr).toBe(
        "evalgate: until: 2026-10-01T00:00:00.000Z is not after since (2026-10-05T00:00:00.000Z) [INVALID_INPUT]\n",
      );
    },
    SPAWN_TIMEOUT,
  );

  it(
    "refuses a store that is not there, and does not create it",
    async () => {
      const run = await calibrate(["--db", "missing.sqlite"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        "evalgate: --db file missing.sqlite: does not exist (no reviews were kept there) [INPUT_FILE_UNREADABLE]\n",
      );
      expect(existsSync(join(dir, "missing.sqlite"))).toBe(false);
    },
    SPAWN_TIMEOUT,
  );

  it(
    "says so when the scope holds no label",
    async () => {
      const run = await calibrate(["--db", DB, "--content-type", "timeline", "-f", "md"]);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("no reviewer labels found");
      expect(run.stderr).toBe(`no reviewer labels in ${DB} for this scope\n`);
    },
    SPAWN_TIMEOUT,
  );
});
