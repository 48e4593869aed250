/**
 * Running the real `evalgate` command in a child process (node bin/evalgate.mjs, no shell), and a
 * judge for the Ollama-protocol test server that answers the IFB PROFI catalog by reading the
 * evidence fenced into each prompt.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import type { OllamaChatRequest } from "../doubles/index.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BIN = join(ROOT, "bin/evalgate.mjs");
export const IFB_CATALOG = "data/criteria/ifb_profi.toon";
export const BUDGET_CATALOG = "config/evaluation/criteria/budget.json";
export const INVALID_CATALOGS = "tests/fixtures/catalogs/invalid";
/** The model the tests' Ollama server has pulled, passed to the command as EVALGATE_MODEL. */
export const JUDGE_MODEL = "evalgate-judge:test";

/**
 * Per test: the commands run in child processes side by side, and on a busy 2-core machine a
 * handful of them take longer than vitest's default allows.
 */
export const SPAWN_TIMEOUT = 60_000;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Variables added to the child's environment (OLLAMA_BASE_URL, EVALGATE_MODEL, …). */
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs?: number;
  /** Sends SIGINT (Ctrl-C) to the child once this holds (checked every 20 ms). */
  interruptWhen?: () => boolean;
}

/**
 * The child's environment: ours without any model settings of the machine and without what npm
 * or npx set when they started the tests (the command tells npx from a plain start by them),
 * plus `extra`.
 */
function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.OLLAMA_BASE_URL;
  delete env.EVALGATE_MODEL;
  for (const key of Object.keys(env)) if (key.startsWith("npm_")) delete env[key];
  return { ...env, ...extra };
}

/** Runs `node bin/evalgate.mjs ...args` and collects its exit code, stdout and stderr. */
export function runEvalgate(args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: childEnv(options.env ?? {}),
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
    const { interruptWhen } = options;
    const poll =
      interruptWhen === undefined
        ? undefined
        : setInterval(() => {
            if (!interruptWhen()) return;
            clearInterval(poll);
            child.kill("SIGINT");
          }, 20);
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`evalgate ${args.join(" ")} did not finish in time\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? 45_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      clearInterval(poll);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment that points the command at a test server. */
export function judgeEnv(url: string, model = JUDGE_MODEL): Record<string, string> {
  return { OLLAMA_BASE_URL: url, EVALGATE_MODEL: model };
}

/** A port on 127.0.0.1 that nothing listens on (bound, then closed again). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A temporary folder for the files of one test file. */
export async function tempFolder(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "evalgate-cli-"));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * For one test file (call it at the top level, before the file's own hooks): a temporary folder
 * made before the file's tests and removed after them.
 */
export function tempFolderForFile(): { readonly dir: string } {
  let folder: Awaited<ReturnType<typeof tempFolder>> | undefined;
  beforeAll(async () => {
    folder = await tempFolder();
  });
  afterAll(async () => {
    await folder?.remove();
  });
  return {
    get dir() {
      if (folder === undefined) throw new Error("the file's temporary folder is made in beforeAll");
      return folder.dir;
    },
  };
}

export async function writeText(dir: string, name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text, "utf8");
  return path;
}

const FENCED = /<<<(CONTENT|SOURCE DOCUMENTS) id=(\w+)>>>\n([\s\S]*?)\n<<<END \1 id=\2>>>/g;

/** What a judge prompt gives as evidence: the fenced content and source passages. */
export function evidenceOf(prompt: string): string {
  return [...prompt.matchAll(FENCED)].map((match) => match[3] ?? "").join("\n");
}

function userPrompt(request: OllamaChatRequest): string {
  return request.messages.find((m) => m.role === "user")?.content ?? "";
}

/**
 * The IFB PROFI judge: c1 passes exactly when the evidence mentions Hamburg; c2 (innovation) is
 * 4; c3 (market) is 3 when the evidence calls the market a niche, else 4. Answers per-criterion
 * prompts with JSON judge contract answers and batch prompts with the TOON table they ask for.
 */
export function ifbJudge(request: OllamaChatRequest): string {
  const prompt = userPrompt(request);
  const evidence = evidenceOf(prompt);
  const hamburg = evidence.includes("Hamburg");
  const c1 = hamburg ? "pass" : "fail";
  const c1Reason = hamburg
    ? "The registered office is in Hamburg."
    : "The documents place the company outside Hamburg.";
  const c3 = /niche/i.test(evidence) ? 3 : 4;
  const c3Reason = c3 === 3 ? "A real need, but a niche market." : "A large, growing market.";
  const c2Reason = "A novel combination with a patent filing.";
  if (prompt.includes("results[3]{id,score,quotes,reasoning}:")) {
    return [
      "results[3]{id,score,quotes,reasoning}:",
      `  c1,${c1},"","${c1Reason}"`,
      `  c2,4,"","${c2Reason}"`,
      `  c3,${c3},"","${c3Reason}"`,
    ].join("\n");
  }
  if (prompt.includes("Is the company based in Hamburg?")) {
    return JSON.stringify({ reasoning: c1Reason, result: c1 });
  }
  if (prompt.includes("Rate the technological innovation")) {
    return JSON.stringify({ reasoning: c2Reason, score: 4, hits: ["patent filing"], misses: [] });
  }
  if (prompt.includes("Rate the market potential")) {
    return JSON.stringify({
      reasoning: c3Reason,
      score: c3,
      hits: ["bottom-up market size"],
      misses: c3 === 3 ? ["niche market"] : [],
    });
  }
  throw new Error(`the IFB judge got a prompt for no IFB criterion:\n${prompt.slice(0, 400)}`);
}

/** Content that passes the IFB catalog: Hamburg, innovative, a large market (4.0 → FUNDABLE). */
export const FUNDABLE_CONTENT = [
  "Hafen Sensorik GmbH, Am Sandtorkai 62, 20457 Hamburg.",
  "QuaySense monitors quay walls with distributed fibre-optic sensing (patent filed).",
  "The market for port infrastructure monitoring is large and growing across Europe.",
].join("\n");

/** Content that does not: the same company, a niche market (3.4 → REVIEW_REQUIRED). */
export const REVIEW_CONTENT = [
  "Hafen Sensorik GmbH, Am Sandtorkai 62, 20457 Hamburg.",
  "QuaySense monitors quay walls with distributed fibre-optic sensing (patent filed).",
  "The market is a niche of about 10 M EUR a year with long procurement cycles.",
].join("\n");
