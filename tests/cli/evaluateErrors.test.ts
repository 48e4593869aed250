/**
 * `evalgate evaluate` when it cannot decide: bad arguments, bad catalogs, no model. Exit code 2,
 * one clear message on stderr, nothing on stdout and no --out file — except a model that fails
 * during the run: the report is written first (evaluateModelDown.test.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  closedPort,
  FUNDABLE_CONTENT,
  IFB_CATALOG,
  INVALID_CATALOGS,
  ifbJudge,
  JUDGE_MODEL,
  judgeEnv,
  ROOT,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";

let server: OllamaServer;
let failing: OllamaServer;
const temp = tempFolderForFile();
let content: string;

beforeAll(async () => {
  server = await startOllamaServer({ models: [JUDGE_MODEL, "llama3.2:3b"], responder: ifbJudge });
  // Lists the model, then answers every chat as Ollama does for a model that is gone.
  failing = await startOllamaServer({
    models: [JUDGE_MODEL],
    behaviour: {
      status: 404,
      errorMessage: `model "${JUDGE_MODEL}" not found, try pulling it first`,
    },
  });
  content = await writeText(temp.dir, "content.md", FUNDABLE_CONTENT);
});

afterAll(async () => {
  await server?.close();
  await failing?.close();
});

/** The lines of stderr that are not progress (what the user is told went wrong). */
function messages(stderr: string): string[] {
  return stderr
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => !/^(evaluating \d+ criteria|\[\d+\/\d+\] )/.test(line));
}

