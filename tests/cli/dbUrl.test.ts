/**
 * A URL given to `--db` (or `serve --data`), which take a SQLite file: refused by every command
 * before anything is opened, naming the option and pointing to `--database-url`, with the URL's
 * password nowhere in what the command prints and no file or folder made from it.
 */
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEvalgate, SPAWN_TIMEOUT, tempFolder } from "./helpers.js";

const PASSWORD = "hunter2pass";
const URL_GIVEN = `postgres://reviewer:${PASSWORD}@127.0.0.1:1/threads`;
const URL_SHOWN = "postgres://***@127.0.0.1:1/threads";
const TO_DATABASE_URL = "give a PostgreSQL database with --database-url <url>";

/** Every command with a store, as a user would type it (the files they name exist). */
const STORE_COMMANDS: readonly (readonly string[])[] = [
  ["reviews"],
  ["reviews", "--json"],
  ["show", "thread-1"],
  ["show", "thread-1", "--format", "json"],
  ["review", "thread-1", "approve"],
  ["review", "--retry", "thread-1"],
  ["run", "rfp.md"],
  ["run", "--thread", "thread-1"],
  ["serve", "--port", "0"],
  ["rubrics", "list"],
  ["rubrics", "list", "--json"],
  ["reviewers", "list"],
  ["calibrate"],
];

let folder: Awaited<ReturnType<typeof tempFolder>>;

beforeAll(async () => {
  folder = await tempFolder();
  await writeFile(join(folder.dir, "rfp.md"), "# Call\n\nFund sensors for the port.\n", "utf8");
  await writeFile(join(folder.dir, "content.md"), "Hafen Sensorik GmbH, Hamburg.\n", "utf8");
});

afterAll(async () => {
  await folder.remove();
});

/** The command's output holds no trace of the password, and no file was made from the URL. */
async function expectNothingShownOrMade(run: { stdout: string; stderr: string }) {
  expect(run.stdout).toBe("");
  expect(`${run.stdout}${run.stderr}`).not.toContain(PASSWORD);
  expect((await readdir(folder.dir)).sort()).toEqual(["content.md", "rfp.md"]);
}

describe("a URL given as --db", () => {
  it.each(STORE_COMMANDS)(
    "evalgate %s … --db <url> is refused, the URL redacted, exit 2",
    async (...args) => {
      const run = await runEvalgate([...args, "--db", URL_GIVEN], { cwd: folder.dir });
      expect(run.stderr).toBe(
        `evalgate: --db takes a SQLite file, not a URL (${URL_SHOWN}): ${TO_DATABASE_URL} [COMMAND_INVALID]\n`,
      );
      expect(run.code).toBe(2);
      await expectNothingShownOrMade(run);
    },
    SPAWN_TIMEOUT,
  );

  it(
    "is refused by evaluate, which keeps its judge answers in SQLite only",
    async () => {
      const run = await runEvalgate(
        ["evaluate", "content.md", "--catalog", "catalog.toon", "--db", URL_GIVEN, "--few-shot"],
        { cwd: folder.dir },
      );
      expect(run.stderr).toBe(
        `evalgate: --db takes a SQLite file, not a URL (${URL_SHOWN}): evaluate keeps its judge answers in a SQLite file only (it has no --database-url) [COMMAND_INVALID]\n`,
      );
      expect(run.code).toBe(2);
      await expectNothingShownOrMade(run);
    },
    SPAWN_TIMEOUT,
  );

  it(
    "is refused whatever its scheme, postgresql:// or another",
    async () => {
      const runs = await Promise.all(
        [`postgresql://u:${PASSWORD}@db.example/x`, `mysql://u:${PASSWORD}@db.example/x`].map(
          (url) => runEvalgate(["reviews", "--db", url], { cwd: folder.dir }),
        ),
      );
      expect(runs.map((run) => [run.code, run.stderr])).toEqual(
        ["postgresql", "mysql"].map((scheme) => [
          2,
          `evalgate: --db takes a SQLite file, not a URL (${scheme}://***@db.example/x): ${TO_DATABASE_URL} [COMMAND_INVALID]\n`,
        ]),
      );
      for (const run of runs) await expectNothingShownOrMade(run);
    },
    SPAWN_TIMEOUT,
  );

  it(
    "is refused as serve's old --data folder, before the notice that would repeat it",
    async () => {
      const run = await runEvalgate(["serve", "--port", "0", "--data", URL_GIVEN], {
        cwd: folder.dir,
      });
      expect(run.stderr).toBe(
        `evalgate: --data takes a folder, not a URL (${URL_SHOWN}): ${TO_DATABASE_URL} [COMMAND_INVALID]\n`,
      );
      expect(run.code).toBe(2);
      await expectNothingShownOrMade(run);
    },
    SPAWN_TIMEOUT,
  );
});
