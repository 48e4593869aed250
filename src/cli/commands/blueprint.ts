import { type Command, Option } from "commander";
import type { CliContext } from "../context.js";
import { addTimeoutOption, integerIn, lazyAction, MODEL_CHECK_HELP, numberIn } from "./options.js";

const HELP_AFTER = `
A blueprint is a JSON file: { "id", "title", "models": ["ollama:…"], "prompts": [{ "id",
"promptText", "points": [...] }] }. A point is a key point text (judged by the LLM), a
["function", argument] pair, or { "text" | "fn", "fnArgs", "multiplier", "citation" }.

Every prompt is sent to every candidate model (--models, else the blueprint's "models"); each
answer is judged against the prompt's points, the original prompt shown to the judge beside each
key point. The result holds the answers and evaluationResults.llmCoverageScores: per prompt and
model, the average coverage (weighted by the multipliers) and one assessment per point. A point
the judge could not assess has a null coverage and an error; it never counts as a zero.

Model calls use the sampling seed --seed, else EVALGATE_SEED, else 42.

Model:
  Every candidate model is checked before anything runs, and so is the judge:
${MODEL_CHECK_HELP}

Output:
  Progress ([k/n] per prompt × model) goes to stderr, the result to stdout (or --out).
  --format junit writes JUnit XML for CI: a testsuite per prompt × model, a testcase per point
  (<failure> under the threshold: --fail-under, else 0.5; <error> when not assessed) and a
  testcase "overall" for the average coverage.

Exit codes:
  0  every answer was given and judged (with --fail-under N: every average coverage reached N)
  1  some candidate could not answer or some point could not be assessed (the result says
     where, under "error"); with --fail-under N also when an average coverage is under N
  2  an error (bad arguments such as --fail-under outside 0–1, a broken blueprint, a model
     that is not there): nothing was decided

Examples:
  evalgate blueprint run stoicism.json --models ollama:qwen2.5:7b-instruct,ollama:llama3.2
  evalgate blueprint run stoicism.json --format toon --out run.toon
  evalgate blueprint run stoicism.json --format junit --out junit.xml --fail-under 0.6
`;

export function registerBlueprintCommand(program: Command, context: CliContext): void {
  const blueprint = program
    .command("blueprint")
    .description("run blueprints: prompts × candidate models, answers judged against points");

  const run = blueprint
    .command("run")
    .description("send every prompt to every model and judge each answer against its points")
    .argument("<file>", "blueprint JSON file")
    .option("--models <specs>", "candidate models, comma-separated provider:model specs")
    .option("-j, --judge <provider:model>", "judge model (default ollama:<EVALGATE_MODEL>)")
    .addOption(
      new Option("-f, --format <format>", "output format")
        .choices(["json", "toon", "junit"])
        .default("json"),
    )
    .option(
      "--fail-under <coverage>",
      "exit 1 when an average coverage (0–1) is under this, or there is none",
      numberIn(0, 1),
    )
    .option("-o, --out <file>", "write the result to this file instead of stdout")
    .option(
      "--seed <n>",
      "sampling seed of every model call (default 42)",
      integerIn(0, 2 ** 31 - 1),
    );
  addTimeoutOption(run)
    .addHelpText("after", HELP_AFTER)
    .action(
      lazyAction(
        context,
        async () => (await import("../actions/blueprint.js")).runBlueprintCommand,
      ),
    );
}
