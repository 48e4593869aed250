/** Argument parsers shared by the commands: commander reports what they throw as a usage error. */
import { type Command, InvalidArgumentError, Option } from "commander";
import { DEFAULT_SQLITE_PATH } from "../../store/location.js";
import type { CliContext } from "../context.js";
import { PANEL_AGGREGATES } from "../panelJudges.js";

/**
 * An action whose module loads only when it runs, so `--help` and the other commands start fast.
 */
export function lazyAction<Args extends unknown[]>(
  context: CliContext,
  load: () => Promise<(...args: [...Args, CliContext]) => Promise<void>>,
): (...args: [...Args, Command]) => Promise<void> {
  return async (...args) => {
    const run = await load();
    await run(...(args.slice(0, -1) as Args), context);
  };
}

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

export function collectValues(value: string, previous: readonly string[] = []): string[] {
  return [...previous, value];
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

/** `--db <file>` and `--database-url <url>`, named the same on every command with a store. */
export function addStoreOptions(command: Command, what: string): Command {
  return command
    .option("--db <file>", `SQLite file of ${what} (default ${DEFAULT_SQLITE_PATH})`)
    .option(
      "--database-url <url>",
      `PostgreSQL database of ${what} instead (default DATABASE_URL when no --db)`,
    );
}

/** `--timeout <ms>`: the deadline of each model call, the same on every command that calls one. */
export function addTimeoutOption(command: Command): Command {
  return command.option(
    "--timeout <ms>",
    "per model call, in milliseconds (default 60000; 300000 on the embedded model)",
    integerIn(1, 3_600_000),
  );
}

/** The first lines of the `Model:` part of the help of every command that calls a model. */
export const MODEL_CHECK_HELP = `  --model provider:model, else ollama:<EVALGATE_MODEL>, is checked before anything runs: for an
  ollama: model, Ollama must answer at OLLAMA_BASE_URL (default http://127.0.0.1:11434) and
  have the model pulled, else evalgate stops with exit code 2 and says what to run. With no
  model named at all (no --model, no EVALGATE_MODEL), it uses Ollama when it runs and has
  qwen2.5:7b-instruct, else the embedded model (downloaded once into the cache folder), and
  says which in one line on stderr. --timeout <ms> bounds each model call.`;
