/**
 * Files from the command line that are not regular files — a FIFO (opening it for reading would
 * wait for a writer for ever), a device that never ends, a file over its limit — are refused by
 * every command before anything is read, naming the path and what it is; documents folders skip
 * them. Catalogs with prototype keys or patterns RE2 cannot run are refused by `catalog validate`.
 * Each command runs in a child process with a timeout, so a regression fails instead of hanging.
 */
import { execFileSync } from "node:child_process";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CATALOG_FILE_BYTES } from "../../src/criteria/load.js";
import { EvaluationResultSchema } from "../../src/scoring/result.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  IFB_CATALOG,
  ifbJudge,
  JUDGE_MODEL,
  judgeEnv,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";

const temp = tempFolderForFile();
let server: OllamaServer;
/** The judge is the Ollama-protocol stand-in (a model is named, so nothing is downloaded). */
let env: Record<string, string>;

function fifo(name: string): string {
  const path = join(temp.dir, name);
  execFileSync("mkfifo", [path]);
  return path;
}

let content: string;
beforeAll(async () => {
  server = await startOllamaServer({ models: [JUDGE_MODEL], responder: ifbJudge });
  env = judgeEnv(server.url);
  content = await writeText(temp.dir, "content.md", "Hafen Sensorik GmbH builds quay sensors.");
});
afterAll(async () => {
  await server?.close();
});

