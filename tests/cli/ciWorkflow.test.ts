/**
 * The GitHub Actions example of docs/ci.md (docs/examples/ci/evalgate.yml): its `run:` scripts
 * that list the changed documents and invoke evalgate are taken from the file as they are and run
 * with bash (as Actions runs them: `bash -e`, pipefail), `npx evalgate` being the built bin, the
 * judge the Ollama-protocol test server. The list step runs in a real git repository with a base
 * and a head commit; the evaluate step also runs on fixture lists of changed files.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OllamaChatRequest, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { BIN, evidenceOf, JUDGE_MODEL, ROOT, SPAWN_TIMEOUT, tempFolder } from "./helpers.js";
import { childrenNamed, readXml } from "./xmlReader.js";

const WORKFLOW = join(ROOT, "docs/examples/ci/evalgate.yml");

interface WorkflowStep {
  name: string;
  run: string;
  env: Record<string, string>;
}

/** The steps with a `run:` block scalar, their name and `env:` (plain `KEY: value` lines). */
function runSteps(yaml: string): WorkflowStep[] {
  const steps: WorkflowStep[] = [];
  const lines = yaml.split("\n");
  let current: WorkflowStep | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const step = /^ {6}- (?:name: (.*)|run: (.*))$/.exec(line);
    if (step !== null) {
      current = { name: step[1] ?? step[2] ?? "", run: "", env: {} };
      steps.push(current);
      if (step[2] !== undefined) current.run = step[2];
      continue;
    }
    if (current === undefined) continue;
    const env = /^ {10}([A-Z_]+): (.*)$/.exec(line);
    if (
      env !== null &&
      lines
        .slice(0, index)
        .reverse()
        .find((l) => /^ {8}\S/.test(l))
        ?.trim() === "env:"
    ) {
      current.env[env[1] as string] = env[2] as string;
    }
    if (/^ {8}run: \|$/.test(line)) {
      const body: string[] = [];
      while (index + 1 < lines.length && /^( {10}|$)/.test(lines[index + 1] as string)) {
        index += 1;
        body.push((lines[index] as string).slice(10));
      }
      current.run = `${body.join("\n").trimEnd()}\n`;
    }
  }
  return steps.filter((each) => each.run !== "");
}

function stepNamed(steps: readonly WorkflowStep[], name: string): WorkflowStep {
  const found = steps.find((each) => each.name === name);
  if (found === undefined) throw new Error(`the workflow has no step ${name}`);
  return found;
}

/** A fresh catalog the example's --catalog points at: one 1–5 score, threshold 0.7. */
const CATALOG = [
  "meta{id,version,program,passing_threshold}:",
  'pr_docs,1.0,"Pull request documents",0.7',
  "",
  "criteria[1,]{id,type,weight,title,prompt}:",
  'aims,score,1.0,"Clear aims","Rate how clearly the aims are stated (1-5)."',
  "",
].join("\n");

/** The judge: the digit after AIMS= in the content (5 → 1.0, 3 → 0.5). */
function aimsJudge(request: OllamaChatRequest): string {
  const prompt = request.messages.find((m) => m.role === "user")?.content ?? "";
  const digit = Number(/AIMS=(\d)/.exec(evidenceOf(prompt))?.[1] ?? "1");
  const reasoning =
    digit >= 4
      ? "The aims are stated plainly, each with a measurable target and a date."
      : "The aims are vague: no target, no date, no measure of success.";
  return JSON.stringify({ reasoning, score: digit });
}

interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The tests' environment (the injection guard's setting included) without any model settings. */
function testEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.OLLAMA_BASE_URL;
  delete env.EVALGATE_MODEL;
  for (const key of Object.keys(env)) if (key.startsWith("npm_")) delete env[key];
  return env;
}