describe.concurrent("evalgate evaluate errors (exit 2)", { timeout: SPAWN_TIMEOUT }, () => {
  it("a catalog file that does not exist", async () => {
    const run = await runEvalgate(
      ["evaluate", content, "--catalog", "data/criteria/missing.toon"],
      {
        env: judgeEnv(server.url),
      },
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(messages(run.stderr)).toEqual([
      "evalgate: cannot use the catalog: data/criteria/missing.toon: catalog file not found [CATALOG_NOT_FOUND]",
    ]);
  });

  it("an invalid catalog, named with its line and path", async () => {
    const catalog = join(INVALID_CATALOGS, "toon-negative-weight.toon");
    const run = await runEvalgate(["evaluate", content, "--catalog", catalog], {
      env: judgeEnv(server.url),
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const [message, ...rest] = messages(run.stderr);
    expect(rest).toEqual([]);
    expect(message).toMatch(
      /^evalgate: cannot use the catalog: tests\/fixtures\/catalogs\/invalid\/toon-negative-weight\.toon:8 \(\$\.criteria\[2\]\.weight\): .*>=0/,
    );
  });

  it("a --mode that does not exist, and a --timeout that is not a number", async () => {
    const [mode, timeout] = await Promise.all([
      runEvalgate(["evaluate", content, "--catalog", IFB_CATALOG, "--mode", "fast"]),
      runEvalgate(["evaluate", content, "--catalog", IFB_CATALOG, "--timeout", "soon"]),
    ]);
    expect(mode.code).toBe(2);
    expect(mode.stdout).toBe("");
    expect(mode.stderr).toContain(
      "error: option '--mode <mode>' argument 'fast' is invalid. Allowed choices are auto, per-criterion, grouped, batch.",
    );
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain("option '--timeout <ms>' argument 'soon' is invalid");
  });

  it("a content file that does not exist, and no --catalog at all", async () => {
    const [missing, noCatalog] = await Promise.all([
      runEvalgate(["evaluate", "drafts/none.md", "--catalog", IFB_CATALOG], {
        env: judgeEnv(server.url),
      }),
      runEvalgate(["evaluate", content]),
    ]);
    expect(missing.code).toBe(2);
    expect(messages(missing.stderr)).toEqual([
      "evalgate: content drafts/none.md: no such file or directory [INPUT_FILE_UNREADABLE]",
    ]);
    expect(noCatalog.code).toBe(2);
    expect(noCatalog.stderr).toContain("required option '-c, --catalog <path>' not specified");
  });

  it("an --out that names a file evaluate reads, or a folder that does not exist, is refused before any model call", async () => {
    const draft = await writeText(temp.dir, "draft.md", FUNDABLE_CONTENT);
    const catalog = join(temp.dir, "catalog.toon");
    const catalogText = await readFile(join(ROOT, IFB_CATALOG), "utf8");
    await writeFile(catalog, catalogText, "utf8");
    // A server of its own: the other tests of this file run at the same time.
    const own = await startOllamaServer({ models: [JUDGE_MODEL], responder: ifbJudge });
    const nowhere = join(temp.dir, "no-such-folder", "report.json");
    // A FIFO stands for a device such as /dev/null, which a report renamed over would replace.
    const fifo = join(temp.dir, "reports.fifo");
    execFileSync("mkfifo", [fifo]);
    const [overContent, overCatalog, noFolder, special] = await Promise.all([
      runEvalgate(["evaluate", draft, "--catalog", catalog, "--format", "junit", "--out", draft], {
        env: judgeEnv(own.url),
      }),
      runEvalgate(
        ["evaluate", content, "--catalog", catalog, "--out", `${temp.dir}/./catalog.toon`],
        { env: judgeEnv(own.url) },
      ),
      runEvalgate(["evaluate", content, "--catalog", catalog, "--out", nowhere], {
        env: judgeEnv(own.url),
      }),
      runEvalgate(["evaluate", content, "--catalog", catalog, "--out", fifo], {
        env: judgeEnv(own.url),
      }),
    ]);
    expect(messages(special.stderr)).toEqual([
      `evalgate: --out ${fifo} is not a regular file (a device, FIFO or socket): give a file, or --out - for stdout [COMMAND_INVALID]`,
    ]);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    await own.close();
    expect(messages(noFolder.stderr)).toEqual([
      `evalgate: --out ${nowhere}: there is no folder ${dirname(nowhere)} [COMMAND_INVALID]`,
    ]);
    for (const run of [overContent, overCatalog, noFolder, special]) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
    }
    expect(messages(overContent.stderr)).toEqual([
      `evalgate: --out ${draft} is the content file ${draft}: the report would replace it; write it to another file [COMMAND_INVALID]`,
    ]);
    expect(messages(overCatalog.stderr)[0]).toContain(`is the catalog ${catalog}:`);
    expect(await readFile(draft, "utf8")).toBe(FUNDABLE_CONTENT);
    expect(await readFile(catalog, "utf8")).toBe(catalogText);
    expect(own.chatRequests()).toHaveLength(0);
  });

  it("Ollama not reachable: names the URL tried and what to run; no --out file", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const out = join(temp.dir, "down.json");
    const run = await runEvalgate(
      ["evaluate", content, "--catalog", IFB_CATALOG, "--format", "json", "--out", out],
      { env: judgeEnv(url) },
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const lines = messages(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^evalgate: Ollama is not reachable at ${url}\\b`));
    expect(lines[0]).toContain("`ollama serve`");
    expect(lines[0]).toContain("OLLAMA_BASE_URL");
    expect(existsSync(out)).toBe(false);
  });

  it("model not pulled: says `ollama pull <model>` and lists what is there; no --out file", async () => {
    const out = join(temp.dir, "not-pulled.html");
    const run = await runEvalgate(
      ["evaluate", content, "--catalog", IFB_CATALOG, "--format", "html", "--out", out],
      { env: judgeEnv(server.url, "mistral-nemo:12b") },
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(messages(run.stderr)).toEqual([
      `evalgate: model "mistral-nemo:12b" is not pulled on the Ollama server at ${server.url} ` +
        `(pulled there: ${JUDGE_MODEL}, llama3.2:3b): run \`ollama pull mistral-nemo:12b\`, ` +
        "or set EVALGATE_MODEL (or --model ollama:<name>) to a pulled model [MODEL_NOT_READY]",
    ]);
    expect(existsSync(out)).toBe(false);
    // The check stopped it before any judge call.
    expect(server.chatRequests().filter((r) => r.model === "mistral-nemo:12b")).toEqual([]);
  });

  it("--model picks another pulled model over EVALGATE_MODEL", async () => {
    const run = await runEvalgate(
      [
        "evaluate",
        content,
        "--catalog",
        IFB_CATALOG,
        "--format",
        "toon",
        "--model",
        "ollama:llama3.2:3b",
      ],
      { env: judgeEnv(server.url, "mistral-nemo:12b") },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("status: FUNDABLE");
  });

  it("a model that fails during the run is explained like the check, after the report", async () => {
    const out = join(temp.dir, "failed.md");
    const run = await runEvalgate(
      ["evaluate", content, "--catalog", IFB_CATALOG, "--format", "md", "--out", out],
      { env: judgeEnv(failing.url) },
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(messages(run.stderr)).toEqual([
      `wrote the md report to ${out}`,
      `evalgate: model "${JUDGE_MODEL}" is not pulled on the Ollama server at ${failing.url}: ` +
        `run \`ollama pull ${JUDGE_MODEL}\`, or set EVALGATE_MODEL (or --model ollama:<name>) to a pulled model [MODEL_NOT_READY]`,
    ]);
    expect(failing.chatRequests().length).toBeGreaterThan(0);
    // The report is written all the same: every criterion of the catalog a judge error.
    const report = await readFile(out, "utf8");
    expect(report.match(/^- (c1|c2|c3): judge model error/gm)).toHaveLength(3);
    // With nothing judged there is no overall figure to show, not a zero.
    expect(report).toContain(
      "- **overall score:** none (no weighted criterion could be evaluated)",
    );
    expect((await readdir(temp.dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("Ctrl-C cancels the judge calls under way: exit 130, no --out file", async () => {
    const hanging = await startOllamaServer({ models: [JUDGE_MODEL], behaviour: { hang: true } });
    try {
      const out = join(temp.dir, "cancelled.json");
      const run = await runEvalgate(
        ["evaluate", content, "--catalog", IFB_CATALOG, "--format", "json", "--out", out],
        { env: judgeEnv(hanging.url), interruptWhen: () => hanging.chatRequests().length > 0 },
      );
      expect(run.code).toBe(130);
      expect(run.stdout).toBe("");
      expect(messages(run.stderr)).toEqual([
        "evalgate: cancelled: the evaluation was interrupted before it finished [MODEL_CALL_CANCELLED]",
      ]);
      expect(hanging.chatRequests().length).toBeGreaterThan(0);
      expect(existsSync(out)).toBe(false);
    } finally {
      await hanging.close();
    }
  });

  it("an unknown provider in --model", async () => {
    const run = await runEvalgate([
      "evaluate",
      content,
      "--catalog",
      IFB_CATALOG,
      "--model",
      "acme:judge",
    ]);
    expect(run.code).toBe(2);
    expect(messages(run.stderr)).toHaveLength(1);
    expect(run.stderr).toContain('unknown provider "acme"');
  });
});

describe.concurrent("evalgate help and usage", { timeout: SPAWN_TIMEOUT }, () => {
  it("--help on the program and on the commands exits 0", async () => {
    const runs = await Promise.all(
      [
        [],
        ["evaluate"],
        ["catalog"],
        ["catalog", "validate"],
        ["catalog", "convert"],
        ["tokens"],
      ].map((command) => runEvalgate([...command, "--help"])),
    );
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^Usage: evalgate/);
    }
    expect(runs[0]?.stdout).toMatch(/evaluate \[options\] <file-or-dir\.\.\.>/);
    expect(runs[1]?.stdout).toContain("--content-type <type>");
  });

  it("no command, or an unknown one, exits 2", async () => {
    const [none, unknown] = await Promise.all([runEvalgate([]), runEvalgate(["judge"])]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("Usage: evalgate");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("error: unknown command 'judge'");
  });
});
