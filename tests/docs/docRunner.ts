/**
 * Runs the documented commands of one documentation file, in order, in one fresh folder laid out
 * as a user's: the example files the package ships (data/, config/, examples/) copied in, nothing
 * else of this repository. The built bin runs them (node bin/evalgate.mjs) against the
 * Ollama-protocol stand-in server. What the docs say about a command is what is checked: its exit
 * code (0, or `exit N` in its comment), every "quoted" string of its comment in its output, the
 * lines of an output block shown right after it, and for a run that completes, the proposal file
 * with every section.
 */
import { cp, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { answers, type CliRun, evalgate, ROOT, startEvalgate } from "../cli/reviewHarness.js";
import type { DocCommand } from "./docCommands.js";

/** The example files a user gets with the package (package.json `files`). */
export const SHIPPED_EXAMPLES = ["data", "config", "examples/blueprints"] as const;

/** The sample RFP and applicant the README's first command writes a proposal for. */
export const SAMPLE_RUN = [
  "run",
  "data/rfp/community-climate-resilience-rfp.md",
  "--applicant",
  "data/applicant/harbor-neighbors-alliance.md",
];

/** Approve every stage: research, solution, pairs and the five sections. */
const APPROVE_ALL = answers(...Array.from({ length: 8 }, () => "a"));

export interface RunRow {
  place: string;
  command: string;
  outcome: "ran" | "FAILED" | "not run";
  detail: string;
}

export interface DocRunContext {
  env: Record<string, string>;
  /** Section titles of config/proposal.json, in order. */
  sectionTitles: readonly string[];
}

export async function userFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "evalgate-docs-"));
  for (const path of SHIPPED_EXAMPLES) {
    await cp(join(ROOT, path), join(dir, path), { recursive: true });
  }
  return dir;
}

function expectedExit(command: DocCommand): number {
  const match = /\bexit (\d+)\b/.exec(command.comment ?? "");
  return match?.[1] === undefined ? 0 : Number(match[1]);
}

/** What the docs say the command prints: quoted strings of its comment, shown output lines. */
function expectedOutput(command: DocCommand): string[] {
  const quoted = [...(command.comment ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? "");
  const shown = (command.shownOutput ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.includes("…"));
  return [...quoted, ...shown];
}

/** Serve on a free port of 127.0.0.1 (the docs' port may be taken), ask it, stop it. */
async function runServe(args: string[], cwd: string, env: Record<string, string>): Promise<CliRun> {
  const given = [...args];
  for (const [flag, value] of [
    ["--port", "0"],
    ["--host", "127.0.0.1"],
  ] as const) {
    const at = given.indexOf(flag);
    if (at >= 0) given.splice(at, 2);
    given.push(flag, value);
  }
  const live = startEvalgate(given, { cwd, env, timeoutMs: 90_000 });
  const [, url] = await live.waitForStdout(/review service on (http:\/\/\S+)/, 60_000);
  const health = await fetch(`${url}/api/health`);
  if (!health.ok) throw new Error(`GET ${url}/api/health answered ${health.status}`);
  live.child.kill("SIGTERM");
  return live.exited;
}

interface FolderState {
  cwd: string;
  pausedThread?: string;
  decided?: boolean;
}

/** A thread paused at its first review, for commands that name one ($THREAD). */
async function pausedThread(state: FolderState, env: Record<string, string>): Promise<string> {
  if (state.pausedThread !== undefined) return state.pausedThread;
  const run = await evalgate(SAMPLE_RUN, { cwd: state.cwd, env, stdin: answers("q") });
  const id = /^thread ([0-9a-f-]{36}) /m.exec(run.stdout)?.[1];
  if (id === undefined) throw new Error(`no paused thread: ${run.stdout}\n${run.stderr}`);
  state.pausedThread = id;
  return id;
}

/**
 * What a block marked `<!-- docs-test: setup: a review decided … -->` assumes: a reviewer decided
 * a review in the folder's store, marking a score as wrong (so there are calibration labels).
 */
async function decidedReview(state: FolderState, env: Record<string, string>): Promise<void> {
  if (state.decided === true) return;
  const thread = await pausedThread(state, env);
  const decision = ["review", thread, "approve", "--correct", "funder_priorities=0.4"];
  const run = await evalgate(decision, { cwd: state.cwd, env, timeoutMs: 120_000 });
  if (run.code !== 0) throw new Error(`setup: the decision failed: ${run.stderr}`);
  state.decided = true;
}

async function execute(command: DocCommand, state: FolderState, ctx: DocRunContext) {
  if (command.marker?.startsWith("setup:") === true) await decidedReview(state, ctx.env);
  const args: string[] = [];
  for (const arg of command.args) {
    args.push(arg === "$THREAD" ? await pausedThread(state, ctx.env) : arg);
  }
  if (args[0] === "serve") return runServe(args, state.cwd, ctx.env);
  const interactive = args[0] === "run" && !args.includes("--thread");
  return evalgate(args, {
    cwd: state.cwd,
    env: ctx.env,
    stdin: interactive ? APPROVE_ALL : "",
    timeoutMs: 120_000,
  });
}

/** What is wrong with a finished command's run, by what the docs say of it. */
async function problemsOf(command: DocCommand, run: CliRun, cwd: string, ctx: DocRunContext) {
  const problems: string[] = [];
  const expected = expectedExit(command);
  if (run.code !== expected) problems.push(`exit ${run.code}, the docs say ${expected}`);
  const output = `${run.stdout}\n${run.stderr}`;
  for (const text of expectedOutput(command)) {
    if (!output.includes(text)) problems.push(`no "${text}" in its output`);
  }
  const proposal = /The proposal is in (\S+?);/.exec(run.stdout)?.[1];
  if (command.args[0] === "run" && run.code === 0) {
    if (proposal === undefined) problems.push("the run did not say where the proposal is");
    else {
      const headings = (await readFile(join(cwd, proposal), "utf8")).split("\n");
      for (const title of ctx.sectionTitles) {
        if (!headings.includes(`## ${title}`)) problems.push(`${proposal} has no ## ${title}`);
      }
    }
  }
  return problems;
}

/** Runs one file's runnable commands in order in one folder; a row per command. */
export async function runDocFile(
  commands: readonly DocCommand[],
  ctx: DocRunContext,
): Promise<{ rows: RunRow[]; runs: Map<DocCommand, CliRun> }> {
  const state: FolderState = { cwd: await userFolder() };
  const rows: RunRow[] = [];
  const runs = new Map<DocCommand, CliRun>();
  for (const command of commands) {
    const place = `${command.file}:${command.line}`;
    const text = command.text;
    if (command.marker !== undefined && !command.marker.startsWith("setup:")) {
      rows.push({ place, command: text, outcome: "not run", detail: command.marker });
      continue;
    }
    try {
      const run = await execute(command, state, ctx);
      runs.set(command, run);
      const problems = await problemsOf(command, run, state.cwd, ctx);
      rows.push({
        place,
        command: text,
        outcome: problems.length === 0 ? "ran" : "FAILED",
        detail:
          problems.length === 0
            ? `exit ${run.code}`
            : `${problems.join("; ")}\n--- stdout\n${run.stdout.slice(-3000)}\n--- stderr\n${run.stderr.slice(-3000)}`,
      });
    } catch (error) {
      rows.push({ place, command: text, outcome: "FAILED", detail: String(error) });
    }
  }
  return { rows, runs };
}
