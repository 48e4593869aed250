import type { Command } from "commander";
import type { RunCommandOptions } from "../actions/run.js";
import { type CliContext, processStdin } from "../context.js";
import {
  addPanelOptions,
  addStoreOptions,
  addTimeoutOption,
  integerIn,
  MODEL_CHECK_HELP,
} from "./options.js";

const HELP_AFTER = `
What it does:
  Writes a proposal for the RFP with the proposal graph: research → solution sought →
  connection pairs → each section, every one generated, judged against its criteria catalog and
  shown to you for a decision. The run is kept as a thread in the checkpoint store; its id is
  printed first.

At each review:
  The round of writing (and the feedback a revised version answers), the scores against their
  thresholds, strengths, weaknesses, suggestions, warnings and the whole content; then one
  answer per line on stdin:
    a / approve   accept it and go on
    r / revise    send it back to the writer (you are asked for the feedback)
    e / edit      replace the content: it opens in EVALGATE_EDITOR or VISUAL when set (or
                  EDITOR, on a terminal, unless npm/npx started evalgate: they set EDITOR=vi);
                  otherwise evalgate writes it to a file, you edit and save that file, then
                  press Enter to load it (q cancels; a path loads that file instead);
                  the editor never reads answers piped on stdin (it gets the terminal, if any)
    t / retry     judge (or write) again, when the review offers it
    q / quit      stop here; the thread stays paused
  When stdin ends before the run is done, the thread stays paused too. Go on later with
  \`evalgate run --thread <id>\`, or decide without prompts with \`evalgate review\`.
  The research, solution sought and connection pairs are shown as labelled fields and edited as
  a form with a heading per field ("## Funder", lists one "- item" a line), checked on saving.

When the run completes:
  The proposal is written to a new file — --out <file>, else proposal-<thread>.md here — as
  Markdown (or HTML / JSON for an --out ending in .html / .json): the sections in order, then
  appendices with the research, solution sought and connection pairs, and every stage's gate
  results and decisions. An existing file is never overwritten: an --out that exists is refused
  before the run starts, and the default name moves to proposal-<thread>-2.md and so on.
  --thread on a completed run names the file that holds its proposal and writes no copy; it
  writes one only when no such file holds it any more (deleted or changed), or to a new --out.
  \`evalgate show <thread>\` prints it (or a paused run's draft) again.

Store:
  --db <file>, or --database-url <url> (PostgreSQL), else PostgreSQL when DATABASE_URL is set,
  else .evalgate/checkpoints.sqlite.
  The model and revision limit a run started with are kept with the thread and used when it
  is resumed (--thread, evalgate review); other ones given with --thread are refused unless
  --override-settings is given too (then they replace the kept ones, and the change is recorded).

Few-shot examples:
  --few-shot shows the judge, in every criterion's prompt, the reviewers' earlier corrections of
  that criterion kept in the store (the ones most like the content, see docs/calibration.md); the
  result names the ones used (fewShotExamples). Without it, a stage whose catalog turns them on
  (fewShot.enabled) uses them too; otherwise none are read. The flag holds for the evaluations
  this command runs; \`evalgate review\` and \`evalgate serve\` go by the catalogs.

Model:
${MODEL_CHECK_HELP}
  --judge provider:model, two or more, makes a panel: the model writes, and every LLM criterion
  of every stage is judged by each judge; the --aggregate (median, mean or majority) of their
  answers is the score, their agreement is shown per criterion and overall (Krippendorff's
  alpha), and agreement under --min-agreement or a judge that gave no answer holds the stage for
  you with the reason. The panel is kept with the thread, like the model.

Examples:
  evalgate run rfp.md --applicant applicant.md
  evalgate run --thread 3f2c9a6e-…            # go on with a paused run
  evalgate run rfp.md --trace calls.jsonl     # the judge's prompts and answers, one call a line
  printf 'a\\nr\\nName the sources.\\n' | evalgate run rfp.md
  evalgate run rfp.md --judge ollama:qwen2.5:7b-instruct --judge ollama:llama3.1:8b \\
    --judge ollama:mistral:7b --min-agreement 0.67
`;

export function registerRunCommand(program: Command, context: CliContext): void {
  const command = program
    .command("run")
    .description("write a proposal for an RFP, reviewing each stage's evaluation as it goes")
    .argument("[rfp-file]", "the request for proposals (text); not needed with --thread")
    .option("--thread <id>", "go on with this thread (or start it under this id)")
    .option("--applicant <file>", "what the applicant brings: organisation, track record, idea")
    .option(
      "-m, --model <provider:model>",
      "writer and judge model, e.g. ollama:qwen2.5:7b-instruct",
    );
  addPanelOptions(command, "a judge of a panel (repeat for each judge; --model still writes)");
  addStoreOptions(command, "the threads");
  addTimeoutOption(command)
    .option("--max-revisions <n>", "revisions per stage before approve or edit", integerIn(0, 50))
    .option("--reviewer <name>", "recorded with your decisions")
    .option(
      "--override-settings",
      "with --thread: resume with these settings although the run started with others",
    )
    .option("--no-cache", "ask the judge for every criterion; keep no answer in the database")
    .option(
      "--few-shot",
      "show the judge the reviewers' corrections kept in the store as few-shot examples",
    )
    .option(
      "--out <file>",
      "where the finished proposal goes (a new file; .html or .json for those formats; default proposal-<thread>.md)",
    )
    .option(
      "--trace <file.jsonl>",
      "when the run ends or pauses, write every judge call of the thread to this JSONL file",
    )
    .addHelpText("after", HELP_AFTER)
    .action(async (rfpFile: string | undefined, options: RunCommandOptions) => {
      const { runProposal } = await import("../actions/run.js");
      // The reviewer's answers.
      await runProposal(rfpFile, options, context, processStdin());
    });
}
