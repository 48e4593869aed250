/**
 * The docs test's own parts, on documentation written here: the extractor finds commands in
 * every place the docs put them (and nothing else), and the shape check names a command or an
 * option the program does not have — so the docs test can fail.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evalgateProgram, shapeProblems } from "./commandShape.js";
import { commandsOfFile, documentedCommands, isTemplate, shellWords } from "./docCommands.js";

const dir = mkdtempSync(join(tmpdir(), "evalgate-doccommands-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GUIDE = [
  "# A guide",
  "",
  "Run `npx evalgate show <thread> [--format md\\|json]` or `evalgate run",
  "--thread <id>` later; `evalgate/judge` is a subpath and `evalgate` a name.",
  "",
  "<!-- docs-test: needs a GPU -->",
  "```bash",
  "export OLLAMA_BASE_URL=http://gpu1:11434#slots=8   # not evalgate",
  "npm ci && npx evalgate evaluate a.md --catalog 'my catalog.json' \\",
  '  --format json   # prints "PASSED" (exit 1)',
  "```",
  "",
  "```",
  "PASSED overall 0.9",
  "```",
  "",
  "```ts",
  'run("evalgate reviews");',
  "```",
  "",
  "    evalgate reviews --json",
  "",
].join("\n");

describe("the documented commands are found", () => {
  writeFileSync(join(dir, "guide.md"), GUIDE);
  const found = commandsOfFile(dir, "guide.md");

  it("in shell blocks, inline spans over a line break and indented blocks, not in code samples", () => {
    expect(found.map((c) => [c.line, c.source, c.text])).toEqual([
      [3, "inline", "npx evalgate show <thread> [--format md|json]"],
      [3, "inline", "evalgate run --thread <id>"],
      [9, "block", "npx evalgate evaluate a.md --catalog 'my catalog.json' --format json"],
      [21, "block", "evalgate reviews --json"],
    ]);
  });

  it("with its words, comment, shown output, marker and whether it is a template", () => {
    const evaluate = found[2];
    expect(evaluate?.args).toEqual([
      "evaluate",
      "a.md",
      "--catalog",
      "my catalog.json",
      "--format",
      "json",
    ]);
    expect(evaluate?.comment).toBe('prints "PASSED" (exit 1)');
    expect(evaluate?.shownOutput).toBe("PASSED overall 0.9");
    expect(evaluate?.marker).toBe("needs a GPU");
    expect(found.map(isTemplate)).toEqual([true, true, false, false]);
  });

  it("splits words as the shell does, and refuses an unclosed quote", () => {
    expect(shellWords(`a "b c" 'd"e' f\\g`)).toEqual(["a", "b c", 'd"e', "f\\g"]);
    expect(() => shellWords('run "open')).toThrow(/unclosed/);
  });
});

describe("a documented command's shape is checked against the program", () => {
  const program = evalgateProgram();
  it("accepts commands, subcommands, placeholders, alternatives and program options", () => {
    expect(
      shapeProblems(program, ["rubrics", "show", "<id>[@<version>]", "[--version", "<v>]"]),
    ).toEqual([]);
    expect(
      shapeProblems(program, ["review", "<thread>", "approve|revise", "--feedback", "<text>|edit"]),
    ).toEqual([]);
    expect(shapeProblems(program, ["-v"])).toEqual([]);
  });
  it("names an unknown command, subcommand or option", () => {
    expect(shapeProblems(program, ["judge", "x.md"])).toEqual(["evalgate has no command judge"]);
    expect(shapeProblems(program, ["rubrics", "purge"])).toEqual([
      "evalgate rubrics has no command purge",
    ]);
    expect(shapeProblems(program, ["run", "rfp.md", "--timout", "5"])).toEqual([
      "evalgate run has no option --timout",
    ]);
    // An option of another command is not one of this command.
    expect(shapeProblems(program, ["reviews", "--catalog", "c.json"])).toEqual([
      "evalgate reviews has no option --catalog",
    ]);
  });
});

describe("the documentation's commands as users type them", () => {
  it("are `npx evalgate …` in every code block: a bare `evalgate` is not on a user's PATH (exit 127)", () => {
    const root = join(import.meta.dirname, "../..");
    const blocks = documentedCommands(root).filter((c) => c.source === "block");
    expect(blocks.length).toBeGreaterThan(20);
    const bare = blocks.filter((c) => !c.text.startsWith("npx evalgate"));
    expect(bare.map((c) => `${c.file}:${c.line}: ${c.text}`)).toEqual([]);
  });
});
