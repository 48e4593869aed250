/**
 * `evalgate rubrics register | list | show | delete` in process (the real program and its error
 * table), and once as a child process through bin/evalgate.mjs.
 */
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import { createCliContext } from "../../src/cli/context.js";
import { runCli } from "../../src/cli/main.js";
import { CONTENT_QUALITY, QUIZ_RUBRIC } from "../rubrics/fixtures.js";
import { runEvalgate, SPAWN_TIMEOUT, tempFolderForFile } from "./helpers.js";

const folder = tempFolderForFile();
beforeAll(async () => {
  await writeFile(
    join(folder.dir, "rubrics.json"),
    JSON.stringify({ rubrics: [CONTENT_QUALITY, QUIZ_RUBRIC] }, null, 2),
  );
  await writeFile(
    join(folder.dir, "quiz-v2.json"),
    JSON.stringify({ ...QUIZ_RUBRIC, version: "2.0.0", pass_threshold: 0.8 }),
  );
  await writeFile(
    join(folder.dir, "broken.json"),
    JSON.stringify({ ...QUIZ_RUBRIC, pass_threshold: "high" }, null, 2),
  );
});

async function run(args: readonly string[], db: string) {
  let stdout = "";
  let stderr = "";
  const context = createCliContext({
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: folder.dir,
  });
  const code = await runCli([...args, "--db", db], context);
  return { code, stdout, stderr };
}

