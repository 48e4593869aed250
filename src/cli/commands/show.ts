import type { Command } from "commander";
import { Option } from "commander";
import type { CliContext } from "../context.js";
import { addStoreOptions, lazyAction } from "./options.js";

const HELP_AFTER = `
Prints the proposal a thread has written: the sections of config/proposal.json in order, then
appendix A (the research, the solution sought and the connection pairs it was written from) and
appendix B (each stage's score, verdict, funding status and passed, the round of writing, and
who decided what). A thread still under way prints its draft, marked as such, with the stages
not yet written or approved.

--out <file> writes it to a new file instead (an existing file is never overwritten), in the
format its name ends with (.html, .json, else Markdown) unless --format is given.

Examples:
  evalgate show 3f2c9a6e-…
  evalgate show 3f2c9a6e-… --format html --out proposal.html
  evalgate show 3f2c9a6e-… --format json | jq '.gates[] | {stage, verdict, passed}'
`;

export function registerShowCommand(program: Command, context: CliContext): void {
  const command = program
    .command("show")
    .description("print a thread's proposal (or its draft so far) as Markdown, JSON or HTML")
    .argument("<thread>", "the thread id (printed by evalgate run; see evalgate reviews)")
    .addOption(
      new Option(
        "--format <format>",
        "md, json or html (default md, or --out's extension)",
      ).choices(["md", "json", "html"]),
    )
    .option("--out <file>", "write it to this new file instead of stdout");
  addStoreOptions(command, "the threads")
    .addHelpText("after", HELP_AFTER)
    .action(lazyAction(context, async () => (await import("../actions/show.js")).runShow));
}
