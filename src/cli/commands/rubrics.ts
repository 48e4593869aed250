import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { addStoreOptions, lazyAction } from "./options.js";

const HELP_AFTER = `
Rubrics are kept with their versions in the checkpoints' database (--db, or PostgreSQL with
--database-url, or when DATABASE_URL is set and no --db is given). Registering the same rubric again keeps its version; a changed one
gets the version it declares when that is new and later, else the next one (1.0.0 → 1.0.1).
The version a rubric's id points at is the active one: evaluate (with --db), run, serve and the
graph's stages judge with it instead of a catalog file of that id. Registering, or calibrate
--apply, makes the new version active; \`activate <id> <version>\` (or \`activate <id>@<version>\`,
as results name it) points back at a stored version (a roll-back), or forward again.
\`delete\` hides a rubric from the list; each of its versions stays readable with
\`show <id>@<version>\` (or \`show <id> --version <version>\`). \`list --json\` prints { store,
rubrics: [{ id, version, name, targetType, criteria }] }.

A rubric file is JSON or TOON: one levels rubric, or { "rubrics": [ ... ] }.

Examples:
  evalgate rubrics register config/rubrics.json
  evalgate rubrics list --target content
  evalgate rubrics show content_quality
  evalgate rubrics show content_quality@1.0.0 --json
  evalgate rubrics show content_quality --version 1.0.0
  evalgate rubrics activate content_quality 1.0.0
  evalgate rubrics delete content_quality
`;

const actions = () => import("../actions/rubrics.js");

export function registerRubricsCommand(program: Command, context: CliContext): void {
  const rubrics = program
    .command("rubrics")
    .description("register, list, show, activate and delete versioned rubrics")
    .addHelpText("after", HELP_AFTER);
  const subcommand = (name: string, description: string) =>
    addStoreOptions(rubrics.command(name).description(description), "the rubric registry");
  subcommand("list", "list the active version of every rubric")
    .option("--target <type>", "only the rubrics for this target type")
    .option("--json", "print the list as JSON")
    .action(lazyAction(context, async () => (await actions()).listRubrics));
  subcommand("show", "show a rubric (its active version, or id@version) and its versions")
    .argument("<id>", "the rubric's id, or id@version for a stored version (also once deleted)")
    .option("--version <version>", "a stored version (the same as id@version)")
    .option("--json", "print the rubric as JSON")
    .action(lazyAction(context, async () => (await actions()).showRubric));
  subcommand("register", "register every rubric of a JSON or TOON file")
    .argument("<file>", "the rubric file")
    .action(lazyAction(context, async () => (await actions()).registerRubrics));
  subcommand("activate", "make a stored version the one gates judge with (a roll-back)")
    .argument("<id>", "the rubric's id, or id@version")
    .argument("[version]", "a stored version of it (unless given as id@version)")
    .action(lazyAction(context, async () => (await actions()).activateRubric));
  subcommand("delete", "hide a rubric from the list (its versions stay readable)")
    .argument("<id>", "the rubric's id")
    .action(lazyAction(context, async () => (await actions()).deleteRubric));
}
