/**
 * `evalgate run --thread` on a run that has completed, end to end against the Ollama-protocol
 * stand-in: it says so and names the file that holds the proposal, writing no copy of it, however
 * often it is asked; a copy is written only when no file holds that proposal any more (the file was
 * changed or deleted), or to a new --out.
 */
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  answers,
  DB,
  evalgate,
  proposalServer,
  STAGES,
  serverEnv,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();
const THREAD = "finished-run-0001";
const FILE = `proposal-${THREAD}.md`;
const AGAIN = `\`evalgate show ${THREAD}\` prints it again.`;

/** The proposal files in the folder, by name. */
async function proposalFiles(cwd: string): Promise<string[]> {
  return (await readdir(cwd)).filter((name) => name.startsWith("proposal-")).sort();
}

describe("evalgate run --thread on a completed run", () => {
  it("names the file that holds its proposal, writes no copy, and writes one only when no file holds it", async () => {
    const server = await proposalServer();
    try {
      const cwd = await freshFolder();
      const env = serverEnv(server);
      const first = await evalgate(["run", "rfp.md", "--thread", THREAD], {
        cwd,
        env,
        stdin: answers(...STAGES.map(() => "a")),
      });
      expect(first.stderr).not.toContain("evalgate:");
      expect(first.code).toBe(0);
      expect(first.stdout).toContain(`The proposal is in ${FILE}; ${AGAIN}`);
      const proposal = await readFile(join(cwd, FILE), "utf8");
      const calls = server.chatRequests().length;

      // Asked twice more: told it is complete and where the proposal is; still one file.
      for (const round of [1, 2]) {
        const again = await evalgate(["run", "--thread", THREAD], { cwd, env });
        expect(again.stderr, `round ${round}`).not.toContain("evalgate:");
        expect(again.code, `round ${round}`).toBe(0);
        expect(again.stdout.split("\n")[0]).toBe(
          `thread ${THREAD} (in ${DB}) has completed already: nothing is left to run`,
        );
        expect(again.stdout).toContain(`Run completed (thread ${THREAD}).`);
        expect(again.stdout).toContain(`The proposal is in ${FILE}, as written before; ${AGAIN}`);
        expect(await proposalFiles(cwd)).toEqual([FILE]);
      }
      // Nothing was written or judged again.
      expect(server.chatRequests()).toHaveLength(calls);

      // The reviewer changed the file: it is left as it is, and the proposal goes to a new one.
      const changed = `${proposal}\nMy notes for the board.\n`;
      await writeFile(join(cwd, FILE), changed, "utf8");
      const copy = `proposal-${THREAD}-2.md`;
      for (const round of [1, 2]) {
        const after = await evalgate(["run", "--thread", THREAD], { cwd, env });
        expect(after.code, `round ${round}`).toBe(0);
        expect(after.stdout).toContain(
          round === 1
            ? `The proposal is in ${copy} (${FILE} exists already, and is left as it is); ${AGAIN}`
            : `The proposal is in ${copy}, as written before; ${AGAIN}`,
        );
        expect(await proposalFiles(cwd)).toEqual([copy, FILE]);
      }
      expect(await readFile(join(cwd, FILE), "utf8")).toBe(changed);
      expect(await readFile(join(cwd, copy), "utf8")).toBe(proposal);

      // Both deleted: the proposal is written to its own name again.
      await rm(join(cwd, FILE));
      await rm(join(cwd, copy));
      const deleted = await evalgate(["run", "--thread", THREAD], { cwd, env });
      expect(deleted.code).toBe(0);
      expect(deleted.stdout).toContain(`The proposal is in ${FILE}; ${AGAIN}`);
      expect(await proposalFiles(cwd)).toEqual([FILE]);
      expect(await readFile(join(cwd, FILE), "utf8")).toBe(proposal);

      // Another --out asks for a file of its own.
      const out = await evalgate(["run", "--thread", THREAD, "--out", "board.md"], { cwd, env });
      expect(out.code).toBe(0);
      expect(out.stdout).toContain(`The proposal is in board.md; ${AGAIN}`);
      expect(await readFile(join(cwd, "board.md"), "utf8")).toBe(proposal);
      expect(await proposalFiles(cwd)).toEqual([FILE]);
    } finally {
      await server.close();
    }
  }, 180_000);
});
