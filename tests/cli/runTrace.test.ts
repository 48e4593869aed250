/**
 * `evalgate run --trace <file.jsonl>`: the real command in a child process against the
 * Ollama-protocol test server; when the run pauses (and again when it is resumed to its end) the
 * thread's judge calls are written to the file, one a line, read back from the trace store.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TraceSchema } from "../../src/scoring/result.js";
import { isWriterPrompt } from "../devserver/proposalResponder.js";
import {
  answers,
  evalgate,
  MODEL,
  proposalServer,
  serverEnv,
  threadIdOf,
  userPrompt,
  workFolders,
} from "./reviewHarness.js";

const freshFolder = workFolders();

async function tracedCalls(path: string) {
  const text = await readFile(path, "utf8");
  return text
    .trimEnd()
    .split("\n")
    .map((line) => {
      const raw = JSON.parse(line) as { evaluationId: string; threadId: string };
      return { ...TraceSchema.parse(raw), evaluationId: raw.evaluationId, threadId: raw.threadId };
    });
}

describe("evalgate run --trace", () => {
  it("refuses a folder as the trace file before anything runs", async () => {
    const dir = await freshFolder();
    await mkdir(join(dir, "traces"));
    const run = await evalgate(["run", "rfp.md", "--trace", "traces"], {
      cwd: dir,
      env: { OLLAMA_BASE_URL: "http://127.0.0.1:9", EVALGATE_MODEL: MODEL },
    });
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      "evalgate: --trace traces is a folder: give the name of a new file, such as traces/calls.jsonl [COMMAND_INVALID]",
    );
    expect(existsSync(join(dir, ".evalgate"))).toBe(false);
  });

  it("writes the thread's judge calls as JSONL when the run pauses, and all of them at its end", async () => {
    const server = await proposalServer();
    const dir = await freshFolder();
    try {
      const env = serverEnv(server);
      const first = await evalgate(
        ["run", "rfp.md", "--applicant", "applicant.md", "--trace", "out/calls.jsonl"],
        { cwd: dir, env, stdin: answers("a", "q") },
      );
      expect(first.stderr).not.toContain("evalgate:");
      expect(first.code).toBe(0);
      const threadId = threadIdOf(first.stdout);
      const path = join(dir, "out/calls.jsonl");
      // The judge's calls and the injection guard's.
      const judged = [
        ...server.chatRequests().filter((r) => !isWriterPrompt(r.messages)),
        ...server.guardRequests(),
      ];
      const paused = await tracedCalls(path);
      expect(first.stderr).toContain(
        `traces: ${paused.length} judge calls written to out/calls.jsonl`,
      );
      // Every judge request the server answered is one line, with its exact prompt and the model.
      expect(paused.map((t) => t.userPrompt).sort()).toEqual(judged.map(userPrompt).sort());
      expect(new Set(paused.map((t) => t.threadId))).toEqual(new Set([threadId]));
      expect(new Set(paused.map((t) => t.model))).toEqual(new Set([`ollama:${MODEL}`]));
      // Two evaluations so far (research, then solution), each under its own id.
      expect(new Set(paused.map((t) => t.evaluationId)).size).toBe(2);

      const second = await evalgate(["run", "--thread", threadId, "--trace", "out/calls.jsonl"], {
        cwd: dir,
        env,
        stdin: answers("a", "a", "a", "a", "a", "a", "a", "a", "a"),
      });
      expect(second.code).toBe(0);
      expect(second.stdout).toContain(`Run completed (thread ${threadId}).`);
      const all = await tracedCalls(path);
      const judgedAll = [
        ...server.chatRequests().filter((r) => !isWriterPrompt(r.messages)),
        ...server.guardRequests(),
      ];
      expect(all.map((t) => t.userPrompt).sort()).toEqual(judgedAll.map(userPrompt).sort());
      // The file was replaced, not appended to: each call once.
      expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
      expect(all.map((t) => t.id)).toEqual(expect.arrayContaining(paused.map((t) => t.id)));
    } finally {
      await server.close();
    }
  }, 240_000);
});