describe.concurrent("FIFOs and devices are refused by every command", {
  timeout: SPAWN_TIMEOUT,
}, () => {
  it("catalog validate: a FIFO, a link to a FIFO and /dev/zero", async () => {
    const pipe = fifo("catalog.json");
    const link = join(temp.dir, "linked.toon");
    await symlink(pipe, link);
    for (const [path, what] of [
      [pipe, "a FIFO"],
      [link, "a FIFO"],
      ["/dev/zero", "a character device"],
    ] as const) {
      const run = await runEvalgate(["catalog", "validate", path]);
      expect(run.code).toBe(1);
      expect(run.stdout).toContain(`the catalog file is ${what}, not a regular file  (at ${path})`);
    }
  });

  it("evaluate --catalog: a FIFO", async () => {
    const pipe = fifo("evaluate-catalog.toon");
    const run = await runEvalgate(["evaluate", content, "--catalog", pipe], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${pipe}: the catalog file is a FIFO, not a regular file`);
  });

  it("evaluate: content that is a FIFO or /dev/zero", async () => {
    const pipe = fifo("content-pipe.md");
    for (const [path, what] of [
      [pipe, "a FIFO"],
      ["/dev/zero", "a character device"],
    ] as const) {
      const run = await runEvalgate(["evaluate", path, "--catalog", IFB_CATALOG], { env });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`is ${what}, not a regular file`);
    }
  });

  it("evaluate --documents: a FIFO among the documents is skipped, the real ones are the evidence", async () => {
    const folder = join(temp.dir, "sources");
    await mkdir(folder);
    await writeText(folder, "letter.md", "The company is based in Hamburg, Am Sandtorkai 62.");
    execFileSync("mkfifo", [join(folder, "pipe.md")]);
    const run = await runEvalgate(
      ["evaluate", content, "--catalog", IFB_CATALOG, "--documents", folder, "--format", "json"],
      { env },
    );
    const result = EvaluationResultSchema.parse(JSON.parse(run.stdout));
    const c1 = result.traces.find((t) => t.userPrompt.includes("Is the company based in Hamburg?"));
    expect(c1?.userPrompt).toContain("letter.md");
    expect(result.traces.some((t) => t.userPrompt.includes("pipe.md"))).toBe(false);
    // Hamburg is only in the letter: the knockout passed on the document's evidence.
    expect(result.criteria.find((c) => c.id === "c1")?.native).toBe("pass");
  });

  it("evaluate <project folder>: a folder holding only a FIFO has no documents", async () => {
    const folder = join(temp.dir, "project");
    await mkdir(folder);
    execFileSync("mkfifo", [join(folder, "proposal.md")]);
    const run = await runEvalgate(["evaluate", folder, "--catalog", IFB_CATALOG], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the folder holds no documents (.md, .txt or .json)");
  });

  it("rubrics register: a FIFO and /dev/zero", async () => {
    const pipe = fifo("rubrics.json");
    const db = join(temp.dir, "rubrics.sqlite");
    for (const [path, what] of [
      [pipe, "a FIFO"],
      ["/dev/zero", "a character device"],
    ] as const) {
      const run = await runEvalgate(["rubrics", "register", path, "--db", db]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`${path}: the rubric file is ${what}, not a regular file`);
    }
  });

  it("blueprint run: a FIFO", async () => {
    const pipe = fifo("blueprint.json");
    const run = await runEvalgate(["blueprint", "run", pipe, "--models", "ollama:any"], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${pipe}: is a FIFO, not a regular file`);
  });

  it("tokens: a FIFO", async () => {
    const pipe = fifo("data.json");
    const run = await runEvalgate(["tokens", pipe]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("is a FIFO, not a regular file");
  });
});

describe.concurrent("size limits and catalog contents", { timeout: SPAWN_TIMEOUT }, () => {
  it("a catalog file over the limit is refused before it is read", async () => {
    const padding = " ".repeat(MAX_CATALOG_FILE_BYTES);
    const big = await writeText(
      temp.dir,
      "big.json",
      `{"id": "big", "points": ["Clear aims."]}${padding}`,
    );
    const run = await runEvalgate(["catalog", "validate", big]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `the catalog file is ${(MAX_CATALOG_FILE_BYTES + 40).toLocaleString("en-US")} bytes, over the limit of 2,097,152 bytes`,
    );
  });

  it("catalog validate refuses a criterion that gives itself hidden fields through __proto__", async () => {
    const path = await writeText(
      temp.dir,
      "hidden.json",
      [
        "{",
        '  "name": "Impact", "version": "1",',
        '  "criteria": [',
        '    { "id": "reach", "name": "Reach", "description": "How many people benefit?", "weight": 1,',
        '      "\\u005f_proto__": { "isCritical": true, "passingThreshold": 0 } }',
        "  ]",
        "}",
      ].join("\n"),
    );
    const run = await runEvalgate(["catalog", "validate", path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `the key "__proto__" is not allowed (it would set the prototype of an object)  (at ${path}:5 $.criteria[0].__proto__)`,
    );
  });

  it("catalog validate accepts a pattern that backtracks in JavaScript, and refuses a backreference", async () => {
    const redos = await writeText(
      temp.dir,
      "redos.json",
      JSON.stringify({
        id: "redos",
        points: [
          ["matches", "(a+)+$"],
          ["imatches", "^(\\w+\\s?)*$"],
        ],
      }),
    );
    const accepted = await runEvalgate(["catalog", "validate", redos]);
    expect(accepted.code).toBe(0);
    const backref = await writeText(
      temp.dir,
      "backref.json",
      JSON.stringify({ id: "backref", points: ["Names the site.", ["matches", "(\\w+) \\1"]] }),
    );
    const refused = await runEvalgate(["catalog", "validate", backref]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('backreference "\\\\1" is not supported');
    expect(refused.stdout).toContain(`${backref}:1 $.points[1]`);
  });

  it("evaluate runs a JSON Schema's patterns in linear time: `^(a+)+$` on 50,000 × a and ! answers", async () => {
    const catalog = await writeText(
      temp.dir,
      "schema-redos.json",
      JSON.stringify({
        id: "schema-redos",
        name: "Schema patterns",
        version: "1.0.0",
        criteria: [
          {
            id: "shape",
            title: "Shape",
            description: "The title is a run of a",
            weight: 1,
            critical: false,
            method: {
              kind: "schema",
              schema: { type: "object", properties: { title: { pattern: "^(a+)+$" } } },
            },
          },
        ],
      }),
    );
    const data = await writeText(
      temp.dir,
      "title.json",
      JSON.stringify({ title: `${"a".repeat(50_000)}!` }),
    );
    const run = await runEvalgate(["evaluate", data, "--catalog", catalog, "--format", "json"]);
    expect(run.code).toBe(1);
    const result = EvaluationResultSchema.parse(JSON.parse(run.stdout));
    expect(result.criteria[0]?.evidence).toEqual(['/title: must match pattern "^(a+)+$"']);
  });
});
