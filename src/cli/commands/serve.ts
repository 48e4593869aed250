import { type Command, Option } from "commander";
import type { RawServeOptions } from "../actions/serve.js";
import type { CliContext } from "../context.js";
import {
  addPanelOptions,
  addStoreOptions,
  addTimeoutOption,
  integerIn,
  MODEL_CHECK_HELP,
} from "./options.js";

const HELP_AFTER = `
What it does:
  Serves the review pages and the JSON API (see docs/api.md) until it gets SIGTERM or Ctrl-C,
  then stops taking requests, lets running ones finish, cuts running jobs short at their last
  finished step (the next start goes on with them) and closes the database. Proposals run as jobs
  inside the service.

Store:
  --db <file>: the SQLite file, the one the other commands use (default
  .evalgate/checkpoints.sqlite). --database-url <url>, or DATABASE_URL without --db, switches to
  PostgreSQL, where any number of replicas share the work. (--data <folder> still works for
  --db <folder>/checkpoints.sqlite, with a notice.)

Sign-in:
  Reviewers sign in with a token from \`evalgate reviewers add <name>\`. Pages keep a sealed
  session cookie; replicas behind one address need the same EVALGATE_SESSION_SECRET.

Model:
${MODEL_CHECK_HELP}
  The check is made at start-up: the service does not start without its model.
  --judge provider:model, two or more, makes a panel for every proposal the service runs: the
  model writes, each judge judges every LLM criterion, --aggregate (median, mean or majority)
  makes the score, and agreement under --min-agreement holds the stage for a reviewer. The review
  page shows each judge's answer and the agreement per criterion.

Examples:
  evalgate serve
  evalgate serve --host 0.0.0.0 --port 8080 --db /var/lib/evalgate/checkpoints.sqlite
  DATABASE_URL=postgres://… EVALGATE_SESSION_SECRET=… evalgate serve --host 0.0.0.0
`;

export function registerServeCommand(program: Command, context: CliContext): void {
  const command = program
    .command("serve")
    .description("serve the review pages and the review API over HTTP")
    .option("--host <address>", "address to listen on", "127.0.0.1")
    .option("--port <n>", "port to listen on", integerIn(0, 65_535), 8080)
    .addOption(
      new Option("--data <folder>", "deprecated: --db <folder>/checkpoints.sqlite").hideHelp(),
    )
    .option(
      "-m, --model <provider:model>",
      "writer and judge model, e.g. ollama:qwen2.5:7b-instruct",
    );
  addStoreOptions(command, "the reviews");
  addTimeoutOption(command);
  addPanelOptions(command, "a judge of a panel (repeat for each judge; --model still writes)")
    .addHelpText("after", HELP_AFTER)
    .action(async (options: RawServeOptions) => {
      const { serveReviews } = await import("../actions/serve.js");
      // SIGTERM shuts the service down gracefully, as Ctrl-C does; the listener stays until it
      // stopped, since signal-exit (loaded with the embedded model) kills when none listens.
      const stop = new AbortController();
      const onTerminate = () => stop.abort(new Error("terminated (SIGTERM)"));
      const onCancel = () => stop.abort(context.signal?.reason);
      process.on("SIGTERM", onTerminate);
      context.signal?.addEventListener("abort", onCancel, { once: true });
      if (context.signal?.aborted === true) onCancel();
      try {
        await serveReviews(options, context, stop.signal);
      } finally {
        process.off("SIGTERM", onTerminate);
        context.signal?.removeEventListener("abort", onCancel);
      }
    });
}
