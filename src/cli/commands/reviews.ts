import type { Command } from "commander";
import type { CliContext } from "../context.js";

export function registerReviewsCommand(program: Command, context: CliContext): void {
  program
    .command("reviews")
    .description("list the threads waiting for a reviewer's decision")
    .option("--db <file>", "SQLite file for the threads (default .evalgate/checkpoints.sqlite)")
    .addHelpText(
      "after",
      "\nOne line per paused thread: its id, the stage under review, the review type\n" +
        "(evaluation_review, evaluation_error, generation_error, revision_limit), the score and\n" +
        "verdict, and since when it waits. Decide with `evalgate review <thread> …`.\n",
    )
    .action(async (options: { db?: string }) => {
      const { runReviewList } = await import("../actions/reviews.js");
      await runReviewList(options, context);
    });
}
