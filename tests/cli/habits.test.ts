/**
 * The command line's habits, through the real command (node bin/evalgate.mjs): the version
 * flags, `--json` on every listing command, one name per store option on every command that
 * keeps data (--db, --database-url), content types checked against the valid ones, a clear
 * refusal for a file `tokens` cannot read as data, and `rubrics show <id> --version`.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { closedPort, ROOT, runEvalgate, SPAWN_TIMEOUT, tempFolderForFile } from "./helpers.js";

const temp = tempFolderForFile();
let version: string;

/** A rubric written for these tests: two criteria decided on levels by functions. */
const TONE_RUBRIC = {
  id: "grant_tone",
  name: "Grant Tone",
  description: "Checks that a section reads as a funder expects",
  version: "1.0.0",
  target_type: "section",
  criteria: [
    {
      id: "plain_words",
      name: "Plain words",
      description: "No jargon a reviewer must look up",
      weight: 1,
      levels: [
        { id: "no", label: "No", description: "Jargon throughout", score: 0 },
        { id: "yes", label: "Yes", description: "Plain throughout", score: 1 },
      ],
      scoring_method: { type: "deterministic", function_ref: "tone:plain_words" },
    },
    {
      id: "active_voice",
      name: "Active voice",
      description: "Says who does what",
      weight: 2,
      levels: [
        { id: "no", label: "No", description: "Mostly passive", score: 0 },
        { id: "yes", label: "Yes", description: "Mostly active", score: 1 },
      ],
      scoring_method: { type: "deterministic", function_ref: "tone:active_voice" },
    },
  ],
  pass_threshold: 0.6,
};

beforeAll(async () => {
  const manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  version = manifest.version;
  await writeFile(join(temp.dir, "tone.json"), JSON.stringify(TONE_RUBRIC), "utf8");
  await writeFile(
    join(temp.dir, "tone-v2.json"),
    JSON.stringify({ ...TONE_RUBRIC, version: "2.0.0", pass_threshold: 0.9 }),
    "utf8",
  );
});

function cli(args: readonly string[], env: Record<string, string> = {}) {
  return runEvalgate(args, { cwd: temp.dir, env, timeoutMs: SPAWN_TIMEOUT });
}

