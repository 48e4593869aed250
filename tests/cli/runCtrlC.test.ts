/**
 * Ctrl-C in `evalgate run` and `evalgate review`, as users press it: the built command in a child
 * process, the Ollama-protocol stand-in holding the solution's writer request (a model that is
 * slow to answer). SIGINT while it is "writing Solution Sought…": a line at once saying the
 * command stops and the thread is saved, the request aborted (the stand-in sees its client go),
 * nothing judged after it, the command to go on printed, exit 130 — and `run --thread <id>` goes
 * on from the last saved step, writing the solution again. Meanwhile `reviews` lists the thread as
 * stopped with work left, never as failed. Counted, not timed.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { isWriterPrompt } from "../devserver/proposalResponder.js";
import type { OllamaServer } from "../doubles/index.js";
import {
  answers,
  evalgate,
  type LiveCli,
  proposalServer,
  SOLUTION_TASK,
  serverEnv,
  startEvalgate,
  threadIdOf,
  userPrompt,
  workFolders,
  writerRequests,
} from "./reviewHarness.js";

const folder = workFolders();
let server: OllamaServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The stand-in, holding every solution writer request until the client gives up. */
async function slowSolutionWriter(): Promise<OllamaServer> {
  return proposalServer((_n, request) =>
    isWriterPrompt(request.messages) && userPrompt(request).startsWith(SOLUTION_TASK)
      ? { hold: "before-response" }
      : {},
  );
}

/** Waits (polling, no deadline of its own) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await sleep(20);
}

/** SIGINT once the solution's writer request waits at the stand-in and the run says so. */
async function interruptWhileWriting(live: LiveCli, at: OllamaServer) {
  await at.waitFor((s) => s.held === 1);
  await until(() => live.stderr().includes("writing Solution Sought"));
  const requests = at.chatRequests().length;
  live.child.kill("SIGINT");
  const run = await live.exited;
  return { run, requests };
}

/** `reviews` lists the thread as stopped with work left (not failed, not finished), and how to go on. */
async function expectListedAsStopped(cwd: string, threadId: string, at: OllamaServer) {
  const listed = await evalgate(["reviews"], { cwd, env: serverEnv(at) });
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toContain("Threads with work left and no review (1):");
  const row = listed.stdout.split("\n").find((line) => line.startsWith(threadId));
  expect(row).toContain("stopped");
  expect(row).toContain(`evalgate run --thread ${threadId}`);
}

describe("Ctrl-C while a thread runs", () => {
  it("run: stops at once, aborts the call under way, prints how to go on, exits 130; run --thread goes on", async () => {
    server = await slowSolutionWriter();
    const cwd = await folder();
    const live = startEvalgate(["run", "rfp.md", "--applicant", "applicant.md"], {
      cwd,
      env: serverEnv(server),
    });
    live.write(answers("a")); // approve the research; the solution is written next
    const { run, requests } = await interruptWhileWriting(live, server);
    const threadId = threadIdOf(run.stdout);

    expect(run.code).toBe(130);
    const stopping = run.stderr.indexOf(
      `Stopping: the model call under way is cancelled; thread ${threadId} is saved at its last finished step`,
    );
    expect(stopping).toBeGreaterThan(run.stderr.indexOf("writing Solution Sought"));
    expect(run.stdout).toContain(`Go on with it later:\n  evalgate run --thread ${threadId}\n`);
    expect(run.stderr).not.toContain("evalgate:");
    // The held request was aborted, and nothing was asked of the model after it.
    expect(server.clientDisconnects).toBe(1);
    expect(server.chatRequests()).toHaveLength(requests);
    expect(writerRequests(server, SOLUTION_TASK)).toHaveLength(1);

    await expectListedAsStopped(cwd, threadId, server);

    server.setBehaviour({});
    const resumed = await evalgate(["run", "--thread", threadId], {
      cwd,
      env: serverEnv(server),
      stdin: answers("q"),
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("running on from there");
    expect(resumed.stdout).toContain("Review: Solution Sought Evaluation Review [solution]");
    // The solution written again, from the step saved before it: the research is not.
    expect(writerRequests(server, SOLUTION_TASK)).toHaveLength(2);
  });

  it("review: the decision's run on to the next stage stops the same way", async () => {
    server = await slowSolutionWriter();
    const cwd = await folder();
    const first = await evalgate(["run", "rfp.md", "--applicant", "applicant.md"], {
      cwd,
      env: serverEnv(server),
      stdin: answers("q"),
    });
    expect(first.code, first.stderr).toBe(0);
    const threadId = threadIdOf(first.stdout);

    const live = startEvalgate(["review", threadId, "approve"], { cwd, env: serverEnv(server) });
    live.end();
    const { run } = await interruptWhileWriting(live, server);
    expect(run.code).toBe(130);
    expect(run.stderr).toContain(
      `Stopping: the model call under way is cancelled; thread ${threadId} is saved`,
    );
    expect(run.stdout).toContain(`Go on with it later:\n  evalgate run --thread ${threadId}\n`);
    expect(server.clientDisconnects).toBe(1);
    await expectListedAsStopped(cwd, threadId, server);
  });
});
