import { type Command, InvalidArgumentError, Option } from "commander";
import type { CalibrateCommandOptions } from "../actions/calibrateSources.js";
import { type CliContext, processStdin } from "../context.js";
import { addStoreOptions } from "./options.js";

const FORMATS = ["md", "html", "json"] as const;

const UNIT_MS: Readonly<Record<string, number>> = {
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** --since / --until: an ISO 8601 date or time, or a duration back from now (12h, 30d, 2w). */
export function parseCalibrationTime(value: string, now: number = Date.now()): string {
  const trimmed = value.trim();
  const duration = /^(\d{1,6})([hdw])$/.exec(trimmed);
  if (duration !== null) {
    return new Date(now - Number(duration[1]) * (UNIT_MS[duration[2] ?? "d"] ?? 0)).toISOString();
  }
  const time = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(trimmed)
    ? Date.parse(trimmed)
    : Number.NaN;
  if (Number.isNaN(time)) {
    throw new InvalidArgumentError(
      "expected a date (2026-11-01), an ISO 8601 time (2026-11-01T09:30:00Z) or a duration back from now (12h, 30d, 2w).",
    );
  }
  return new Date(time).toISOString();
}

export function registerCalibrateCommand(program: Command, context: CliContext): void {
  const command = program
    .command("calibrate")
    .description("report how well the judge agrees with the reviewers' decisions")
    .option("--since <when>", "labels decided from then on: 2026-11-01, an ISO time, or 30d", (v) =>
      parseCalibrationTime(v),
    )
    .option("--until <when>", "labels decided before then (same forms as --since)", (v) =>
      parseCalibrationTime(v),
    )
    .option(
      "-t, --content-type <type>",
      "only the labels of this content type (research, budget, …; a typo is refused)",
    )
    .addOption(new Option("-f, --format <format>", "output format").choices(FORMATS).default("md"))
    .option("-o, --out <file>", "write the report to this file instead of stdout")
    .option(
      "--compare",
      "judge the period's labelled evaluations again without and with reviewer corrections as few-shot examples, and compare",
    )
    .option(
      "--apply",
      "write the recommended thresholds as a new catalog version in the registry (asks to confirm)",
    )
    .option(
      "--catalog <file>",
      "with --compare or --apply: the catalog the labels were judged with (its active registry version when the store holds its id)",
    )
    .option(
      "--rubric <id>",
      "with --compare or --apply: a rubric of the registry instead of --catalog",
    )
    .option("-m, --model <provider:model>", "with --compare: the judge model")
    .option("-y, --yes", "with --apply: do not ask (for scripts)")
    .option(
      "--force",
      "with --apply: write the thresholds even when they agree worse with the held-out (later) labels",
    );
  addStoreOptions(command, "the reviews")
    .addHelpText(
      "after",
      "\nEvery reviewer decision is a label per criterion: the judge's score and pass/fail next to\n" +
        "the reviewer's (the score they gave where they marked the judge's as wrong, else the\n" +
        "judge's score they accepted when deciding, kept as theirs: a replay moves only the judge). The\n" +
        "report gives, per content type and criterion, Cohen's kappa on pass/fail, Spearman's rho\n" +
        "on scores, the threshold that would have agreed best, and the criteria whose judge\n" +
        "disagrees most; --format html adds charts. --compare replays the labelled evaluations\n" +
        "without and with few-shot examples (each shown only corrections decided before it);\n" +
        "--apply fits each threshold on the earlier half of the period's labels and measures it\n" +
        "on the later half, which the fit never saw (held out; in-sample figures beside them);\n" +
        "it writes the thresholds (criteria with at least 10 comparable labels, 5 each side) as a\n" +
        "new registry version after an admin confirms, and refuses with exit code 1 when a\n" +
        "threshold's held-out agreement drops, unless --force. See docs/calibration.md.\n",
    )
    .action(async (options: CalibrateCommandOptions) => {
      const { runCalibrate } = await import("../actions/calibrate.js");
      // The admin's yes to --apply.
      await runCalibrate(options, context, processStdin());
    });
}
