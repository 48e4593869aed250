/**
 * One reader for every file a command is given (RFP, applicant, content, catalog): a file of
 * /proc, /sys or /dev is never read — `evalgate run /proc/self/environ` would put the process's
 * environment, secrets included, in the writer's prompt — and a symbolic link is refused unless
 * EVALGATE_FOLLOW_SYMLINKS=1 allows links (and then still never into /proc). Each refusal names
 * the file, before any model is chosen or called.
 */
import { symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  closedPort,
  IFB_CATALOG,
  ifbJudge,
  JUDGE_MODEL,
  judgeEnv,
  ROOT,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";

const temp = tempFolderForFile();
const CATALOG = join(ROOT, IFB_CATALOG);
const SECRET = "EVALGATE_INPUT_PROBE_SECRET";
const secretValue = `hunter2-${process.pid}`;
let server: OllamaServer;
let rfp: string;
let noServer: Record<string, string>;

beforeAll(async () => {
  server = await startOllamaServer({ models: [JUDGE_MODEL], responder: ifbJudge });
  rfp = await writeText(temp.dir, "rfp.md", "# Call for proposals\nHarbour sensors, 2026.\n");
  // Nothing listens there: a command that reached for a model would say so.
  noServer = { ...judgeEnv(`http://127.0.0.1:${await closedPort()}`), [SECRET]: secretValue };
});
afterAll(async () => {
  await server?.close();
});

function expectRefused(
  run: { code: number | null; stdout: string; stderr: string },
  pattern: RegExp,
) {
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(pattern);
  expect(`${run.stdout}${run.stderr}`).not.toContain(secretValue);
  // Refused before a model was chosen: nothing was asked of a server.
  expect(run.stderr).not.toMatch(/Ollama|127\.0\.0\.1|download/);
}

describe.concurrent("run: the RFP and the applicant", { timeout: SPAWN_TIMEOUT }, () => {
  it("run /proc/self/environ is refused, naming the file", async () => {
    const run = await runEvalgate(["run", "/proc/self/environ", "--db", "a.sqlite"], {
      cwd: temp.dir,
      env: noServer,
    });
    expectRefused(run, /RFP file \/proc\/self\/environ: is in \/proc \(.*\): a file of the system/);
  });

  it("--applicant /proc/self/environ is refused", async () => {
    const run = await runEvalgate(
      ["run", rfp, "--applicant", "/proc/self/environ", "--db", "b.sqlite"],
      { cwd: temp.dir, env: noServer },
    );
    expectRefused(run, /--applicant file \/proc\/self\/environ: is in \/proc/);
  });

  it("an RFP that is a link to /proc/self/environ is refused, links allowed or not", async () => {
    const link = join(temp.dir, "linked-rfp.md");
    await symlink("/proc/self/environ", link);
    for (const follow of ["0", "1"]) {
      const run = await runEvalgate(["run", "linked-rfp.md", "--db", `c${follow}.sqlite`], {
        cwd: temp.dir,
        env: { ...noServer, EVALGATE_FOLLOW_SYMLINKS: follow },
      });
      expectRefused(run, /RFP file linked-rfp\.md: is in \/proc/);
    }
  });

  it("an RFP that is a link to a regular file is refused unless links are allowed", async () => {
    const link = join(temp.dir, "rfp-link.md");
    await symlink(rfp, link);
    const run = await runEvalgate(["run", "rfp-link.md", "--db", "d.sqlite"], {
      cwd: temp.dir,
      env: noServer,
    });
    expectRefused(
      run,
      /RFP file rfp-link\.md: is a symbolic link: links are not followed \(give the file itself, or set EVALGATE_FOLLOW_SYMLINKS=1\)/,
    );
  });
});

describe.concurrent("run: text that is not UTF-8", { timeout: SPAWN_TIMEOUT }, () => {
  it("an RFP or applicant file in Latin-1 is refused, naming it, not read with its letters replaced", async () => {
    // "Fördermittel für Hamburg" in Latin-1: ö and ü are single bytes that are not UTF-8.
    const latin1 = Buffer.from("F\xf6rdermittel f\xfcr Hamburg\n", "latin1");
    await writeFile(join(temp.dir, "rfp-latin1.md"), latin1);
    const run = await runEvalgate(["run", "rfp-latin1.md", "--db", "d.sqlite"], {
      cwd: temp.dir,
      env: noServer,
    });
    expectRefused(run, /RFP file rfp-latin1\.md: is not UTF-8 text/);
    const applicant = await runEvalgate(
      ["run", "rfp.md", "--applicant", "rfp-latin1.md", "--db", "d.sqlite"],
      { cwd: temp.dir, env: noServer },
    );
    expectRefused(applicant, /--applicant file rfp-latin1\.md: is not UTF-8 text/);
  });
});

describe.concurrent("evaluate: the content and the catalog", { timeout: SPAWN_TIMEOUT }, () => {
  it("evaluate shadow.md, a link to a file outside, is refused; with links allowed it is read", async () => {
    const outside = await writeText(temp.dir, "outside-secret.md", "Quay sensors for Hafen.\n");
    const link = join(temp.dir, "shadow.md");
    await symlink(outside, link);
    const refused = await runEvalgate(["evaluate", "shadow.md", "--catalog", CATALOG], {
      cwd: temp.dir,
      env: noServer,
    });
    expectRefused(refused, /content file shadow\.md: is a symbolic link: links are not followed/);
    const followed = await runEvalgate(
      ["evaluate", "shadow.md", "--catalog", CATALOG, "--format", "json"],
      { cwd: temp.dir, env: { ...judgeEnv(server.url), EVALGATE_FOLLOW_SYMLINKS: "1" } },
    );
    expect(followed.stderr).not.toContain("symbolic link");
    expect([0, 1]).toContain(followed.code);
  });

  it("content that is /proc/self/environ, or a link to it with links allowed, is refused", async () => {
    const link = join(temp.dir, "environ.md");
    await symlink("/proc/self/environ", link);
    for (const [path, follow] of [
      ["/proc/self/environ", "0"],
      ["environ.md", "1"],
    ] as const) {
      const run = await runEvalgate(["evaluate", path, "--catalog", CATALOG], {
        cwd: temp.dir,
        env: { ...noServer, EVALGATE_FOLLOW_SYMLINKS: follow },
      });
      expectRefused(run, /content file .*: is in \/proc/);
    }
  });

  it("an EVALGATE_FOLLOW_SYMLINKS that is neither on nor off is refused, naming it (exit 2)", async () => {
    const run = await runEvalgate(["evaluate", "content.md", "--catalog", CATALOG], {
      cwd: temp.dir,
      env: { ...noServer, EVALGATE_FOLLOW_SYMLINKS: "banana" },
    });
    expectRefused(
      run,
      /EVALGATE_FOLLOW_SYMLINKS must be on or off .*, not "banana" \[COMMAND_INVALID\]/,
    );
  });

  it("a catalog that is a link is refused by catalog validate (exit 1)", async () => {
    const link = join(temp.dir, "linked-catalog.toon");
    await symlink(CATALOG, link);
    const run = await runEvalgate(["catalog", "validate", link], { env: noServer });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("the catalog file is a symbolic link: links are not followed");
  });
});
