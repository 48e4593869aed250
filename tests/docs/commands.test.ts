/**
 * Docs are tests: every `evalgate …` / `npx evalgate …` command of README.md and docs/*.md.
 *
 * - Every command, in a code block or an inline code span (the README's command table too), names
 *   commands and options the program has (commander's object, what `--help` prints).
 * - Every command of a shell code block runs through the built bin, file by file, in order, in a
 *   fresh folder holding the shipped example files, against the Ollama-protocol stand-in server:
 *   its exit code and output are what the docs say (docRunner.ts). `$THREAD` is a thread paused
 *   at its first review in the same folder. A block the docs mark
 *   `<!-- docs-test: <reason> -->` is listed as not run, with the reason.
 * - Every command of `evalgate --help` has a row in the README's command table.
 * Inline spans are references to a command (`evalgate serve` in prose): their shape is checked,
 * they are not run.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ifbJudge } from "../cli/helpers.js";
import { ROOT } from "../cli/reviewHarness.js";
import { answerPrompt } from "../devserver/proposalResponder.js";
import { type OllamaChatRequest, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { commandPaths, evalgateProgram, shapeProblems } from "./commandShape.js";
import { type DocCommand, documentedCommands } from "./docCommands.js";
import { type RunRow, runDocFile, SAMPLE_RUN, SHIPPED_EXAMPLES } from "./docRunner.js";

/** The models the docs name: the default, the panel's judges, the blueprint's candidates. */
const MODELS = ["qwen2.5:7b-instruct", "llama3.1:8b", "mistral:7b", "llama3.2"];
const IFB_PROMPTS = [
  "Is the company based in Hamburg?",
  "Rate the technological",
  "Rate the market",
];

const blueprint = JSON.parse(
  readFileSync(join(ROOT, "examples/blueprints/stoicism.json"), "utf8"),
) as { prompts: Array<{ promptText: string }> };
const blueprintPrompts = new Set(blueprint.prompts.map((p) => p.promptText));

/** Writer and judge prompts, the IFB catalog's judge, and the blueprint's candidate answers. */
function docsResponder(request: OllamaChatRequest): string {
  const user = request.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
  if (blueprintPrompts.has(user.trim())) {
    return "Epictetus splits what is up to us (our judgements) from what is not; caring only about the first brings peace of mind.";
  }
  if (IFB_PROMPTS.some((text) => user.includes(text))) return ifbJudge(request);
  return answerPrompt(request.messages);
}

const commands = documentedCommands(ROOT);
const sectionTitles = (
  JSON.parse(readFileSync(join(ROOT, "config/proposal.json"), "utf8")) as {
    sections: Array<{ title: string }>;
  }
).sections.map((s) => s.title);
/** The lines of the README's "What you see" block: the output of its first command. */
function whatYouSee(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const block = /### What you see\n\n```\n([\s\S]*?)\n```/.exec(readme)?.[1] ?? "";
  return block.split("\n").filter((line) => line.trim() !== "" && !line.includes("…"));
}

/**
 * Whether the output has a line the README shows. A progress line (`[1/5] Research:
 * funder_priorities → 0.85`) names whichever criterion the judge finished first: criteria are
 * judged side by side, so any criterion of that stage, counted the same, with that score, is it.
 */
function printed(line: string, output: string): boolean {
  const progress = /^\[(\d+)\/(\d+)\] ([^:]+): \S+ → (\S+)$/.exec(line);
  if (progress === null) return output.includes(line);
  const [, done, total, stage, score] = progress;
  const literal = (text = "") => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = `\\[${done}/${total}\\] ${literal(stage)}: \\S+ → ${literal(score)}`;
  return new RegExp(pattern).test(output);
}

const place = (c: DocCommand) => `${c.file}:${c.line} \`${c.text}\``;

describe("a line the README shows is found in the output", () => {
  it("a progress line with any criterion of its stage, counted and scored the same; other lines exactly", () => {
    const output =
      "judging Research: 5 criteria\n[1/5] Research: eligibility_requirements → 0.85\n";
    expect(printed("[1/5] Research: funder_priorities → 0.85", output)).toBe(true);
    expect(printed("[1/5] Research: funder_priorities → 0.5", output)).toBe(false);
    expect(printed("[2/5] Research: funder_priorities → 0.85", output)).toBe(false);
    expect(printed("[1/5] Budget: funder_priorities → 0.85", output)).toBe(false);
    expect(printed("judging Research: 5 criteria", output)).toBe(true);
    expect(printed("judging Budget: 5 criteria", output)).toBe(false);
  });
});

