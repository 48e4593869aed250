/**
 * The proposal from the command line, end to end against the Ollama-protocol stand-in: `evalgate
 * run` writes it when the run completes (never over an existing file: a taken default name moves
 * to the next free one, an --out that exists is refused before anything runs), and `evalgate show`
 * prints it — or a paused thread's draft, marked as such — as Markdown, JSON or HTML, or writes it
 * to a new --out file.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { OllamaServer } from "../doubles/index.js";
import { SECTION_IDS, STAGE_IDS } from "../proposalStages.js";
import { BIN, SPAWN_TIMEOUT } from "./helpers.js";
import {
  answers,
  DB,
  evalgate,
  proposalServer,
  STAGES,
  serverEnv,
  startEvalgate,
  threadIdOf,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();

interface Threads {
  cwd: string;
  finished: string;
  /** The finished run's stdout. */
  finishedStdout: string;
  paused: string;
}

let server: OllamaServer;
let threads: Threads;

const FINISHED = "run-writes-0001";

/** One folder with a paused run, and a finished one whose default proposal file was taken. */
async function runs(): Promise<Threads> {
  const cwd = await freshFolder();
  const paused = await evalgate(["run", "rfp.md", "--applicant", "applicant.md"], {
    cwd,
    env: serverEnv(server),
    stdin: answers("a", "q"),
  });
  expect(paused.code).toBe(0);
  await writeFile(join(cwd, `proposal-${FINISHED}.md`), "someone else's notes\n", "utf8");
  const finished = await evalgate(["run", "rfp.md", "--thread", FINISHED, "--reviewer", "ana"], {
    cwd,
    env: serverEnv(server),
    stdin: answers(...STAGES.map(() => "a")),
  });
  expect(finished.stderr).not.toContain("evalgate:");
  expect(finished.code).toBe(0);
  return {
    cwd,
    paused: threadIdOf(paused.stdout),
    finished: FINISHED,
    finishedStdout: finished.stdout,
  };
}

beforeAll(async () => {
  server = await proposalServer();
  threads = await runs();
  return async () => {
    await server.close();
  };
}, 180_000);

describe("evalgate run writes the proposal", () => {
  it("to proposal-<thread>.md, or the next free name when that one is taken, never over a file", async () => {
    const { cwd, finished, finishedStdout } = threads;
    expect(await readFile(join(cwd, `proposal-${finished}.md`), "utf8")).toBe(
      "someone else's notes\n",
    );
    expect(finishedStdout).toContain(
      `The proposal is in proposal-${finished}-2.md (proposal-${finished}.md exists already, and is left as it is); \`evalgate show ${finished}\` prints it again.`,
    );
    const written = await readFile(join(cwd, `proposal-${finished}-2.md`), "utf8");
    expect(written).toContain("## Appendix B: gate results and decisions");
  });

  it("refuses an --out file that exists before anything runs, and writes HTML for an .html --out", async () => {
    const cwd = await freshFolder();
    await writeFile(join(cwd, "mine.md"), "keep me\n", "utf8");
    const refused = await evalgate(["run", "rfp.md", "--out", "mine.md"], {
      cwd,
      env: serverEnv(server),
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      "evalgate: --out mine.md exists already: evalgate does not overwrite it (choose another name, or move it away) [COMMAND_INVALID]",
    );
    expect(existsSync(join(cwd, DB))).toBe(false);
    expect(await readFile(join(cwd, "mine.md"), "utf8")).toBe("keep me\n");

    const nowhere = await evalgate(["run", "rfp.md", "--out", "out/proposal.html"], {
      cwd,
      env: serverEnv(server),
    });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr.trim()).toBe(
      "evalgate: --out out/proposal.html: there is no folder out [COMMAND_INVALID]",
    );
    expect(existsSync(join(cwd, DB))).toBe(false);

    const run = await evalgate(["run", "rfp.md", "--out", "proposal.html"], {
      cwd,
      env: serverEnv(server),
      stdin: answers(...STAGES.map(() => "a")),
    });
    expect(run.code).toBe(0);
    const threadId = threadIdOf(run.stdout);
    expect(run.stdout).toContain(`The proposal is in proposal.html; \`evalgate show ${threadId}\``);
    const html = await readFile(join(cwd, "proposal.html"), "utf8");
    const shown = await evalgate(["show", threadId, "--format", "html", "--out", "p.html"], {
      cwd,
    });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toBe(`the proposal of thread ${threadId} written to p.html\n`);
    expect(await readFile(join(cwd, "p.html"), "utf8")).toBe(html);
    // Without --format, an --out file's extension chooses the format, as it does for `run`.
    const byName = await evalgate(["show", threadId, "--out", "named.html"], { cwd });
    expect(byName.code).toBe(0);
    expect(await readFile(join(cwd, "named.html"), "utf8")).toBe(html);
    await evalgate(["show", threadId, "--out", "named.json"], { cwd });
    const json = JSON.parse(await readFile(join(cwd, "named.json"), "utf8"));
    expect(json).toMatchObject({ threadId, state: "complete" });
    expect(html.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(html).toContain(
      `content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;"`,
    );
    expect(html).toContain('<article class="proposal" data-state="complete">');
  }, 120_000);

  it("says the run is complete and how to get its proposal when the --out file cannot be written", async () => {
    const cwd = await freshFolder();
    await mkdir(join(cwd, "drafts"));
    const live = startEvalgate(["run", "rfp.md", "--out", "drafts/proposal.md"], {
      cwd,
      env: serverEnv(server),
    });
    live.write(answers(...STAGES.slice(1).map(() => "a")));
    await live.waitForStdout(/Review: Conclusion Evaluation Review/);
    // The folder goes away while the last stage waits for its decision.
    await rm(join(cwd, "drafts"), { recursive: true });
    live.end(answers("a"));
    const run = await live.exited;
    const threadId = threadIdOf(run.stdout);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`Run completed (thread ${threadId}).`);
    expect(run.stderr).toContain("evalgate: cannot write drafts/proposal.md: ");
    expect(run.stderr).toContain(
      `the run is complete and kept: \`evalgate show ${threadId} --out <file>\` writes its proposal`,
    );
    const shown = await evalgate(["show", threadId, "--out", "proposal.md"], { cwd });
    expect(shown.code).toBe(0);
    expect(await readFile(join(cwd, "proposal.md"), "utf8")).not.toContain("Draft");
  }, 120_000);
});

