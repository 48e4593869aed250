/** Argument parsers shared by the commands: commander reports what they throw as a usage error. */
import { type Command, InvalidArgumentError, Option } from "commander";

/** A whole number within [min, max], for options such as --timeout and --concurrency. */
export function integerIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const trimmed = value.trim();
    const parsed = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    }
    return parsed;
  };
}

/** A number within [min, max] (decimals allowed), for options such as --min-agreement. */
export function numberIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const trimmed = value.trim();
    const parsed = /^-?(?:\d+(?:\.\d+)?|\.\d+)$/.test(trimmed) ? Number(trimmed) : Number.NaN;
    if (!Number.isFinite(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}.`);
    }
    return parsed;
  };
}

/** Collects a repeated option's values in order (`--judge a --judge b`). */
export function collectValues(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
}

/** How a panel's answers become the score. */
export const PANEL_AGGREGATES = ["median", "mean", "majority"] as const;

/** The panel options as commander parses them: `--judge` (repeated), `--aggregate`, `--min-agreement`. */
export interface PanelFlags {
  judge?: string[];
  aggregate?: (typeof PANEL_AGGREGATES)[number];
  minAgreement?: number;
}

/** Adds the panel options, the same for every command that judges. */
export function addPanelOptions(command: Command, judgeHelp: string): Command {
  return command
    .option("--judge <provider:model>", judgeHelp, collectValues)
    .addOption(
      new Option(
        "--aggregate <how>",
        "how a panel's answers become the score (default median)",
      ).choices(PANEL_AGGREGATES),
    )
    .option(
      "--min-agreement <x>",
      "a panel's agreement (-1 to 1) under which a human must review",
      numberIn(-1, 1),
    );
}