describe("the documented commands exist with the options the docs give them", () => {
  const program = evalgateProgram();
  it("finds the commands of README.md and docs/", () => {
    // The README shows the main ones (its command table names every command); docs/cli.md the rest.
    expect(commands.filter((c) => c.file === "README.md").length).toBeGreaterThan(15);
    expect(commands.filter((c) => c.file === "docs/cli.md").length).toBeGreaterThan(20);
    expect(commands.some((c) => c.file === "docs/rubrics.md" && c.source === "block")).toBe(true);
  });
  it.each(commands.filter((c) => c.args.length > 0).map((c) => [place(c), c] as const))(
    "%s",
    (_, command) => {
      expect(shapeProblems(program, command.args)).toEqual([]);
    },
  );
  it("has a row in the README's command table for every command of `evalgate --help`", () => {
    const rows = readFileSync(join(ROOT, "README.md"), "utf8")
      .split("\n")
      .filter((line) => line.startsWith("| `evalgate "));
    expect(rows.length).toBeGreaterThan(10);
    const missing = commandPaths(program).filter(([name, sub]) => {
      const own = rows.filter(
        (r) => r.startsWith(`| \`evalgate ${name} `) || r.startsWith(`| \`evalgate ${name}\``),
      );
      if (sub === undefined) return own.length === 0;
      // `evalgate rubrics show …`, or a later span of the parent's row: `list [--json]`.
      return !own.some((r) => r.includes(`\`evalgate ${name} ${sub}`) || r.includes(`, \`${sub}`));
    });
    expect(missing.map((p) => p.join(" "))).toEqual([]);
  });
});

describe("the documented commands run as the docs show", () => {
  let server: OllamaServer;
  const rows: RunRow[] = [];
  beforeAll(async () => {
    server = await startOllamaServer({ models: MODELS, responder: docsResponder });
  });
  afterAll(async () => {
    await server?.close();
    const table = rows.map((r) => `${r.outcome.padEnd(8)} ${r.place.padEnd(34)} ${r.command}`);
    console.log(`documented commands:\n${table.join("\n")}`);
  });

  const runnable = commands.filter((c) => c.source === "block");
  const files = [...new Set(runnable.map((c) => c.file))];
  it("runs the README's first command, the sample proposal run, literally", () => {
    const first = runnable.find((c) => c.file === "README.md");
    expect(first?.args).toEqual(SAMPLE_RUN);
  });
  it("ships the example files the commands name (package.json files)", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      files: string[];
    };
    for (const path of SHIPPED_EXAMPLES) expect(manifest.files).toContain(`${path}/`);
  });
  it("marks few commands as not runnable here, each with a reason", () => {
    const marked = runnable.filter((c) => c.marker !== undefined && !c.marker.startsWith("setup:"));
    for (const c of marked) expect(c.marker, place(c)).toMatch(/\w{3,} \w{3,}/);
    expect(marked.length).toBeLessThanOrEqual(6);
  });

  describe.concurrent.each(files)("%s", (file) => {
    it("runs every command of its code blocks, in order, as shown", {
      timeout: 600_000,
    }, async () => {
      const result = await runDocFile(
        runnable.filter((c) => c.file === file),
        { env: { OLLAMA_BASE_URL: server.url }, sectionTitles },
      );
      rows.push(...result.rows);
      const failed = result.rows.filter((r) => r.outcome === "FAILED");
      expect(failed.map((r) => `${r.place} evalgate ${r.command}: ${r.detail}`)).toEqual([]);
      if (file !== "README.md") return;
      // The README shows what its first command prints: each line of it is there.
      const first = [...result.runs.entries()].find(([c]) => c.args[0] === "run");
      const run = first?.[1];
      const thread = /^thread (\S+) /m.exec(run?.stdout ?? "")?.[1] ?? "(no thread)";
      const output = `${run?.stdout}\n${run?.stderr}`;
      const shown = whatYouSee().map((line) =>
        line.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/, thread),
      );
      expect(shown.length).toBeGreaterThan(10);
      expect(shown.filter((line) => !printed(line, output))).toEqual([]);
    });
  });
});