describe.concurrent("evalgate's habits", () => {
  it("-v, --version (and the older -V) print the version", {
    timeout: 4 * SPAWN_TIMEOUT,
  }, async () => {
    for (const flag of ["-v", "--version", "-V"]) {
      const run = await cli([flag]);
      expect(run, flag).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
    }
    const help = await cli(["--help"]);
    expect(help.stdout).toContain("-v, --version");
  });

  it("rubrics show <id> --version <v> shows that version, like <id>@<v>; both disagreeing is refused", {
    timeout: 8 * SPAWN_TIMEOUT,
  }, async () => {
    const db = "rubrics.sqlite";
    expect((await cli(["rubrics", "register", "tone.json", "--db", db])).code).toBe(0);
    expect((await cli(["rubrics", "register", "tone-v2.json", "--db", db])).code).toBe(0);
    const flagged = await cli([
      "rubrics",
      "show",
      "grant_tone",
      "--version",
      "1.0.0",
      "--json",
      "--db",
      db,
    ]);
    expect(flagged.code).toBe(0);
    const first = JSON.parse(flagged.stdout) as { version: string; passingThreshold: number };
    expect(first.version).toBe("1.0.0");
    expect(first.passingThreshold).toBe(0.6);
    const at = await cli(["rubrics", "show", "grant_tone@1.0.0", "--json", "--db", db]);
    expect(JSON.parse(at.stdout)).toEqual(first);
    const latest = await cli(["rubrics", "show", "grant_tone", "--json", "--db", db]);
    expect((JSON.parse(latest.stdout) as { version: string }).version).toBe("2.0.0");
    const clash = await cli([
      "rubrics",
      "show",
      "grant_tone@2.0.0",
      "--version",
      "1.0.0",
      "--db",
      db,
    ]);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain(
      "grant_tone@2.0.0 names version 2.0.0, --version 1.0.0: give one",
    );
    const missing = await cli(["rubrics", "show", "grant_tone", "--version", "9.9.9", "--db", db]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no version "9.9.9" of rubric "grant_tone"');

    // rubrics list --json
    const listed = await cli(["rubrics", "list", "--json", "--db", db]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({
      store: db,
      rubrics: [
        {
          id: "grant_tone",
          version: "2.0.0",
          name: "Grant Tone",
          targetType: "section",
          criteria: 2,
          unreadable: null,
        },
      ],
    });
    const none = await cli(["rubrics", "list", "--target", "budget", "--json", "--db", db]);
    expect(JSON.parse(none.stdout)).toEqual({ store: db, rubrics: [] });
  });

  it("reviewers list --json: names, roles and dates, never a token", {
    timeout: 4 * SPAWN_TIMEOUT,
  }, async () => {
    const db = "reviewers.sqlite";
    const added = await cli(["reviewers", "add", "ana", "--role", "admin", "--db", db]);
    expect(added.code).toBe(0);
    const token = /\n {2}(\S+)\n/.exec(added.stdout)?.[1] ?? "";
    expect(token).not.toBe("");
    expect((await cli(["reviewers", "add", "lee", "--db", db])).code).toBe(0);
    expect((await cli(["reviewers", "revoke", "lee", "--db", db])).code).toBe(0);
    const listed = await cli(["reviewers", "list", "--json", "--db", db]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain(token);
    const parsed = JSON.parse(listed.stdout) as {
      store: string;
      reviewers: Array<Record<string, unknown>>;
    };
    expect(parsed.store).toBe(db);
    expect(parsed.reviewers.map((r) => [r.name, r.role, r.revokedAt === null])).toEqual([
      ["ana", "admin", true],
      ["lee", "reviewer", false],
    ]);
    for (const reviewer of parsed.reviewers) {
      expect(Object.keys(reviewer).sort()).toEqual(["createdAt", "name", "revokedAt", "role"]);
    }
  });

  it("reviews --json on a store with no file: empty lists, and no file made", async () => {
    const run = await cli(["reviews", "--json", "--db", "nothing-here.sqlite"]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      store: "nothing-here.sqlite",
      reviews: [],
      workLeft: [],
      failed: [],
    });
    expect(existsSync(join(temp.dir, "nothing-here.sqlite"))).toBe(false);
  });

  it("--db and --database-url name the store the same way on every command that keeps data", {
    timeout: 13 * SPAWN_TIMEOUT,
  }, async () => {
    const commands = [
      ["reviews"],
      ["reviewers", "list"],
      ["rubrics", "list"],
      ["calibrate"],
      ["review", "t-1", "approve"],
      ["show", "t-1"],
    ];
    for (const command of commands) {
      const both = await cli([
        ...command,
        "--db",
        "x.sqlite",
        "--database-url",
        "postgres://ana:hunter2@127.0.0.1:1/db",
      ]);
      expect(both.code, command.join(" ")).toBe(2);
      expect(both.stderr, command.join(" ")).toContain(
        "give --db <file> or --database-url <url>, not both",
      );
      expect(both.stderr).not.toContain("hunter2");
      const notUrl = await cli([...command, "--database-url", "mysql://root:hunter2@db/x"]);
      expect(notUrl.code, command.join(" ")).toBe(2);
      expect(notUrl.stderr).toContain("--database-url takes a postgres:// or postgresql:// URL");
      expect(notUrl.stderr).not.toContain("hunter2");
    }
    const help = await cli(["run", "--help"]);
    expect(help.stdout).toContain("--database-url <url>");
    expect(help.stdout).toContain("--timeout <ms>");
  });

  it("--db that is a folder is refused as a folder, naming a file in it", {
    timeout: 4 * SPAWN_TIMEOUT,
  }, async () => {
    await mkdir(join(temp.dir, "stores"), { recursive: true });
    for (const command of [["reviews"], ["show", "t-1"], ["run", "--thread", "t-1"]]) {
      const run = await cli([...command, "--db", "stores"], {
        OLLAMA_BASE_URL: `http://127.0.0.1:${await closedPort()}`,
      });
      expect(run.code, command.join(" ")).toBe(2);
      expect(run.stderr.trim(), command.join(" ")).toBe(
        "evalgate: --db stores is a folder: give the SQLite file, such as stores/checkpoints.sqlite [COMMAND_INVALID]",
      );
    }
  });

  it("calibrate --content-type refuses a content type it does not know, listing the valid ones", {
    timeout: 4 * SPAWN_TIMEOUT,
  }, async () => {
    const db = "labels.sqlite";
    expect((await cli(["reviewers", "add", "kim", "--db", db])).code).toBe(0);
    const typo = await cli(["calibrate", "--db", db, "--content-type", "budgett"]);
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe("");
    expect(typo.stderr).toContain('unknown content type "budgett" (did you mean budget?)');
    expect(typo.stderr).toContain(
      "use one of research, solution, connection_pairs, problem_statement, methodology, budget, timeline, conclusion",
    );
    const far = await cli(["calibrate", "--db", db, "--content-type", "poetry"]);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('unknown content type "poetry": use one of research');
    // A known type without labels yet: the report, saying there is nothing.
    const known = await cli([
      "calibrate",
      "--db",
      db,
      "--content-type",
      "Budget",
      "--format",
      "json",
    ]);
    expect(known.code).toBe(0);
    expect(known.stderr).toContain(`no reviewer labels in ${db} for this scope`);
  });

  it("evaluate --content-type refuses an unknown type before any model is asked", async () => {
    const down = `http://127.0.0.1:${await closedPort()}`;
    await writeFile(join(temp.dir, "section.md"), "Budget: 40,000 EUR for sensors.\n", "utf8");
    const run = await cli(
      [
        "evaluate",
        "section.md",
        "--catalog",
        join(ROOT, "config/evaluation/criteria/budget.json"),
        "--content-type",
        "buget",
      ],
      { OLLAMA_BASE_URL: down, EVALGATE_MODEL: "m" },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('unknown content type "buget" (did you mean budget?)');
    expect(run.stderr).not.toContain("Ollama");
  });

  it("tokens says it reads JSON or TOON, and what it found, for a Markdown file", {
    timeout: 3 * SPAWN_TIMEOUT,
  }, async () => {
    const markdown = "# Budget\n\nWe ask for 40,000 EUR.\nIt buys sensors and pays two staff.\n";
    await writeFile(join(temp.dir, "notes.md"), markdown, "utf8");
    await writeFile(join(temp.dir, "notes"), markdown, "utf8");
    const named = await cli(["tokens", "notes.md"]);
    expect(named.code).toBe(2);
    expect(named.stderr).toBe(
      "evalgate: data file notes.md: is Markdown, not data: tokens counts the tokens of JSON or TOON data (a .json or .toon file) [INPUT_FILE_UNREADABLE]\n",
    );
    const sniffed = await cli(["tokens", "notes"]);
    expect(sniffed.code).toBe(2);
    expect(sniffed.stderr).toContain(
      "data file notes: is neither JSON nor TOON (found Markdown-like text; as TOON, line",
    );
    expect(sniffed.stderr).not.toContain("ToonError");
    // One paragraph under a heading reads as TOON only as a single string: still a document.
    await writeFile(join(temp.dir, "note.txt"), "# Budget\n\nWe ask for 40,000 EUR.\n", "utf8");
    const paragraph = await cli(["tokens", "note.txt"]);
    expect(paragraph.code).toBe(2);
    expect(paragraph.stdout).toBe("");
    expect(paragraph.stderr).toBe(
      "evalgate: data file note.txt: is neither JSON nor TOON (found Markdown-like text; as TOON, one string, no data): tokens counts the tokens of JSON or TOON data (a .json or .toon file) [INPUT_FILE_UNREADABLE]\n",
    );
    // Data without the extension still counts.
    await writeFile(join(temp.dir, "data"), "funder: Calder Bay\namount: 50000\n", "utf8");
    const data = await cli(["tokens", "data", "--json"]);
    expect(data.code).toBe(0);
    expect(JSON.parse(data.stdout)).toMatchObject({ file: "data", format: "toon" });
    // An empty file is no data: not "TOON uses 100% fewer" (0 tokens against the 1 of "{}").
    await writeFile(join(temp.dir, "empty.toon"), "\n  \n", "utf8");
    const empty = await cli(["tokens", "empty.toon"]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe(
      "evalgate: data file empty.toon: is empty: tokens counts the tokens of JSON or TOON data (a .json or .toon file) [INPUT_FILE_UNREADABLE]\n",
    );
    // Comment lines alone are no data either.
    await writeFile(join(temp.dir, "comments.toon"), "# Budget\n# to be filled in\n", "utf8");
    const comments = await cli(["tokens", "comments.toon"]);
    expect(comments.code).toBe(2);
    expect(comments.stderr).toBe(
      "evalgate: data file comments.toon: is empty (comment lines only): tokens counts the tokens of JSON or TOON data (a .json or .toon file) [INPUT_FILE_UNREADABLE]\n",
    );
  });

  it("catalog validate --json: the catalog and its findings as data, exit 1 on errors", {
    timeout: 3 * SPAWN_TIMEOUT,
  }, async () => {
    const criterion = (id: string, weight: number) => ({
      id,
      name: `Criterion ${id}`,
      description: `Does the section state ${id}?`,
      weight,
    });
    await writeFile(
      join(temp.dir, "letter.json"),
      JSON.stringify({
        id: "letter",
        name: "Cover Letter",
        version: "0.1.0",
        passingThreshold: 0.6,
        criteria: [criterion("purpose", 0.5), criterion("amount", 0.5)],
      }),
      "utf8",
    );
    const valid = await cli(["catalog", "validate", "letter.json", "--json"]);
    expect(valid.code).toBe(0);
    const report = JSON.parse(valid.stdout) as {
      file: string;
      valid: boolean;
      catalog: Record<string, unknown>;
      findings: Array<{ severity: string }>;
    };
    expect(report.file).toBe("letter.json");
    expect(report.valid).toBe(true);
    expect(report.catalog).toEqual({
      id: "letter",
      name: "Cover Letter",
      version: "0.1.0",
      criteria: 2,
      llmCriteria: 2,
    });
    expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);

    await writeFile(
      join(temp.dir, "broken-letter.json"),
      JSON.stringify({
        id: "broken",
        name: "Broken",
        version: "1",
        criteria: [criterion("x", -2)],
      }),
      "utf8",
    );
    const broken = await cli(["catalog", "validate", "broken-letter.json", "--json"]);
    expect(broken.code).toBe(1);
    const refused = JSON.parse(broken.stdout) as {
      valid: boolean;
      catalog: unknown;
      findings: Array<{ severity: string; location: string }>;
    };
    expect(refused.valid).toBe(false);
    expect(refused.catalog).toBeNull();
    expect(refused.findings[0]?.severity).toBe("error");
    expect(refused.findings[0]?.location).toContain("broken-letter.json");
  });
});
