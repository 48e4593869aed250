/**
 * evalgate as its users get it: `npm pack` (the prepack build runs in a copy of the repository),
 * the tarball installed into a fresh project outside the repository, and everything used from
 * there with plain `node` and `npx` — no tsx, no tsconfig of ours, no file of this repository:
 * every export subpath and its runtime names; the example pipeline (examples/proposal-pipeline)
 * run to its review and resumed as Agent Inbox resumes it; `npx evalgate evaluate` and
 * `npx evalgate serve` from that folder; and tsc on a file that uses the public types.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OllamaChatRequest, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { packageEntries, sourceOf } from "../publicNames.js";
import {
  type ConsumerProject,
  cleanEnv,
  installConsumer,
  npmOutput,
  type PackedRepository,
  packRepository,
  ROOT,
} from "./packedProject.js";

const execute = promisify(execFile);
const MODEL = "evalgate-judge:test";
const EXAMPLE = join(ROOT, "examples/proposal-pipeline");
const DRAFT =
  "In Calder Bay, 1,240 households were displaced by floods in 2024 (County report, p. 4).";

/** Writer prompts get the draft; judge prompts a passing JSON answer (checks pass). */
function answer(request: OllamaChatRequest): string {
  const system = request.messages[0]?.content ?? "";
  const user = request.messages.at(-1)?.content ?? "";
  if (system.includes("grant writer")) {
    return user.includes("A reviewer asked for changes") ? `${DRAFT} Revised.` : DRAFT;
  }
  if (user.includes('"result"')) {
    return JSON.stringify({ reasoning: "The requirement is met in the draft.", result: "pass" });
  }
  return JSON.stringify({ reasoning: "Specific and sourced for this criterion.", score: 0.85 });
}

let server: OllamaServer;
let project: ConsumerProject;
let packs: string;
let packed: PackedRepository;

beforeAll(async () => {
  server = await startOllamaServer({ models: [MODEL], responder: answer });
  packs = mkdtempSync(join(tmpdir(), "evalgate-pack-"));
  packed = await packRepository(packs);
  project = await installConsumer(EXAMPLE, packed.tarball);
}, 900_000);

/** Each case starts real processes (npm, node, tsc) on a shared machine: no tight limit. */
const SLOW = 600_000;

afterAll(async () => {
  await server?.close();
  project?.remove();
  if (packs !== undefined) rmSync(packs, { recursive: true, force: true });
}, SLOW);

/** The consumer's environment: the stand-in model server, nothing of this repository. */
function consumerEnv(): NodeJS.ProcessEnv {
  return cleanEnv({ OLLAMA_BASE_URL: server.url, EVALGATE_MODEL: MODEL });
}

interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command in the consumer's folder (no shell), its exit code and output. */
async function inConsumer(command: string, args: readonly string[]): Promise<Finished> {
  try {
    const { stdout, stderr } = await execute(command, [...args], {
      cwd: project.dir,
      env: consumerEnv(),
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    const code = typeof failed.code === "number" ? failed.code : -1;
    return { code, stdout: failed.stdout ?? "", stderr: failed.stderr ?? String(error) };
  }
}

/** Each export of package.json: its specifier and the source of what it loads. */
const SUBPATHS = [...packageEntries(ROOT)].map(
  ([specifier, target]) => [specifier, sourceOf(target.import)] as const,
);

describe("the packed package", () => {
  it(
    "ships the compiled library, its types, the bin and the shipped resources, and nothing of the repository's own",
    async () => {
      const installed = join(project.dir, "node_modules/evalgate");
      for (const file of [
        "dist/src/index.js",
        "dist/src/index.d.ts",
        "dist/src/service/pages/routes.js",
        "dist/prompts/evaluation/index.js",
        "bin/evalgate.mjs",
        "config/evaluation/criteria/budget.json",
        "config/proposal.json",
        "data/rfp/community-climate-resilience-rfp.md",
        "examples/blueprints/stoicism.json",
        "README.md",
        "LICENSE",
      ]) {
        expect(existsSync(join(installed, file)), file).toBe(true);
      }
      for (const left of [
        "src",
        "tests",
        "bench",
        ".ci",
        "scripts",
        "docs",
        "examples/proposal-pipeline",
        "dist/tests",
      ]) {
        expect(existsSync(join(installed, left)), left).toBe(false);
      }
    },
    SLOW,
  );

  it(
    "installs without a word about scripts: the package runs none at install, and ships what its scripts name",
    async () => {
      const manifest = JSON.parse(
        readFileSync(join(project.dir, "node_modules/evalgate/package.json"), "utf8"),
      ) as { scripts?: Record<string, string> };
      const scripts = manifest.scripts ?? {};
      // npm reports (and for a file or git source runs) these at install: none may be there.
      for (const hook of ["preinstall", "install", "postinstall", "prepare"]) {
        expect(scripts[hook], hook).toBeUndefined();
      }
      // Installed again from the tarball, as the README shows: npm warns of nothing of evalgate's.
      const again = await npmOutput(
        ["install", `./${basename(packed.tarball)}`, "--offline", "--no-audit", "--no-fund"],
        project.dir,
      );
      expect(again.stderr).not.toMatch(/install-scripts|evalgate@[^\s]* \(/);
      expect(again.stderr).not.toContain("build.mjs");
    },
    SLOW,
  );

  it(
    "is built by a clone's first run of the command, which then answers as asked",
    async () => {
      expect(packed.firstRun.stderr).toContain(
        "evalgate: building dist/ from this clone's source (its first run; `npm run build` does it too)…",
      );
      expect(packed.firstRun.stdout.trim()).toBe(
        (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string })
          .version,
      );
    },
    SLOW,
  );

  it.each(SUBPATHS)(
    "%s imports with plain node and has the runtime names of %s",
    async (specifier, source) => {
      const expected = Object.keys(await import(join(ROOT, source))).sort();
      const probe = `const m = await import(${JSON.stringify(specifier)}); console.log(JSON.stringify(Object.keys(m).sort()));`;
      const run = await inConsumer(process.execPath, ["--input-type=module", "-e", probe]);
      expect(run.stderr).toBe("");
      expect(JSON.parse(run.stdout)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    "keeps evalgate/store's runtime values",
    async () => {
      const probe =
        'const s = await import("evalgate/store"); console.log(JSON.stringify([s.DESK_GRAPH, s.ThreadStateSchema.parse("waiting"), s.ActionListSchema.parse(["approve"]), typeof s.ThreadSettingsSchema.parse, typeof s.DecisionPayloadSchema.parse]));';
      const run = await inConsumer(process.execPath, ["--input-type=module", "-e", probe]);
      expect(JSON.parse(run.stdout)).toEqual([
        "review-desk",
        "waiting",
        ["approve"],
        "function",
        "function",
      ]);
    },
    SLOW,
  );

  it(
    "type-checks a consumer's TypeScript (nodenext, strict) against the shipped .d.ts",
    async () => {
      cpSync(join(ROOT, "tests/package/consumer"), project.dir, { recursive: true });
      const tsc = join(project.dir, "node_modules/typescript/bin/tsc");
      const run = await inConsumer(process.execPath, [tsc, "-p", "tsconfig.json"]);
      expect(run.stdout + run.stderr).toBe("");
      expect(run.code).toBe(0);
    },
    SLOW,
  );

  it(
    "type-checks the docs' examples (docs/examples) against the installed package, as a user copies them",
    async () => {
      const examples = join(project.dir, "docs-examples");
      mkdirSync(examples, { recursive: true });
      const files = readdirSync(join(ROOT, "docs/examples")).filter((f) => f.endsWith(".ts"));
      for (const file of files) cpSync(join(ROOT, "docs/examples", file), join(examples, file));
      const config = {
        compilerOptions: {
          target: "ES2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
        },
        files,
      };
      writeFileSync(join(examples, "tsconfig.json"), JSON.stringify(config, null, 2));
      const tsc = join(project.dir, "node_modules/typescript/bin/tsc");
      const run = await inConsumer(process.execPath, [tsc, "-p", "docs-examples/tsconfig.json"]);
      expect(run.stdout + run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(files.length).toBeGreaterThan(5);
    },
    SLOW,
  );
});

describe("the example pipeline, installed", () => {
  it(
    "writes, judges and stops at the review; Agent Inbox's list of one response resumes it",
    async () => {
      const started = await inConsumer("npm", ["start", "--", "flood resilience in Calder Bay"]);
      expect(started.code, started.stderr).toBe(0);
      expect(started.stdout).toContain("Review: ");
      expect(started.stdout).toContain(DRAFT);

      const revised = await inConsumer("npm", [
        "run",
        "decide",
        "--",
        "respond",
        "Name the source's page.",
      ]);
      expect(revised.code, revised.stderr).toBe(0);
      expect(revised.stdout).toContain(`${DRAFT} Revised.`);

      // Agent Inbox's ignore: the gate says why it cannot be skipped and asks again.
      const ignored = await inConsumer("npm", ["run", "decide", "--", "ignore"]);
      expect(ignored.code, ignored.stderr).toBe(0);
      expect(ignored.stdout).toContain(
        "**Your last answer was not accepted.** type: a review cannot be ignored",
      );
      expect(ignored.stdout).toContain("Review: ");
      expect(ignored.stderr).not.toMatch(/\n\s+at /);
      // Not a decision: one line saying what to type, no stack trace.
      const unknown = await inConsumer("npm", ["run", "decide", "--", "skip"]);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('"skip" is not a decision. Decide with: npm run decide --');
      expect(unknown.stderr).not.toMatch(/\n\s+at /);

      const accepted = await inConsumer("npm", ["run", "decide", "--", "accept"]);
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(accepted.stdout).toContain("Finished: approved.");
      expect(accepted.stdout).toContain(`${DRAFT} Revised.`);

      // A decision on the finished thread says so, instead of finishing it again.
      const again = await inConsumer("npm", ["run", "decide", "--", "accept"]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(
        /Thread proposal-\d+ is already finished \(approved\): there is nothing to decide/,
      );
      expect(again.stdout).not.toContain("Finished: approved.");
    },
    SLOW,
  );
});

describe("the evalgate command, from the consumer's folder", () => {
  it(
    "npx evalgate evaluate judges the user's own file against the user's own catalog",
    async () => {
      mkdirSync(join(project.dir, "criteria"), { recursive: true });
      const shipped = join(
        project.dir,
        "node_modules/evalgate/config/evaluation/criteria/budget.json",
      );
      writeFileSync(join(project.dir, "criteria/budget.json"), readFileSync(shipped));
      writeFileSync(
        join(project.dir, "budget.md"),
        "Personnel $120,000; equipment $30,000; total $150,000.\n",
      );
      const run = await inConsumer("npx", [
        "evalgate",
        "evaluate",
        "budget.md",
        "--catalog",
        "criteria/budget.json",
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/overall score\s+0\.85/);
    },
    SLOW,
  );

  it(
    "npx evalgate serve answers the sign-in page (200, with its Content-Security-Policy)",
    async () => {
      const child: ChildProcess = spawn(
        "npx",
        ["evalgate", "serve", "--port", "0", "--data", "review-data"],
        {
          cwd: project.dir,
          env: consumerEnv(),
          stdio: ["ignore", "pipe", "pipe"],
          // npx does not pass SIGTERM on to the command it started: its own process group, so
          // both stop together.
          detached: true,
        },
      );
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let printed = "";
          child.stdout?.on("data", (chunk: Buffer) => {
            printed += chunk.toString("utf8");
            const match = /review service on (http:\/\/\S+)/.exec(printed);
            if (match?.[1] !== undefined) resolve(match[1]);
          });
          child.on("exit", (code) => reject(new Error(`serve exited (${code}): ${printed}`)));
        });
        const page = await fetch(`${url}/signin`);
        expect(page.status).toBe(200);
        expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
        expect(await page.text()).toContain("Sign in");
        expect(existsSync(join(project.dir, "review-data/checkpoints.sqlite"))).toBe(true);
      } finally {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
      }
    },
    SLOW,
  );
});
