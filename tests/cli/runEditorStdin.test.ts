/**
 * The editor of `evalgate run` never takes the review's piped answers: a fake editor (a node
 * script) reads its stdin to the end, records what it read and rewrites the file it was given,
 * while the answers after the edit arrive on the run's stdin; the editor reads none of them, and
 * they drive the review to completion. The run is in a session of its own, so that no terminal
 * (/dev/tty) is there for the editor either.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  answers,
  DB,
  proposalServer,
  STAGES,
  serverEnv,
  startEvalgate,
  storedThread,
  threadIdOf,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();
const EDITED =
  "Flooding displaced 1,240 Calder Bay households in 2024, as the fake editor wrote.\n";
const STARTED = "fake editor: reading its stdin";

/** A node script used as the editor: says it started, reads stdin to the end, then edits. */
async function fakeEditor(cwd: string): Promise<{ command: string; record: string }> {
  const script = join(cwd, "fake-editor.mjs");
  const record = join(cwd, "editor-stdin.txt");
  await writeFile(
    script,
    [
      'import { writeFileSync } from "node:fs";',
      `process.stdout.write(${JSON.stringify(`${STARTED}\n`)});`,
      'let read = "";',
      'process.stdin.setEncoding("utf8");',
      'process.stdin.on("data", (chunk) => { read += chunk; });',
      "const done = () => {",
      `  writeFileSync(${JSON.stringify(record)}, read);`,
      `  writeFileSync(process.argv[2], ${JSON.stringify(EDITED)});`,
      "};",
      'process.stdin.on("end", done);',
      'process.stdin.on("error", (error) => { read += "[error " + error.code + "]"; done(); });',
    ].join("\n"),
    "utf8",
  );
  return { command: `${process.execPath} ${script}`, record };
}

describe("evalgate run with answers piped on stdin and an editor", () => {
  it("gives the editor none of the answers, and the answers after the edit finish the review", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const editor = await fakeEditor(cwd);
      const run = startEvalgate(["run", "rfp.md", "--reviewer", "ana"], {
        cwd,
        env: { ...serverEnv(server), VISUAL: editor.command },
        detached: true,
      });
      // Research, solution and connection pairs approved; the problem statement edited.
      run.write(answers("a", "a", "a", "e"));
      await run.waitForStdout(new RegExp(STARTED));
      // The rest arrives while the editor runs, then the input ends.
      const rest = STAGES.slice(4).map(() => "a");
      run.end(answers(...rest));
      const done = await run.exited;
      expect(await readFile(editor.record, "utf8")).toBe("");
      expect(done.stderr).not.toContain("evalgate:");
      expect(done.code).toBe(0);
      expect(done.stdout).not.toContain("The input ended before the run finished.");
      const threadId = threadIdOf(done.stdout);
      expect(done.stdout).toContain(`Run completed (thread ${threadId}).`);

      const stored = await storedThread(join(cwd, DB), threadId);
      expect(stored.values.sections.problem_statement?.content?.trim()).toBe(EDITED.trim());
      expect(stored.values.sections.problem_statement?.status).toBe("edited");
      expect(stored.history.map((d) => `${d.contentId}:${d.action}`)).toEqual(
        STAGES.map((stage) => `${stage}:${stage === "problem_statement" ? "edit" : "approve"}`),
      );
    } finally {
      await server.close();
    }
  }, 120_000);
});
