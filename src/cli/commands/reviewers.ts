import { type Command, Option } from "commander";
import type { CliContext } from "../context.js";
import { addStoreOptions, lazyAction } from "./options.js";

const HELP_AFTER = `
Reviewers sign in to the review service with a token. \`add\` prints the new token once: the store
keeps only its SHA-256 hash, so a lost token is revoked and the reviewer added again under a new
name. With --database-url, or DATABASE_URL set and no --db, the reviewers live in that
PostgreSQL database. \`list --json\` prints { store, reviewers: [{ name, role, createdAt,
revokedAt }] }.

Examples:
  evalgate reviewers add ana
  evalgate reviewers add lee --role admin
  evalgate reviewers list
  evalgate reviewers revoke ana
`;

const actions = () => import("../actions/reviewers.js");

export function registerReviewersCommand(program: Command, context: CliContext): void {
  const reviewers = program
    .command("reviewers")
    .description("add, list and revoke the reviewers of the review service")
    .addHelpText("after", HELP_AFTER);
  const subcommand = (name: string, description: string) =>
    addStoreOptions(reviewers.command(name).description(description), "the reviewers");
  subcommand("add", "add a reviewer and print its token (shown once)")
    .argument("<name>", "the reviewer's name (letters, digits, . _ - @)")
    .addOption(
      new Option("--role <role>", "what the reviewer may do")
        .choices(["reviewer", "admin"])
        .default("reviewer"),
    )
    .action(lazyAction(context, async () => (await actions()).addReviewer));
  subcommand("list", "list the reviewers, their roles and whether they are revoked")
    .option("--json", "print the list as JSON")
    .action(lazyAction(context, async () => (await actions()).listReviewers));
  subcommand("revoke", "revoke a reviewer's token")
    .argument("<name>", "the reviewer's name")
    .action(lazyAction(context, async () => (await actions()).revokeReviewer));
}
