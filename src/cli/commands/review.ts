import { Argument, type Command } from "commander";
import type { ReviewAction } from "../../graph/model.js";
import type { ReviewCommandOptions } from "../actions/review.js";
import type { CliContext } from "../context.js";
import { CliError } from "../errors.js";
import {
  addStoreOptions,
  addTimeoutOption,
  collectValues,
  integerIn,
  lazyAction,
} from "./options.js";

const HELP_AFTER = `
Decides on the review the thread waits for, without prompts, and prints the next review (or
"completed" with each stage's status and score). Exit code 2, with one message, when there is
no such thread, it waits for no review, or the review does not take this decision.

With --retry <thread> (and no decision), a failed thread runs again: a decision the run
refused is set aside and its review is asked anew; otherwise the run goes on from its last
step. Exit code 2 when the thread has not failed.

Examples:
  evalgate review 3f2c9a6e-… approve --reviewer ana --comment "Sourced and specific."
  evalgate review 3f2c9a6e-… revise --feedback "Name the funder's priorities."
  evalgate review 3f2c9a6e-… edit --content-file budget.md
  evalgate review 3f2c9a6e-… retry
  evalgate review --retry 3f2c9a6e-…
  evalgate review 3f2c9a6e-… approve --correct c2=2 --note c2="an incremental sensor"

--correct marks a criterion's score as wrong and gives the right one on the criterion's own
scale: a number for a scored criterion (2 on a 1–5 criterion, 0.4 on a 0–1 one), a level id for
a criterion decided on levels, pass or fail for a check. It goes with approve, revise or edit and
is kept as a calibration label (evalgate calibrate reports on them).
`;

/** REVIEW_ACTIONS, spelled out so that loading the command needs no schema module. */
const ACTIONS = ["approve", "revise", "edit", "retry"] as const satisfies readonly ReviewAction[];

type RawReviewOptions = ReviewCommandOptions & { retry?: string };

/** `reviews` (the list), then `review` (a decision). */
export function registerReviewCommand(program: Command, context: CliContext): void {
  const list = program
    .command("reviews")
    .description("list the threads waiting for a reviewer's decision")
    .option("--json", "print the list as JSON");
  addStoreOptions(list, "the threads")
    .addHelpText(
      "after",
      "\nOne line per paused thread: its id, the stage under review, the review type\n" +
        "(evaluation_review, evaluation_error, generation_error, revision_limit), the score and\n" +
        "verdict, and since when it waits. Decide with `evalgate review <thread> …`.\n" +
        "With --json: { store, reviews: [...], workLeft: [...] }.\n",
    )
    .action(lazyAction(context, async () => (await import("../actions/reviews.js")).runReviewList));
  const command = program
    .command("review")
    .description("decide on a paused thread's review: approve, revise, edit or retry")
    .argument("[thread]", "the thread id (see evalgate reviews)")
    .addArgument(new Argument("[action]", "the decision").choices(ACTIONS))
    .option("--feedback <text>", "what the writer should change (revise)")
    .option("--content-file <file>", "the new content (edit)")
    .option("--reviewer <name>", "who decided")
    .option("--comment <text>", "a note kept with the decision")
    .option(
      "--correct <criterion=value>",
      "a score the judge got wrong, on the criterion's own scale (2 on 1–5, a level id, pass/fail); repeatable",
      collectValues,
    )
    .option("--note <criterion=text>", "why a corrected score is wrong; repeatable", collectValues)
    .option(
      "-m, --model <provider:model>",
      "the thread's model, given again when its URL needs credentials (another one is refused: run --thread --override-settings changes it)",
    )
    .option(
      "--max-revisions <n>",
      "revision limit: the thread's own (another one is refused, as for --model)",
      integerIn(0, 50),
    )
    .option("--no-cache", "ask the judge for every criterion; keep no answer in the database")
    .option("--retry <thread>", "run a failed thread again (a refused decision is set aside)");
  addStoreOptions(command, "the threads");
  addTimeoutOption(command)
    .addHelpText("after", HELP_AFTER)
    .action(
      async (thread: string | undefined, action: string | undefined, options: RawReviewOptions) => {
        const { retry, ...decisionOptions } = options;
        if (retry !== undefined) {
          if (thread !== undefined || action !== undefined) {
            throw new CliError(
              "--retry takes the thread id alone: give no other thread or decision",
            );
          }
          const { runRetryThread } = await import("../actions/review.js");
          await runRetryThread(retry, decisionOptions, context);
          return;
        }
        if (thread === undefined || action === undefined) {
          throw new CliError("give the thread id and the decision (or --retry <thread>)");
        }
        const { runReviewDecision } = await import("../actions/review.js");
        await runReviewDecision(thread, action, decisionOptions, context);
      },
    );
}
