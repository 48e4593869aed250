/**
 * The curl commands of docs/api.md run as written against a real `evalgate serve` instance (the
 * service over the real review desk on a socket of 127.0.0.1, the Ollama-protocol stand-in as the
 * model): only the doc's host and port are replaced, and $TOKEN, $ADMIN_TOKEN, $THREAD and
 * $INTERRUPT are set as a user's shell would have them. Each command's HTTP status is the one the
 * doc states for that situation.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startService } from "../../src/service/server.js";
import { eventually, openRealDesk, type RealDesk } from "../service/realDesk.js";
import { fencedSamples } from "./docSamples.js";

const root = join(import.meta.dirname, "../..");
const DOC_ORIGIN = "http://127.0.0.1:8080";

/** The curl commands of a Markdown text's sh blocks, continuation lines joined, comments left out. */
function curlCommands(markdown: string): string[] {
  return fencedSamples("api.md", markdown)
    .filter((sample) => sample.language === "sh")
    .flatMap((sample) => sample.text.replace(/\s*\\\n\s*/g, " ").split("\n"))
    .map((line) => line.trim())
    .filter((line) => line.startsWith("curl "));
}

/**
 * Runs one command in bash (asynchronously: the service answers from this process), printing the
 * status last; a `-N` stream is cut after its first seconds.
 */
async function runCurl(command: string, origin: string, env: Record<string, string>, cwd: string) {
  const streaming = / -N /.test(command);
  const shown = `${command.replaceAll(DOC_ORIGIN, origin)} -w '\\n%{http_code}'${streaming ? " --max-time 2" : ""}`;
  const run = await promisify(execFile)("bash", ["-c", shown], {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const lines = run.stdout.trimEnd().split("\n");
  return { status: Number(lines.at(-1)), body: lines.slice(0, -1).join("\n") };
}

interface ProposalSample {
  title: string;
  sections: Array<{ title: string }>;
  inputs: Array<{ title: string }>;
}

/** The JSON sample of docs/api.md that contains `marker`, parsed ("…" stands in as a string). */
function jsonSample(marker: string): unknown {
  const samples = fencedSamples("api.md", readFileSync(join(root, "docs/api.md"), "utf8"));
  const sample = samples.find((s) => s.language === "json" && s.text.includes(marker));
  if (sample === undefined) throw new Error(`docs/api.md has no JSON sample with ${marker}`);
  return JSON.parse(sample.text);
}

describe("curlCommands", () => {
  it("joins continued lines, keeps only curl lines, and reads every sh block", () => {
    const markdown =
      "```sh\n# a comment\ncurl -s -X POST http://x \\\n  -H 'A: b' \\\n  -d '{}'\nnpx evalgate serve\n```\n\n```json\n{}\n```\n```sh\ncurl -N http://y\n```";
    expect(curlCommands(markdown)).toEqual([
      "curl -s -X POST http://x -H 'A: b' -d '{}'",
      "curl -N http://y",
    ]);
  });
});

describe("docs/api.md's curl commands against a running service", () => {
  let real: RealDesk;
  let service: Awaited<ReturnType<typeof startService>>;
  const cwd = mkdtempSync(join(tmpdir(), "evalgate-api-curl-"));
  const env: Record<string, string> = {};
  beforeAll(async () => {
    cpSync(join(root, "data"), join(cwd, "data"), { recursive: true });
    real = await openRealDesk();
    env.TOKEN = await real.addReviewer("ada", "admin");
    env.ADMIN_TOKEN = env.TOKEN;
    await real.addReviewer("grace");
    service = await startService({
      desk: real.desk,
      host: "127.0.0.1",
      port: 0,
      logError: () => {},
    });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await real?.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  async function pendingInterrupt(notThis?: string): Promise<string> {
    return eventually("the thread's next review", async () => {
      const answer = await fetch(`${service.url}/api/reviews/${env.THREAD}`, {
        headers: { authorization: `Bearer ${env.TOKEN}` },
      });
      if (answer.status !== 200) return undefined;
      const review = (await answer.json()) as { interruptId: string };
      return review.interruptId === notThis ? undefined : review.interruptId;
    });
  }

  it("answers each with the status the doc states", async () => {
    const commands = curlCommands(readFileSync(join(root, "docs/api.md"), "utf8"));
    expect(commands).toHaveLength(9);
    const run = (index: number) => runCurl(commands[index] ?? "", service.url, env, cwd);

    const created = await run(0); // POST /api/proposals → 202 { threadId }
    expect(created.status).toBe(202);
    env.THREAD = (JSON.parse(created.body) as { threadId: string }).threadId;
    expect((await run(1)).status).toBe(200); // assign grace → 200
    env.INTERRUPT = await pendingInterrupt();
    const listed = await run(2); // GET /api/reviews → 200, the thread's review in it
    expect(listed.status).toBe(200);
    expect(listed.body).toContain(env.THREAD);
    // The doc's sample answer names the proposal as the service does.
    const queueSample = jsonSample('"nextCursor"') as { items: Array<{ title: string }> };
    const queue = JSON.parse(listed.body) as { items: Array<{ threadId: string; title: string }> };
    const item = queue.items.find((i) => i.threadId === env.THREAD);
    expect(item?.title).toBe(queueSample.items[0]?.title);
    expect((await run(3)).status).toBe(202); // revise → 202
    expect((await run(4)).status).toBe(409); // the same review again (the edit): ALREADY_DECIDED
    env.INTERRUPT = await pendingInterrupt(env.INTERRUPT);
    expect((await run(5)).status).toBe(202); // approve with a correction of award_parameters → 202
    expect((await run(6)).status).toBe(200); // the proposal as Markdown
    // The doc's sample of the proposal as JSON: the title and the section titles the service gives.
    const proposalSample = jsonSample('"sections"') as ProposalSample;
    const proposal = (await (
      await fetch(`${service.url}/api/threads/${env.THREAD}/proposal`, {
        headers: { authorization: `Bearer ${env.TOKEN}` },
      })
    ).json()) as ProposalSample;
    expect(proposal.title).toBe(proposalSample.title);
    expect(proposal.sections[0]?.title).toBe(proposalSample.sections[0]?.title);
    expect(proposal.inputs[0]?.title).toBe(proposalSample.inputs[0]?.title);
    expect(readFileSync(join(cwd, "proposal.md"), "utf8")).toContain("#");
    expect((await run(7)).status).toBe(409); // retry of a thread that has not failed: THREAD_NOT_FAILED
    expect((await run(8)).status).toBe(200); // the event stream
  });
});
