import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { addStoreOptions, lazyAction } from "./options.js";

export function registerReviewsCommand(program: Command, context: CliContext): void {
  const command = program
    .command("reviews")
    .description("list the threads waiting for a reviewer's decision")
    .option("--json", "print the list as JSON");
  addStoreOptions(command, "the threads")
    .addHelpText(
      "after",
      "\nOne line per paused thread: its id, the stage under review, the review type\n" +
        "(evaluation_review, evaluation_error, generation_error, revision_limit), the score and\n" +
        "verdict, and since when it waits. Decide with `evalgate review <thread> …`.\n" +
        "With --json: { store, reviews: [...], workLeft: [...] }.\n",
    )
    .action(lazyAction(context, async () => (await import("../actions/reviews.js")).runReviewList));
}
