import { type Command, Option } from "commander";
import type { CliContext } from "../context.js";

const DB_HELP = "SQLite file of the review store (default .evalgate/checkpoints.sqlite)";

const HELP_AFTER = `
Reviewers sign in to the review service with a token. \`add\` prints the new token once: the store
keeps only its SHA-256 hash, so a lost token is revoked and the reviewer added again under a new
name. With DATABASE_URL set (and no --db), the reviewers live in that PostgreSQL database.

Examples:
  evalgate reviewers add ana
  evalgate reviewers add lee --role admin
  evalgate reviewers list
  evalgate reviewers revoke ana
`;

export function registerReviewersCommand(program: Command, context: CliContext): void {
  const reviewers = program
    .command("reviewers")
    .description("add, list and revoke the reviewers of the review service")
    .addHelpText("after", HELP_AFTER);
  reviewers
    .command("add")
    .description("add a reviewer and print its token (shown once)")
    .argument("<name>", "the reviewer's name (letters, digits, . _ - @)")
    .addOption(
      new Option("--role <role>", "what the reviewer may do")
        .choices(["reviewer", "admin"])
        .default("reviewer"),
    )
    .option("--db <file>", DB_HELP)
    .action(async (name: string, options: { role: "reviewer" | "admin"; db?: string }) => {
      const { addReviewer } = await import("../actions/reviewers.js");
      await addReviewer(name, options, context);
    });
  reviewers
    .command("list")
    .description("list the reviewers, their roles and whether they are revoked")
    .option("--db <file>", DB_HELP)
    .action(async (options: { db?: string }) => {
      const { listReviewers } = await import("../actions/reviewers.js");
      await listReviewers(options, context);
    });
  reviewers
    .command("revoke")
    .description("revoke a reviewer's token")
    .argument("<name>", "the reviewer's name")
    .option("--db <file>", DB_HELP)
    .action(async (name: string, options: { db?: string }) => {
      const { revokeReviewer } = await import("../actions/reviewers.js");
      await revokeReviewer(name, options, context);
    });
}