describe("evalgate rubrics", () => {
  it("registers a file, lists, shows, registers a new version and deletes", async () => {
    const db = "one.sqlite";
    const registered = await run(["rubrics", "register", "rubrics.json"], db);
    expect(registered).toMatchObject({ code: 0, stderr: "" });
    expect(registered.stdout).toContain("content_quality 1.0.0: registered");
    expect(registered.stdout).toContain("2 rubrics from rubrics.json in one.sqlite.");
    const again = await run(["rubrics", "register", "rubrics.json"], db);
    expect(again.stdout).toContain("quiz_quality 1.0.0: unchanged, kept");

    const listed = await run(["rubrics", "list", "--target", "content"], db);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n")[0]).toMatch(/^id\s+version\s+target\s+criteria\s+name/);
    expect(listed.stdout).toMatch(/quiz_quality\s+1\.0\.0\s+content\s+1\s+Quiz Quality/);

    expect((await run(["rubrics", "register", "quiz-v2.json"], db)).stdout).toContain(
      "quiz_quality 2.0.0: registered",
    );
    const shown = await run(["rubrics", "show", "quiz_quality"], db);
    expect(shown.stdout).toContain("Quiz Quality (quiz_quality 2.0.0)");
    expect(shown.stdout).toContain("pass threshold: 0.8");
    expect(shown.stdout).toMatch(/question_count\s+function\s+1\s+Question Count/);
    expect(shown.stdout).toContain("2.0.0 (active)");

    const deleted = await run(["rubrics", "delete", "quiz_quality"], db);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toContain("its 2 versions stay readable");
    expect((await run(["rubrics", "list"], db)).stdout).not.toContain("quiz_quality");
    const old = await run(["rubrics", "show", "quiz_quality@1.0.0", "--json"], db);
    expect(old.code).toBe(0);
    expect(JSON.parse(old.stdout)).toMatchObject({ id: "quiz_quality", version: "1.0.0" });
  });

  it("after a roll-back, registering again neither stores a copy of the active version nor moves back silently", async () => {
    const db = "rollback.sqlite";
    await run(["rubrics", "register", "rubrics.json"], db);
    await run(["rubrics", "register", "quiz-v2.json"], db);
    expect((await run(["rubrics", "activate", "quiz_quality", "1.0.0"], db)).code).toBe(0);

    // The active version's own content again (a deploy that registers its config each time):
    // nothing is stored and 1.0.0 stays active — no 2.0.1 holding 1.0.0's content.
    const same = await run(["rubrics", "register", "rubrics.json"], db);
    expect(same).toMatchObject({ code: 0, stderr: "" });
    expect(same.stdout).toContain("quiz_quality 1.0.0: unchanged, kept");
    const kept = await run(["rubrics", "show", "quiz_quality"], db);
    expect(kept.stdout).toContain("Quiz Quality (quiz_quality 1.0.0)");
    expect(kept.stdout).not.toContain("2.0.1");

    // The id@version results and messages print is accepted too.
    const named = await run(["rubrics", "activate", "quiz_quality@2.0.0"], db);
    expect(named.stdout).toBe(
      "quiz_quality@2.0.0 is active in rollback.sqlite (was 1.0.0): gates judge with it.\n",
    );
    const both = await run(["rubrics", "activate", "quiz_quality@2.0.0", "1.0.0"], db);
    expect(both).toMatchObject({ code: 2, stdout: "" });
    expect(both.stderr).toContain(
      "quiz_quality@2.0.0 names version 2.0.0, the next argument 1.0.0",
    );
    const none = await run(["rubrics", "activate", "quiz_quality"], db);
    expect(none.stderr).toContain("rubrics activate needs a version");
    await run(["rubrics", "activate", "quiz_quality", "1.0.0"], db);

    // The latest version's content: registered last, so active again — and said so.
    const latest = await run(["rubrics", "register", "quiz-v2.json"], db);
    expect(latest.stdout).toContain("quiz_quality 2.0.0: unchanged, active again (was 1.0.0)");
    expect((await run(["rubrics", "show", "quiz_quality"], db)).stdout).toContain("2.0.0 (active)");
  });

  it("ends with exit 2 and one line naming what and where", async () => {
    const db = "two.sqlite";
    // No file two.sqlite yet: reading, activating or deleting says so and makes none.
    const missing = await run(["rubrics", "show", "nope"], db);
    expect(missing).toMatchObject({ code: 2, stdout: "" });
    expect(missing.stderr).toBe(
      'evalgate: no rubric "nope" in two.sqlite (no such file) [RUBRIC_NOT_FOUND]\n',
    );
    const deleted = await run(["rubrics", "delete", "nope"], db);
    expect(deleted.code).toBe(2);
    const activated = await run(["rubrics", "activate", "nope", "1.0.0"], db);
    expect(activated.stderr).toBe(
      'evalgate: no version "1.0.0" of rubric "nope" in two.sqlite (no such file) [RUBRIC_NOT_FOUND]\n',
    );
    expect((await run(["rubrics", "list"], db)).stdout).toContain(
      "No rubrics in two.sqlite (no such file): register some",
    );
    expect(existsSync(join(folder.dir, db))).toBe(false);
    const broken = await run(["rubrics", "register", "broken.json"], db);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(
      /^evalgate: cannot use the catalog: broken\.json:\d+ \(\$\.pass_threshold\)/,
    );
    const absent = await run(["rubrics", "register", "absent.json"], db);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toBe(
      "evalgate: absent.json: the rubric file: no such file [RUBRIC_CONFIG_INVALID]\n",
    );
    expect((await run(["rubrics", "list"], db)).stdout).toContain("No rubrics in two.sqlite");
  });

  it(
    "runs as the real command",
    async () => {
      const result = await runEvalgate(
        ["rubrics", "register", "rubrics.json", "--db", "bin.sqlite"],
        {
          cwd: folder.dir,
        },
      );
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("quiz_quality 1.0.0: registered");
    },
    SPAWN_TIMEOUT,
  );

  it(
    "lists every readable version and marks one whose stored row cannot be read, exit 1",
    async () => {
      const cli = (args: readonly string[]) =>
        runEvalgate([...args, "--db", "corrupt.sqlite"], { cwd: folder.dir });
      expect((await cli(["rubrics", "register", "rubrics.json"])).code).toBe(0);
      // The stored row of quiz_quality 1.0.0 damaged by hand: its body is no longer JSON.
      const file = new Database(join(folder.dir, "corrupt.sqlite"));
      const changed = file
        .prepare("UPDATE rubric_versions SET body = ? WHERE rubric_id = ? AND version = ?")
        .run("{not json", "quiz_quality", "1.0.0").changes;
      file.close();
      expect(changed).toBe(1);

      const listed = await cli(["rubrics", "list"]);
      expect(listed.stderr).toBe("");
      expect(listed.code).toBe(1);
      const lines = listed.stdout.trim().split("\n");
      expect(lines).toHaveLength(6);
      expect(lines[2]).toMatch(/^content_quality\s+1\.0\.0\s+content\s+2\s+Content Quality$/);
      expect(lines[3]).toMatch(
        /^quiz_quality\s+1\.0\.0\s+content\s+-\s+\(cannot be read, see below\)$/,
      );
      expect(lines[4]).toBe("");
      expect(lines[5]).toMatch(
        /^quiz_quality 1\.0\.0 cannot be read: database: rubric quiz_quality 1\.0\.0 is not usable JSON: .+; `evalgate rubrics activate quiz_quality <version>` another\.$/,
      );

      const json = await cli(["rubrics", "list", "--json"]);
      expect(json.code).toBe(1);
      const { rubrics } = JSON.parse(json.stdout);
      expect(rubrics[0]).toEqual({
        id: "content_quality",
        version: "1.0.0",
        name: "Content Quality",
        targetType: "content",
        criteria: 2,
        unreadable: null,
      });
      expect(rubrics[1]).toMatchObject({
        id: "quiz_quality",
        version: "1.0.0",
        name: null,
        criteria: null,
      });
      expect(rubrics[1].unreadable).toContain("is not usable JSON");
    },
    4 * SPAWN_TIMEOUT,
  );
});
