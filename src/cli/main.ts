/** The `evalgate` program. Exit codes: 0 ok, 1 not passed, 2 any error, 130 cancelled. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command, CommanderError } from "commander";
import { PACKAGE_ROOT } from "../graph/proposalConfig.js";
import { registerBlueprintCommand } from "./commands/blueprint.js";
import { registerCalibrateCommand } from "./commands/calibrate.js";
import { registerCatalogCommand } from "./commands/catalog.js";
import { registerEvaluateCommand } from "./commands/evaluate.js";
import { registerReviewCommand } from "./commands/review.js";
import { registerReviewersCommand } from "./commands/reviewers.js";
import { registerRubricsCommand } from "./commands/rubrics.js";
import { registerRunCommand } from "./commands/run.js";
import { registerServeCommand } from "./commands/serve.js";
import { registerShowCommand } from "./commands/show.js";
import {
  type CliContext,
  createCliContext,
  EXIT_CANCELLED,
  EXIT_ERROR,
  EXIT_OK,
} from "./context.js";

/** Adds a command to the program; its heavy modules load inside its action. */
export type RegisterCommand = (program: Command, context: CliContext) => void;

/** Every command of the program, in the order `--help` lists them. */
export const COMMANDS: readonly RegisterCommand[] = [
  registerEvaluateCommand,
  registerCatalogCommand,
  registerRunCommand,
  registerReviewCommand,
  registerShowCommand,
  registerServeCommand,
  registerReviewersCommand,
  registerCalibrateCommand,
  registerRubricsCommand,
  registerBlueprintCommand,
];

function packageVersion(): string {
  try {
    const manifest: unknown = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8"));
    if (typeof manifest === "object" && manifest !== null && "version" in manifest) {
      return String(manifest.version);
    }
  } catch {
    // The version is informational; an unreadable manifest leaves it unknown.
  }
  return "unknown";
}

export function createProgram(
  context: CliContext,
  commands: readonly RegisterCommand[] = COMMANDS,
): Command {
  const program = new Command("evalgate")
    .description(
      "Quality gates for proposal-writing graphs: judge content against criteria catalogs " +
        "(TOON or JSON) with an LLM and deterministic checks.",
    )
    .version(packageVersion(), "-v, --version", "print the version")
    // Program options only before the command: `rubrics show <id> --version 1.0.0` is the
    // subcommand's own --version, not the program's.
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.stdout.write(text),
      writeErr: (text) => context.stderr.write(text),
    })
    .showHelpAfterError("(add --help for usage)");
  for (const register of commands) register(program, context);
  return program;
}

/** Commander's own exits: help and version are 0, usage errors (and help shown for one) 2. */
function commanderExitCode(error: CommanderError): number {
  if (error.code === "commander.helpDisplayed" || error.code === "commander.version") {
    return EXIT_OK;
  }
  if (error.code === "commander.help") return error.exitCode === 0 ? EXIT_OK : EXIT_ERROR;
  return EXIT_ERROR;
}

/** Runs one command line and returns the exit code; errors are one line on stderr, never thrown. */
export async function runCli(
  args: readonly string[],
  context: CliContext,
  commands: readonly RegisterCommand[] = COMMANDS,
): Promise<number> {
  const program = createProgram(context, commands);
  // -V, the version flag of earlier releases, still prints the version.
  const given = args[0] === "-V" ? ["--version", ...args.slice(1)] : [...args];
  try {
    await program.parseAsync(given, { from: "user" });
    return context.exitCode;
  } catch (error) {
    // Commander has already printed its message (usage errors, help, version).
    if (error instanceof CommanderError) return commanderExitCode(error);
    // Loaded only when needed: it knows every error code of the engine, and --help need not.
    const { commandError } = await import("./errorTable.js");
    const { exitCode, message } = commandError(error, context.cwd);
    context.stderr.write(`evalgate: ${message}\n`);
    // 130 only when this command's own cancel signal fired, never for a model call cancelled alone.
    if (context.signal?.aborted === true) return EXIT_CANCELLED;
    return exitCode;
  }
}

/**
 * The first Ctrl-C cancels the command, a second ends the process. The listener stays until the
 * command ends: signal-exit (loaded with the embedded model) kills the process when none listens.
 */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(EXIT_CANCELLED);
    controller.abort(new Error("interrupted (SIGINT)"));
  };
  process.on("SIGINT", onInterrupt);
  try {
    const context = createCliContext({
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
      cwd: process.cwd(),
      signal: controller.signal,
    });
    return await runCli(argv, context);
  } finally {
    process.off("SIGINT", onInterrupt);
  }
}