describe("evalgate show", () => {
  it("prints a finished thread's proposal as Markdown: sections in order, then the appendices", async () => {
    const { cwd, finished } = threads;
    const shown = await evalgate(["show", finished], { cwd });
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    const headings = shown.stdout.split("\n").filter((l) => /^##? /.test(l));
    expect(headings.slice(1)).toEqual([
      "## Problem Statement",
      "## Methodology",
      "## Budget",
      "## Timeline",
      "## Conclusion",
      "## Appendix A: research, solution sought and connection pairs",
      "## Appendix B: gate results and decisions",
    ]);
    expect(shown.stdout).not.toContain("Draft");
    // Each stage's row names the catalog version that judged it (config/evaluation/criteria).
    expect(shown.stdout).toContain("| Passed | Judged with | Round |");
    const solutionRow = shown.stdout.split("\n").find((l) => l.startsWith("| Solution Sought |"));
    expect(solutionRow).toContain("| yes | solution@1.0.0 | 1 |");
    // The same document the run wrote.
    expect(await readFile(join(cwd, `proposal-${finished}-2.md`), "utf8")).toBe(shown.stdout);
  });

  it("ends quietly when the reader of its output has gone (`show … | head`), with no stack trace", async () => {
    const { cwd, finished } = threads;
    const child = spawn(process.execPath, [BIN, "show", finished], { cwd, stdio: "pipe" });
    // The reader is gone before anything is written: every write meets a closed pipe (EPIPE).
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("prints JSON: the document, complete, every stage's gate passed with ana's approval", async () => {
    const { cwd, finished } = threads;
    const shown = await evalgate(["show", finished, "--format", "json"], { cwd });
    expect(shown.code).toBe(0);
    const document = JSON.parse(shown.stdout);
    expect(document.state).toBe("complete");
    expect(document.sections.map((s: { stage: string }) => s.stage)).toEqual([...SECTION_IDS]);
    expect(
      document.gates.map((g: { stage: string; verdict: string }) => [g.stage, g.verdict]),
    ).toEqual(STAGE_IDS.map((s) => [s, "pass"]));
    // Every stage was judged with its own catalog of config/evaluation/criteria, version 1.0.0.
    expect(document.gates.map((g: { judgedWith: string }) => g.judgedWith)).toEqual(
      STAGE_IDS.map((s) => `${s}@1.0.0`),
    );
    for (const gate of document.gates) {
      expect(gate.decisions).toEqual([
        expect.objectContaining({ action: "approve", reviewer: "ana" }),
      ]);
    }
  });

  it("prints a paused thread's draft, marked as a draft, listing what is not yet written or approved", async () => {
    const { cwd, paused } = threads;
    const md = await evalgate(["show", paused], { cwd });
    expect(md.code).toBe(0);
    expect(md.stdout).toContain(
      "> **Draft.** This proposal is not finished: not every stage is written and approved yet.\n> Not yet written or approved: Solution Sought (waiting for a reviewer), Connection Pairs (not started), Problem Statement (not started),",
    );
    expect(md.stdout).toContain("## Problem Statement\n\n_Not written yet._");
    const json = JSON.parse((await evalgate(["show", paused, "--format", "json"], { cwd })).stdout);
    expect(json.state).toBe("draft");
    expect(json.pending[0]).toMatchObject({ stage: "solution", status: "awaiting_review" });
    const html = (await evalgate(["show", paused, "--format", "html"], { cwd })).stdout;
    expect(html).toContain('<p class="notice draft" id="draft-notice">');
  });

  it("refuses an unknown thread, a folder without threads, a bad format and an --out that exists", {
    timeout: 4 * SPAWN_TIMEOUT,
  }, async () => {
    const { cwd, finished } = threads;
    const unknown = await evalgate(["show", "no-such-thread"], { cwd });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.trim()).toBe(
      `evalgate: no thread "no-such-thread" in ${DB} [COMMAND_INVALID]`,
    );
    const empty = await freshFolder();
    const none = await evalgate(["show", finished], { cwd: empty });
    expect(none.stderr.trim()).toBe(
      `evalgate: no thread "${finished}": there is no checkpoint file at ${DB} [COMMAND_INVALID]`,
    );
    expect(existsSync(join(empty, DB))).toBe(false);
    const format = await evalgate(["show", finished, "--format", "pdf"], { cwd });
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("Allowed choices are md, json, html");
    await writeFile(join(cwd, "taken.md"), "x\n", "utf8");
    const taken = await evalgate(["show", finished, "--out", "taken.md"], { cwd });
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain("--out taken.md exists already");
    expect(await readFile(join(cwd, "taken.md"), "utf8")).toBe("x\n");
    await mkdir(join(cwd, "exports"), { recursive: true });
    const folder = await evalgate(["show", finished, "--out", "exports"], { cwd });
    expect(folder.code).toBe(2);
    expect(folder.stderr.trim()).toBe(
      "evalgate: --out exports is a folder: give the name of a new file, such as exports/proposal.md [COMMAND_INVALID]",
    );
    const bad = await evalgate(["show", "bad id with spaces"], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("the thread id");
  });
});
