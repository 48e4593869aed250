import type { Command } from "commander";
import type { CliContext } from "../context.js";
import type { StoreFlags } from "../review/store.js";
import { addStoreOptions } from "./options.js";

const HELP_AFTER = `
Rubrics are kept with their versions in the checkpoints' database (--db, or PostgreSQL with
--database-url, or when DATABASE_URL is set and no --db is given). Registering the same rubric again keeps its version; a changed one
gets the version it declares when that is new and later, else the next one (1.0.0 → 1.0.1).
The version a rubric's id points at is the active one: evaluate (with --db), run, serve and the
graph's stages judge with it instead of a catalog file of that id. Registering, or calibrate
--apply, makes the new version active; \`activate <id> <version>\` points back at a stored
version (a roll-back), or forward again.
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

export function registerRubricsCommand(program: Command, context: CliContext): void {
  const rubrics = program
    .command("rubrics")
    .description("register, list, show, activate and delete versioned rubrics")
    .addHelpText("after", HELP_AFTER);
  const list = rubrics
    .command("list")
    .description("list the active version of every rubric")
    .option("--target <type>", "only the rubrics for this target type")
    .option("--json", "print the list as JSON");
  addStoreOptions(list, "the rubric registry").action(
    async (options: StoreFlags & { target?: string; json?: boolean }) => {
      const { listRubrics } = await import("../actions/rubrics.js");
      await listRubrics(options, context);
    },
  );
  const show = rubrics
    .command("show")
    .description("show a rubric (its active version, or id@version) and its versions")
    .argument("<id>", "the rubric's id, or id@version for a stored version (also once deleted)")
    .option("--version <version>", "a stored version (the same as id@version)")
    .option("--json", "print the rubric as JSON");
  addStoreOptions(show, "the rubric registry").action(
    async (id: string, options: StoreFlags & { json?: boolean; version?: string }) => {
      const { showRubric } = await import("../actions/rubrics.js");
      await showRubric(id, options, context);
    },
  );
  const register = rubrics
    .command("register")
    .description("register every rubric of a JSON or TOON file")
    .argument("<file>", "the rubric file");
  addStoreOptions(register, "the rubric registry").action(
    async (file: string, options: StoreFlags) => {
      const { registerRubrics } = await import("../actions/rubrics.js");
      await registerRubrics(file, options, context);
    },
  );
  const activate = rubrics
    .command("activate")
    .description("make a stored version the one gates judge with (a roll-back)")
    .argument("<id>", "the rubric's id")
    .argument("<version>", "a stored version of it");
  addStoreOptions(activate, "the rubric registry").action(
    async (id: string, version: string, options: StoreFlags) => {
      const { activateRubric } = await import("../actions/rubrics.js");
      await activateRubric(id, version, options, context);
    },
  );
  const remove = rubrics
    .command("delete")
    .description("hide a rubric from the list (its versions stay readable)")
    .argument("<id>", "the rubric's id");
  addStoreOptions(remove, "the rubric registry").action(async (id: string, options: StoreFlags) => {
    const { deleteRubric } = await import("../actions/rubrics.js");
    await deleteRubric(id, options, context);
  });
}
