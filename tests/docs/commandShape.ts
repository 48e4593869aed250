/**
 * Checks a documented command against the real program (commander's object, the one `--help`
 * prints): the command and its subcommands exist, and every option the docs give it is an option
 * of that command (or of the program: -v, -h). Templates are read loosely: `[…]` marks optional
 * parts, `a|b` alternatives, `<name>` and `…` placeholders.
 */
import type { Command } from "commander";
import { createCliContext } from "../../src/cli/context.js";
import { createProgram } from "../../src/cli/main.js";

/** The program as the bin builds it, writing nowhere. */
export function evalgateProgram(): Command {
  const nowhere = { write: () => true };
  return createProgram(createCliContext({ stdout: nowhere, stderr: nowhere, env: {}, cwd: "/" }));
}

function hasOption(command: Command, flag: string): boolean {
  return command.options.some((option) => option.long === flag || option.short === flag);
}

/** What is wrong with a command line's shape, or an empty list. */
export function shapeProblems(program: Command, args: readonly string[]): string[] {
  const problems: string[] = [];
  const tokens = args
    .flatMap((word) => word.replace(/[[\]]/g, " ").split(/[\s|]+/))
    .filter((token) => token !== "" && token !== "…" && token !== "...");
  let command = program;
  let path = "evalgate";
  let expectingSubcommand = true;
  for (const token of tokens) {
    if (token.startsWith("-")) {
      const flag = token.split("=")[0] ?? token;
      const known = hasOption(command, flag) || hasOption(program, flag) || flag === "--help";
      if (!known) problems.push(`${path} has no option ${flag}`);
      continue;
    }
    if (!expectingSubcommand) continue;
    if (command.commands.length === 0) {
      expectingSubcommand = false;
      continue;
    }
    const sub = command.commands.find((c) => c.name() === token || c.aliases().includes(token));
    if (sub === undefined) {
      // A placeholder or an argument where a subcommand may stand (`review <thread> approve`).
      if (token.startsWith("<") || token.startsWith("$")) continue;
      problems.push(`${path} has no command ${token}`);
      expectingSubcommand = false;
      continue;
    }
    command = sub;
    path = `${path} ${token}`;
  }
  return problems;
}

/** Every command path of the program: `evaluate`, `catalog validate`, `rubrics show`, … */
export function commandPaths(program: Command): string[][] {
  const paths: string[][] = [];
  const walk = (command: Command, prefix: string[]) => {
    for (const sub of command.commands) {
      const path = [...prefix, sub.name()];
      paths.push(path);
      walk(sub, path);
    }
  };
  walk(program, []);
  return paths;
}
