/**
 * Ctrl-C in `evalgate run` and `evalgate review`, as users press it: the built command in a child
 * process, the Ollama-protocol stand-in holding the solution's writer request (a model that is
 * slow to answer). SIGINT while it is "writing Solution Sought…": a line at once saying the
 * command stops and the thread is saved, the request aborted (the stand-in sees its client go),
 * nothing judged after it, the command to go on printed, exit 130 — and `run --thread <id>` goes
 * on from the last saved step, writing the solution again. Meanwhile the index says the thread was
 * stopped (never "being worked on", never failed), with the command to go on, and `reviews` lists it
 * so. Counted, not timed.
 */
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { openReviewStore } from "../../src/store/index.js";
import { isWriterPrompt } from "../devserver/proposalResponder.js";
import type { OllamaServer } from "../doubles/index.js";
import {
  answers,
  DB,
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

/** The thread's row in the index and its last event. */
async function indexed(cwd: string, threadId: string) {
  const store = await openReviewStore({ sqlitePath: join(cwd, DB), env: {} });
  try {
    const events = await store.eventsAfter(threadId, 0, 500);
    return { status: (await store.thread(threadId))?.status, last: events.at(-1) };
  } finally {
    await store.close();
  }
}

/**
 * The index says the run was stopped and how to go on (not "being worked on", not failed), and
 * `reviews` lists the thread so, with that command.
 */
async function expectListedAsStopped(cwd: string, threadId: string, at: OllamaServer) {
  const { status, last } = await indexed(cwd, threadId);
  expect(status).toBe("stopped");
  expect(last).toMatchObject({
    type: "stopped",
    message: `the command running it was stopped; go on with: evalgate run --thread ${threadId}`,
  });
  const listed = await evalgate(["reviews"], { cwd, env: serverEnv(at) });
  expect(listed.code, listed.stderr).toBe(0);
  expect(listed.stdout).toContain("Threads with work left and no review (1):");
  const row = listed.stdout.split("\n").find((line) => line.startsWith(threadId));
  expect(row).toContain("stopped before it was done; go on with it to finish");
  expect(row).not.toContain("being worked on");
  expect(row).toContain(`evalgate run --thread ${threadId}`);
  const json = await evalgate(["reviews", "--json"], { cwd, env: serverEnv(at) });
  const parsed = JSON.parse(json.stdout) as { workLeft: Array<Record<string, unknown>> };
  expect(parsed.workLeft).toMatchObject([
    { threadId, state: "stopped", goOnWith: `evalgate run --thread ${threadId}` },
  ]);
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
    // Gone on with, it waits for the solution's review, and is listed as stopped no more.
    expect((await indexed(cwd, threadId)).status).toBe("waiting");
    const listed = await evalgate(["reviews"], { cwd, env: serverEnv(server) });
    expect(listed.stdout).not.toContain("Threads with work left");
    expect(listed.stdout.split("\n").find((line) => line.startsWith(threadId))).toContain(
      "solution",
    );
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
