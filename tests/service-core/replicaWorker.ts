/**
 * One replica of the review desk in its own process, for the replica and crash tests; run with
 * `node --import tsx tests/service-core/replicaWorker.ts <sqlite file | postgres URL> [--no-jobs]`.
 *
 * It opens the desk (jobs running in this process unless --no-jobs) and prints `ready`, then
 * answers one JSON request per stdin line with one JSON line on stdout:
 *   {"id":1,"op":"start","by":{...},"rfp":"…"}          → {"id":1,"ok":{"threadId":…}}
 *   {"id":2,"op":"decide","by":{...},"threadId":…,"request":{…}} → {"id":2,"ok":{"decisionId":…}}
 * A refusal answers {"id":…,"error":{"code":…,"details":…}}. The writer and judge model is
 * ollama:<EVALGATE_MODEL> at OLLAMA_BASE_URL (the test's Ollama-protocol server).
 */
import { createInterface } from "node:readline";
import { z } from "zod";
import { createReviewDesk } from "../../src/desk/createReviewDesk.js";
import { DecisionRequestSchema } from "../../src/desk/requests.js";
import type { ReviewDesk } from "../../src/desk/reviewDesk.js";
import { isEvalgateError } from "../../src/errors.js";
import { ReviewerSchema } from "../../src/store/reviewers.js";

const RequestSchema = z.discriminatedUnion("op", [
  z.object({ id: z.number(), op: z.literal("start"), by: ReviewerSchema, rfp: z.string() }),
  z.object({
    id: z.number(),
    op: z.literal("decide"),
    by: ReviewerSchema,
    threadId: z.string(),
    request: DecisionRequestSchema,
  }),
]);

async function answer(desk: ReviewDesk, line: string): Promise<string> {
  const request = RequestSchema.parse(JSON.parse(line));
  try {
    const ok =
      request.op === "start"
        ? await desk.startProposal({ rfp: request.rfp, applicant: "A tenants' union." }, request.by)
        : await desk.decide(request.threadId, request.request, request.by);
    return JSON.stringify({ id: request.id, ok });
  } catch (error) {
    if (!isEvalgateError(error)) throw error;
    const details = (error as { details?: unknown }).details;
    return JSON.stringify({ id: request.id, error: { code: error.code, details } });
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const [database, flag] = argv;
  if (database === undefined) throw new Error("usage: replicaWorker.ts <sqlite file | url>");
  const postgres = /^postgres(ql)?:/.test(database);
  const desk = await createReviewDesk({
    ...(postgres ? { databaseUrl: database } : { sqlitePath: database }),
    env: process.env,
    model: `ollama:${process.env.EVALGATE_MODEL ?? ""}`,
    jobs: { run: flag !== "--no-jobs", recoveryIntervalMs: 500 },
  });
  process.stdout.write("ready\n");
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line.trim() === "") continue;
    void answer(desk, line).then((reply) => process.stdout.write(`${reply}\n`));
  }
  await desk.close();
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
