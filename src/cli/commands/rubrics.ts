import type { Command } from "commander";
import type { CliContext } from "../context.js";

const DB_HELP = "SQLite file of the rubric registry (default .evalgate/checkpoints.sqlite)";

const HELP_AFTER = `
Rubrics are kept with their versions in the checkpoints' database (PostgreSQL when DATABASE_URL
is set and no --db is given). Registering the same rubric again keeps its version; a changed one
gets the version it declares when that is new and later, else the next one (1.0.0 → 1.0.1).
\`delete\` hides a rubric from the list; each of its versions stays readable with --version.

A rubric file is JSON or TOON: one levels rubric, or { "rubrics": [ ... ] }.

Examples:
  evalgate rubrics register config/rubrics.json
  evalgate rubrics list --target content
  evalgate rubrics show content_quality
  evalgate rubrics show content_quality@1.0.0 --json
  evalgate rubrics delete content_quality
`;

export function registerRubricsCommand(program: Command, context: CliContext): void {
  const rubrics = program
    .command("rubrics")
    .description("register, list, show and delete versioned rubrics")
    .addHelpText("after", HELP_AFTER);
  rubrics
    .command("list")
    .description("list the latest version of every rubric")
    .option("--target <type>", "only the rubrics for this target type")
    .option("--db <file>", DB_HELP)
    .action(async (options: { target?: string; db?: string }) => {
      const { listRubrics } = await import("../actions/rubrics.js");
      await listRubrics(options, context);
    });
  rubrics
    .command("show")
    .description("show a rubric (its latest version, or id@version) and its versions")
    .argument("<id>", "the rubric's id, or id@version for a stored version (also once deleted)")
    .option("--json", "print the rubric as JSON")
    .option("--db <file>", DB_HELP)
    .action(async (id: string, options: { json?: boolean; db?: string }) => {
      const { showRubric } = await import("../actions/rubrics.js");
      await showRubric(id, options, context);
    });
  rubrics
    .command("register")
    .description("register every rubric of a JSON or TOON file")
    .argument("<file>", "the rubric file")
    .option("--db <file>", DB_HELP)
    .action(async (file: string, options: { db?: string }) => {
      const { registerRubrics } = await import("../actions/rubrics.js");
      await registerRubrics(file, options, context);
    });
  rubrics
    .command("delete")
    .description("hide a rubric from the list (its versions stay readable)")
    .argument("<id>", "the rubric's id")
    .option("--db <file>", DB_HELP)
    .action(async (id: string, options: { db?: string }) => {
      const { deleteRubric } = await import("../actions/rubrics.js");
      await deleteRubric(id, options, context);
    });
}
