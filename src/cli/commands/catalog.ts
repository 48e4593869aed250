import { type Command, Option } from "commander";
import type { CliContext } from "../context.js";
import { lazyAction } from "./options.js";

/** `catalog validate | convert`, then `tokens`. */
export function registerCatalogCommand(program: Command, context: CliContext): void {
  const catalog = program.command("catalog").description("check and convert criteria catalogs");

  catalog
    .command("validate")
    .description("run the meta-rubric over a catalog and print its findings")
    .argument("<path>", "catalog file (TOON or JSON, any supported form)")
    .option("--json", "print the findings as JSON")
    .addHelpText(
      "after",
      "\nPrints each finding (severity, check, message, location), or the error that stops the\n" +
        "catalog from loading with its line; with --json, { file, valid, catalog, findings }.\n" +
        "Exit code 1 when there are errors, else 0.\n",
    )
    .action(
      lazyAction(context, async () => (await import("../actions/catalog.js")).runCatalogValidate),
    );

  catalog
    .command("convert")
    .description("write a catalog as evalgate's own model, in spec TOON or JSON")
    .argument("<path>", "catalog file (TOON or JSON, any supported form)")
    .addOption(
      new Option("--to <format>", "output format").choices(["toon", "json"]).makeOptionMandatory(),
    )
    .option("-o, --out <file>", "write to this file instead of stdout")
    .addHelpText(
      "after",
      "\nThe output is the normalised catalog (weights, thresholds, methods spelled out); it loads\n" +
        "back to an equal catalog with evalgate.\n",
    )
    .action(
      lazyAction(context, async () => (await import("../actions/catalog.js")).runCatalogConvert),
    );

  program
    .command("tokens")
    .description("count o200k tokens of a data file as TOON, pretty JSON and minified JSON")
    .argument("<file>", "a .json file (its value) or a .toon file (decoded); a catalog is fine")
    .option("--json", "print the counts as JSON")
    .action(lazyAction(context, async () => (await import("../actions/tokens.js")).runTokens));
}
