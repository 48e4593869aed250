import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { lazyAction } from "./options.js";

export function registerTokensCommand(program: Command, context: CliContext): void {
  program
    .command("tokens")
    .description("count o200k tokens of a data file as TOON, pretty JSON and minified JSON")
    .argument("<file>", "a .json file (its value) or a .toon file (decoded); a catalog is fine")
    .option("--json", "print the counts as JSON")
    .action(lazyAction(context, async () => (await import("../actions/tokens.js")).runTokens));
}
