/**
 * The one line a failed command ends with, provoked for real through the built `evalgate` in a
 * folder outside the repository: it speaks of the product (TOON, the database, the
 * checkpointer, the model spec, the blueprint), never of an error class, and ends with its code.
 */
import { describe, expect, it } from "vitest";
import { closedPort, runEvalgate, tempFolderForFile, writeText } from "./helpers.js";

const folder = tempFolderForFile();

const CLASS_NAME = /^evalgate: [A-Z][A-Za-z]*Error:/;

async function failingLine(args: readonly string[]): Promise<string> {
  const run = await runEvalgate(args, { cwd: folder.dir });
  expect(run.code).toBe(2);
  expect(run.stderr).not.toMatch(CLASS_NAME);
  return run.stderr;
}

describe("a failed command's line", () => {
  it("of broken TOON says it is TOON and where", async () => {
    await writeText(folder.dir, "rows.toon", "criteria[2]{id,weight}:\n  a,1\n");
    expect(await failingLine(["tokens", "rows.toon"])).toBe(
      'evalgate: invalid TOON: rows.toon:2: tabular array "criteria" declares 2 rows but has 1 [TOON_INVALID]\n',
    );
  });

  it("of a store file that is not a database names the database and the checkpointer", async () => {
    const junk = await writeText(folder.dir, "junk.sqlite", "not a database\n");
    expect(await failingLine(["reviews", "--db", "junk.sqlite"])).toBe(
      `evalgate: database ${junk}: file is not a database [STORE_OPEN_FAILED]\n`,
    );
    expect(await failingLine(["show", "t1", "--db", "junk.sqlite"])).toBe(
      `evalgate: checkpointer ${junk}: not a usable SQLite database: file is not a database [CHECKPOINTER_UNAVAILABLE]\n`,
    );
  });

  it("of a PostgreSQL store that cannot be reached names it without its password", async () => {
    const url = `postgres://ana:hunter2@127.0.0.1:${await closedPort()}/reviews`;
    const line = await failingLine(["reviews", "--database-url", url]);
    expect(line).toMatch(
      /^evalgate: database postgres:\/\/\*\*\*@127\.0\.0\.1:\d+\/reviews: .* \[STORE_OPEN_FAILED\]\n$/,
    );
    expect(line).not.toContain("hunter2");
  });

  it("of a model spec that cannot be read quotes the spec", async () => {
    await writeText(folder.dir, "content.md", "Our project restores two wetlands.\n");
    const catalog = JSON.stringify({ id: "c", name: "C", version: "1", criteria: [] });
    await writeText(folder.dir, "catalog.json", catalog);
    const args = ["evaluate", "content.md", "--catalog", "catalog.json", "--model"];
    expect(await failingLine([...args, "ollama:"])).toBe(
      'evalgate: model spec "ollama:": the model name after the provider is empty [MODEL_SPEC_INVALID]\n',
    );
    expect(await failingLine([...args, "nosuch:model"])).toMatch(
      /^evalgate: model spec "nosuch:model": unknown provider "nosuch"; known providers: ollama, .* \[MODEL_PROVIDER_UNKNOWN\]\n$/,
    );
  });

  it("of a blueprint names it, relative to the working folder, on one line", async () => {
    await writeText(folder.dir, "blueprint.json", JSON.stringify({ prompts: [{}] }));
    expect(await failingLine(["blueprint", "run", "blueprint.json"])).toBe(
      "evalgate: cannot use the blueprint: blueprint.json: ✖ a prompt needs points: `points` (or `should`), `should_not`, or both → at prompts[0] [BLUEPRINT_INVALID]\n",
    );
  });

  it("of a blueprint with no candidate model names the file and how to give them", async () => {
    const prompts = [{ promptText: "Why?", points: ["Says why."] }];
    await writeText(folder.dir, "nomodels.json", JSON.stringify({ prompts }));
    expect(await failingLine(["blueprint", "run", "nomodels.json", "--models", " , "])).toBe(
      'evalgate: cannot use the blueprint: nomodels.json: no candidate model: give them with --models, or as the blueprint\'s "models" [BLUEPRINT_INVALID]\n',
    );
  });

  it("of a blueprint's point names the file and the point", async () => {
    const prompts = [{ promptText: "Why?", points: ["Says why.", ["nosuchfn", "a"]] }];
    await writeText(folder.dir, "points.json", JSON.stringify({ prompts }));
    expect(await failingLine(["blueprint", "run", "points.json"])).toBe(
      'evalgate: cannot use the blueprint: points.json › prompts[0].points[1]: unknown point function "nosuchfn" (a custom function needs a module:function ref) [BLUEPRINT_INVALID]\n',
    );
  });
});
