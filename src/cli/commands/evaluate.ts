import { type Command, Option } from "commander";
import type { CliContext } from "../context.js";
import { EVALUATE_FORMATS } from "../report/formats.js";
import {
  addPanelOptions,
  addTimeoutOption,
  integerIn,
  lazyAction,
  MODEL_CHECK_HELP,
  numberIn,
} from "./options.js";

const MODES = ["auto", "per-criterion", "grouped", "batch"] as const;

const HELP_AFTER = `
Input:
  A FILE is the content under evaluation (a .json file is read as JSON data, anything else as
  text); --documents adds a folder of source documents, retrieved per criterion.
  A DIRECTORY is a funding project: its .md/.txt/.json documents are the evidence. The judge
  reads the passages retrieved per criterion; function checks read the documents' whole text,
  each after a line "==> name <==", in name order (held to the content budget); a schema
  criterion cannot check a project and is reported not evaluated.
  Several FILEs (or folders) are each evaluated against the catalog, one after the other, and
  reported together: junit (one testsuite per file), json (an array of { file, result }),
  table or md (one report per file); toon and html take one file.
  A content file must be a regular file of UTF-8 text without NUL bytes, no larger than the
  content budget (what fits the judge's context window beside the prompt: 86,016 bytes for a
  32k-token window; --max-content-bytes changes it). Larger content is refused, not truncated:
  split it, or evaluate it as a project folder, whose documents are retrieved per criterion.

Model:
${MODEL_CHECK_HELP}
  (A catalog with no LLM criterion needs no model and none is checked.) Every judge call is
  made with the sampling seed --seed, else EVALGATE_SEED, else 42 (EVALGATE_SEED=none sends
  none); traces record it.
  --judge provider:model, repeated, makes a panel: every LLM criterion is judged by each judge,
  the --aggregate (median, mean or majority) of their answers is the score, and their agreement
  is reported per criterion and overall (Krippendorff's alpha). Agreement under --min-agreement,
  or a judge that gave no answer, holds the result for a human reviewer.

Cache:
  With --db FILE (e.g. .evalgate/checkpoints.sqlite), every usable answer of the judge is kept
  in that SQLite file under a hash of the model, its parameters and the exact prompt; running the
  same evaluation again asks the model only what changed. --no-cache turns that off.
  When the rubric registry in that file holds the catalog's id (calibrate --apply writes there),
  its active version is judged instead of the file, and the result records it as id@version
  (catalog.registryVersion); \`rubrics activate <id> <version>\` chooses an earlier one.

Output:
  Progress goes to stderr, the result to stdout (or --out, written only when the evaluation
  succeeded). --format junit writes JUnit XML for CI: a testcase per criterion (<failure> when
  not met, <error> when the judge could not evaluate it) and a testcase "overall".

Exit codes:
  0  every content file passed (with --fail-under: every overall score reached it)
  1  some content file did not pass; with --fail-under N: some overall score is under N, or
     there is none (no weighted criterion evaluated), or a criterion could not be evaluated, a
     knockout or critical criterion failed, or a human must review it. N replaces the
     catalog's passing threshold for the exit code; a judge error is never a pass.
  2  an error (bad arguments such as --fail-under outside 0–1, an unreadable input, a catalog
     or model error): nothing was decided

Examples:
  evalgate evaluate draft.md --catalog config/evaluation/criteria/budget.json
  evalgate evaluate data/projects/hafen-sensorik --catalog data/criteria/ifb_profi.toon --format toon
  evalgate evaluate section.md --catalog catalog.toon --format html --out report.html
  evalgate evaluate docs/a.md docs/b.md --catalog catalog.toon --format junit --out junit.xml \
    --fail-under 0.7
  evalgate evaluate draft.md --catalog catalog.toon --judge ollama:qwen2.5:7b-instruct \
    --judge ollama:llama3.1:8b --judge ollama:mistral:7b --min-agreement 0.67
`;

export function registerEvaluateCommand(program: Command, context: CliContext): void {
  const command = program
    .command("evaluate")
    .description("judge content files or project folders against a criteria catalog")
    .argument("<file-or-dir...>", "content files, or project folders of documents")
    .requiredOption("-c, --catalog <path>", "criteria catalog (TOON or JSON, any supported form)")
    .option("-m, --model <provider:model>", "judge model, e.g. ollama:qwen2.5:7b-instruct");
  addTimeoutOption(command);
  addPanelOptions(command, "a judge of a panel (repeat for each judge; instead of --model)")
    .addOption(
      new Option(
        "--mode <mode>",
        "one call per criterion, one TOON table call per server slot group, or all in one (auto: by catalog)",
      )
        .choices(MODES)
        .default("auto"),
    )
    .addOption(
      new Option("-f, --format <format>", "output format")
        .choices(EVALUATE_FORMATS)
        .default("table"),
    )
    .option(
      "--fail-under <score>",
      "exit 1 when an overall score (0–1) is under this, or there is none",
      numberIn(0, 1),
    )
    .option("-o, --out <file>", "write the report to this file instead of stdout")
    .option("-d, --documents <dir>", "source documents for a content file (per-criterion context)")
    .option(
      "-t, --content-type <type>",
      "content type (research, budget, …) for the judge prompt; others are refused",
    )
    .option("--concurrency <n>", "criteria judged at once", integerIn(1, 64))
    .option("--trace <file.jsonl>", "append every model call's trace to this JSONL file")
    .option(
      "--seed <n>",
      "sampling seed of every judge call (default 42)",
      integerIn(0, 2 ** 31 - 1),
    )
    .option(
      "--max-content-bytes <n>",
      "refuse a content file (or a project's text for its function checks) larger than this (default: what fits the judge's context window)",
      integerIn(1, 1_000_000_000),
    )
    .option("--db <file>", "keep the judge's answers in this SQLite file and reuse them")
    .option("--no-cache", "with --db: ask the judge for every criterion, keep nothing")
    .option(
      "--few-shot",
      "with --db: show the judge the reviewers' corrections kept there as few-shot examples",
    )
    .option(
      "--weighted-scores",
      "score criteria: the mean of the scale weighted by the model's token probabilities, where the server gives them",
    )
    .addHelpText("after", HELP_AFTER)
    .action(lazyAction(context, async () => (await import("../actions/evaluate.js")).runEvaluate));
}
