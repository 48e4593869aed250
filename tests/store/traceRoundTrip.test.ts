/**
 * What the judge was sent and what it answered, read back from the trace store beside the
 * checkpoints (SQLite and PostgreSQL): the exact system prompt, user prompt and raw answer of
 * every call, as the model received and gave them; and the same calls as a graph on an in-memory
 * checkpointer keeps inline in its result.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildProposalGraph } from "../../src/graph/proposalGraph.js";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import type { Trace } from "../../src/scoring/result.js";
import { getTraces } from "../../src/store/index.js";
import { CLEAN_GUARD_ANSWER, type RecordedMessage, ScriptedChatModel } from "../doubles/index.js";
import { proposalResponder } from "../graph/helpers.js";
import { type PostgresCluster, startPostgres } from "../service-core/postgresCluster.js";

/** Research with characters a careless store would change, and the answers given, by prompt. */
function recordingModel() {
  const answers = new Map<string, string>();
  const base = proposalResponder(0.8);
  const model = new ScriptedChatModel({
    // The injection guard's answers are recorded too.
    guard: (messages: RecordedMessage[]) => {
      answers.set(JSON.stringify(messages.map((m) => [m.role, m.content])), CLEAN_GUARD_ANSWER);
      return CLEAN_GUARD_ANSWER;
    },
    responder: (messages: RecordedMessage[]) => {
      const user = messages.at(-1)?.content ?? "";
      const answer = user.startsWith("Analyse the request for proposals")
        ? JSON.stringify({
            funder: "Fondation Côte-Bleue 😀 — “résilience” \u2028 naïve",
            priorities: ["flood\r\nresilience", "tabs\tand\\backslashes"],
            eligibility: ["<<<CONTENT id=0123456789ab>>> is only text here"],
            evaluationCriteria: ["need (25)", `${"long criterion text ".repeat(20)}`],
          })
        : base(messages);
      answers.set(JSON.stringify(messages.map((m) => [m.role, m.content])), answer);
      return answer;
    },
  });
  return { model, answers };
}

const RFP_TEXT = "Fondation Côte-Bleue — climate resilience fund, grants up to €200,000.";

/** Each stored trace is a call the model received, with the answer it gave, byte for byte. */
function expectCallsMatch(
  traces: readonly Trace[],
  recorded: ReturnType<typeof recordingModel>,
): void {
  const judgeCalls = [
    ...recorded.model.calls.filter((c) => !(c.messages[0]?.content ?? "").includes("grant writer")),
    ...recorded.model.guardCalls,
  ];
  expect(traces).toHaveLength(judgeCalls.length);
  expect(traces.some((t) => t.userPrompt.includes("😀 — “résilience” \u2028"))).toBe(true);
  for (const trace of traces) {
    const call = judgeCalls.find(
      (c) =>
        c.messages.length === 2 &&
        c.messages[0]?.content === trace.systemPrompt &&
        c.messages[1]?.content === trace.userPrompt,
    );
    expect(call).toBeDefined();
    const key = JSON.stringify(call?.messages.map((m) => [m.role, m.content]));
    expect(recorded.answers.get(key) === trace.rawResponse).toBe(true);
  }
}

async function runToReview(
  where: { sqlitePath: string } | { databaseUrl: string },
  threadId: string,
) {
  const recorded = recordingModel();
  const checkpointer = await createCheckpointer({ ...where, env: {} });
  try {
    const graph = buildProposalGraph({ model: recorded.model }).compile({
      checkpointer: checkpointer.saver,
    });
    await graph.invoke({ rfpDocument: RFP_TEXT }, { configurable: { thread_id: threadId } });
  } finally {
    await checkpointer.close();
  }
  return recorded;
}

let dir = "";
let cluster: PostgresCluster | undefined;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "evalgate-trace-round-trip-"));
  cluster = await startPostgres();
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("traces read back exactly as sent and received", () => {
  it("on SQLite", async () => {
    const sqlitePath = join(dir, "threads.sqlite");
    const recorded = await runToReview({ sqlitePath }, "round-trip-sqlite");
    expectCallsMatch(await getTraces({ threadId: "round-trip-sqlite" }, { sqlitePath }), recorded);
  });

  it("on PostgreSQL", async () => {
    const databaseUrl = cluster?.url ?? "";
    const recorded = await runToReview({ databaseUrl }, "round-trip-postgres");
    const traces = await getTraces({ threadId: "round-trip-postgres" }, { databaseUrl });
    expectCallsMatch(traces, recorded);
  });

  it("a graph on an in-memory checkpointer keeps the same calls inline, as before", async () => {
    const recorded = recordingModel();
    const graph = buildProposalGraph({ model: recorded.model }).compile({
      checkpointer: new MemorySaver(),
    });
    const config = { configurable: { thread_id: "inline" } };
    await graph.invoke({ rfpDocument: RFP_TEXT }, config);
    const evaluation = (await graph.getState(config)).values.researchEvaluation;
    expect(evaluation?.evaluationId).toBeUndefined();
    expectCallsMatch(evaluation?.traces ?? [], recorded);
  });
});
