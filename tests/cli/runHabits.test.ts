/**
 * `evalgate run` as a new user meets it, end to end in a child process against the
 * Ollama-protocol test server: editing a stage in the reviewer's editor (VISUAL, a small node
 * script that rewrites the file), editing under npx (EDITOR=vi set by npm is not used: the file
 * is printed, edited like a reviewer would, and loaded on Enter), the commands to run next
 * printed as the user ran evalgate (`npx evalgate …` under npx), `--timeout` per model call, and
 * `reviews --json` on the paused run.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isWriterPrompt } from "../devserver/proposalResponder.js";
import {
  answers,
  DB,
  evalgate,
  proposalServer,
  serverEnv,
  startEvalgate,
  storedThread,
  threadIdOf,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();

/** What npm and npx put in the environment of what they run (EDITOR=vi among them). */
const NPX_ENV = {
  npm_command: "exec",
  npm_lifecycle_event: "npx",
  npm_execpath: "/usr/lib/node_modules/npm/bin/npm-cli.js",
};

const EDITED = "Flooding displaced 1,240 Calder Bay households in 2024 (County report, p. 4).\n";

/** A node script used as an editor: writes EDITED into the file and records that it ran. */
async function scriptEditor(dir: string, name: string): Promise<{ command: string; ran: string }> {
  const script = join(dir, `${name}.mjs`);
  const ran = join(dir, `${name}.ran`);
  await writeFile(
    script,
    [
      'import { writeFileSync } from "node:fs";',
      `writeFileSync(process.argv[2], ${JSON.stringify(EDITED)});`,
      `writeFileSync(${JSON.stringify(ran)}, process.argv[2]);`,
    ].join("\n"),
    "utf8",
  );
  return { command: `${process.execPath} ${script}`, ran };
}

describe.concurrent("evalgate run, as a new user meets it", () => {
  it("edits a section in VISUAL after one line saying how, and keeps the edit", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const editor = await scriptEditor(cwd, "visual");
      const run = await evalgate(["run", "rfp.md", "--applicant", "applicant.md"], {
        cwd,
        env: { ...serverEnv(server), VISUAL: editor.command },
        // research, solution, connection pairs approved; the problem statement edited; quit.
        stdin: answers("a", "a", "a", "e", "q"),
      });
      expect(run.code).toBe(0);
      const file = await readFile(editor.ran, "utf8");
      expect(run.stdout).toContain(
        `Opening ${file} in node (VISUAL): save and quit to use your edit; leave it unchanged to keep the content.\n`,
      );
      expect(existsSync(file)).toBe(false);
      const threadId = threadIdOf(run.stdout);
      const stored = await storedThread(join(cwd, DB), threadId);
      expect(stored.values.sections.problem_statement?.content).toBe(EDITED.trim());
      expect(stored.values.sections.problem_statement?.status).not.toBe("awaiting_review");
    } finally {
      await server.close();
    }
  });

  it("under npx, ignores npm's EDITOR=vi: the file is edited in place, Enter loads it, and the hints say npx evalgate", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const vi = await scriptEditor(cwd, "vi");
      const live = startEvalgate(["run", "rfp.md"], {
        cwd,
        env: { ...serverEnv(server), ...NPX_ENV, EDITOR: vi.command },
      });
      live.write(answers("e"));
      const [, file] = await live.waitForStdout(
        /Edit (\S+) in your editor, save, then press Enter to load it \(or type q to cancel, or the path of another file to load\): /,
      );
      if (file === undefined) throw new Error("no file in the question");
      // The research is structured: the file holds its edit form; the reviewer edits a field.
      const form = await readFile(file, "utf8");
      expect(form).toMatch(/^## Funder\n/m);
      const edited = form.replace(
        /^(## Funder\n)[^\n]*/m,
        "$1Calder Bay Community Foundation (edited)",
      );
      await writeFile(file, edited, "utf8");
      live.end(answers("", "q"));
      const run = await live.exited;
      expect(run.code).toBe(0);
      expect(existsSync(vi.ran)).toBe(false);
      expect(existsSync(file)).toBe(false);
      const threadId = threadIdOf(run.stdout);
      expect(run.stdout).toContain(`  npx evalgate run --thread ${threadId}\n`);
      expect(run.stdout).toContain(`  npx evalgate review ${threadId} `);
      expect(run.stdout).not.toMatch(/^ {2}evalgate /m);
      const stored = await storedThread(join(cwd, DB), threadId);
      expect((stored.values.researchResults as { funder?: string }).funder).toBe(
        "Calder Bay Community Foundation (edited)",
      );
    } finally {
      await server.close();
    }
  });

  it("--timeout bounds each model call: a writer that never answers becomes a generation error in seconds", async () => {
    // Every writer call hangs; without --timeout each would wait the default 60 s.
    const server = await proposalServer((_n, request) =>
      isWriterPrompt(request.messages) ? { hang: true } : {},
    );
    try {
      const cwd = await freshFolder();
      const run = await evalgate(["run", "rfp.md", "--timeout", "300"], {
        cwd,
        env: serverEnv(server),
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("generation_error");
      expect(server.clientDisconnects).toBeGreaterThan(0);

      // The paused run, as data.
      const listed = await evalgate(["reviews", "--json"], { cwd, env: serverEnv(server) });
      expect(listed.code).toBe(0);
      const parsed = JSON.parse(listed.stdout) as {
        store: string;
        reviews: Array<{ threadId: string; type: string; stage: string; actions: string[] }>;
        workLeft: unknown[];
      };
      expect(parsed.store).toBe(DB);
      expect(parsed.reviews).toEqual([
        expect.objectContaining({
          threadId: threadIdOf(run.stdout),
          stage: "research",
          type: "generation_error",
          actions: expect.arrayContaining(["retry", "edit"]),
        }),
      ]);
      expect(parsed.workLeft).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