/** Runs a step's script as Actions does (bash -e, pipefail), `npx evalgate` as the built bin. */
function runStep(step: WorkflowStep, cwd: string, env: Record<string, string>): Promise<ScriptRun> {
  const script = step.run.replaceAll("npx evalgate ", `node "${BIN}" `);
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script], {
      cwd,
      env: { ...testEnv(), ...step.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

let server: OllamaServer;
let steps: WorkflowStep[];
let yaml: string;
let folder: Awaited<ReturnType<typeof tempFolder>>;

beforeAll(async () => {
  server = await startOllamaServer({ models: [JUDGE_MODEL], responder: aimsJudge });
  yaml = await readFile(WORKFLOW, "utf8");
  steps = runSteps(yaml);
  folder = await tempFolder();
});

afterAll(async () => {
  await server?.close();
  await folder?.remove();
});

/** A repository of the user's: the catalog, and documents changed between base and head. */
async function userRepository(name: string): Promise<{ dir: string; base: string }> {
  const dir = join(folder.dir, name);
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.org", ...args], {
      cwd: dir,
      encoding: "utf8",
    }).trim();
  await mkdir(join(dir, "criteria"), { recursive: true });
  await mkdir(join(dir, "proposals/sub"), { recursive: true });
  await writeFile(join(dir, "criteria/proposal.toon"), CATALOG);
  await writeFile(join(dir, "proposals/kept.md"), "AIMS=2 unchanged\n");
  await writeFile(join(dir, "proposals/gone.md"), "AIMS=1 deleted in the pull request\n");
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "base");
  const base = git("rev-parse", "HEAD");
  await writeFile(join(dir, "proposals/new aims é.md"), "AIMS=5 a new document\n");
  await writeFile(join(dir, "proposals/sub/notes.txt"), "AIMS=4 nested\n");
  await writeFile(join(dir, "proposals/figure.png"), "not a document\n");
  await writeFile(join(dir, "README.md"), "AIMS=1 outside proposals/\n");
  git("rm", "-q", "proposals/gone.md");
  git("add", "-A");
  git("commit", "-qm", "head");
  return { dir, base };
}

const judgeEnv = () => ({ OLLAMA_BASE_URL: server.url, EVALGATE_MODEL: JUDGE_MODEL });

describe("the GitHub Actions example", { timeout: SPAWN_TIMEOUT }, () => {
  it("holds no secret value and keeps GitHub expressions out of the scripts that run evalgate", () => {
    const evaluate = stepNamed(steps, "Evaluate them");
    expect(evaluate.run).toContain("npx evalgate evaluate");
    expect(evaluate.run).not.toContain("${{");
    for (const match of yaml.matchAll(/secrets\.\w+/g)) {
      expect(yaml.slice(Math.max(0, match.index - 4), match.index)).toBe("${{ ");
    }
    expect(yaml).toContain("image: ollama/ollama");
    expect(yaml).toContain("mikepenz/action-junit-report");
  });

  it("lists the changed documents of the pull request, evaluates them and passes when every score reaches 0.7", async () => {
    const repo = await userRepository("passing");
    const listed = await runStep(
      stepNamed(steps, "List the documents the pull request changed"),
      repo.dir,
      {
        BASE_SHA: repo.base,
      },
    );
    expect(listed.stderr).toBe("");
    expect(listed.code).toBe(0);
    // Added and changed .md/.txt under proposals/; not the deleted one, the image or README.md.
    const changed = (await readFile(join(repo.dir, "changed-files.txt"), "utf8"))
      .trim()
      .split("\n");
    expect(changed.sort()).toEqual(["proposals/new aims é.md", "proposals/sub/notes.txt"]);

    const run = await runStep(stepNamed(steps, "Evaluate them"), repo.dir, judgeEnv());
    expect(run.stderr).not.toContain("evalgate:");
    // 5 → 1.0 and 4 → 0.75: both reach --fail-under 0.7.
    expect(run.code).toBe(0);
    const root = readXml(await readFile(join(repo.dir, "evalgate-junit.xml"), "utf8"));
    const suites = childrenNamed(root, "testsuite");
    expect(suites.map((s) => s.attributes.name).sort()).toEqual(changed.sort());
    expect([root.attributes.tests, root.attributes.failures, root.attributes.errors]).toEqual([
      "4",
      "0",
      "0",
    ]);
  });

  it("fails the check (exit 1) when a changed document scores under 0.7, with the report written", async () => {
    const repo = await userRepository("failing");
    await writeFile(join(repo.dir, "proposals/weak.md"), "AIMS=3 vague\n");
    await writeFile(
      join(repo.dir, "changed-files.txt"),
      "proposals/sub/notes.txt\nproposals/weak.md\n",
    );
    const run = await runStep(stepNamed(steps, "Evaluate them"), repo.dir, judgeEnv());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("--fail-under: proposals/weak.md: overall score 0.50 is under");
    const root = readXml(await readFile(join(repo.dir, "evalgate-junit.xml"), "utf8"));
    // weak.md: its criterion (0.5 under 0.7) and its overall fail.
    expect([root.attributes.tests, root.attributes.failures, root.attributes.errors]).toEqual([
      "4",
      "2",
      "0",
    ]);
  });

  it("does nothing and passes when the pull request changed no document", async () => {
    const repo = await userRepository("empty");
    await writeFile(join(repo.dir, "changed-files.txt"), "");
    const before = server.chatRequests().length;
    const run = await runStep(stepNamed(steps, "Evaluate them"), repo.dir, judgeEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("no changed documents to evaluate");
    expect(server.chatRequests().length).toBe(before);
  });
});
