/**
 * The evaluation gate with its judge model down: the checks that need no judge are scored and kept
 * in state, every model-judged criterion is not evaluated, and the reviewer is asked to retry, edit
 * or approve. The model server's error (its address) is for administrators: it stays in the
 * thread's errors and the criterion's judgeError, never in weaknesses, warnings or the message.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ModelUnavailableError } from "../../src/llm/errors.js";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { getTraces } from "../../src/store/index.js";
import { ScriptedChatModel } from "../doubles/index.js";

const SERVER = "http://10.20.30.40:11434";
const CONTENT = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";

const dir = mkdtempSync(join(tmpdir(), "evalgate-judge-down-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One check without a judge (two of its four phrases are in CONTENT) and one judged criterion. */
const catalogPath = join(dir, "statement.json");
writeFileSync(
  catalogPath,
  JSON.stringify({
    id: "statement",
    name: "Statement",
    version: "1.0.0",
    criteria: [
      {
        id: "named_sources",
        title: "Named sources",
        description: "Names the report, the year, the shelters and the survey.",
        weight: 1,
        method: {
          kind: "function",
          name: "contains_all_of",
          args: ["County report", "2024", "shelters", "survey"],
        },
      },
      {
        id: "clarity",
        title: "Clarity",
        description: "Is the problem stated clearly?",
        weight: 1,
        method: { kind: "score", scale: { min: 0, max: 1 } },
      },
    ],
  }),
);

/** A judge whose server refuses every connection, the injection guard's too. */
function refusingJudge() {
  const refused = () =>
    new ModelUnavailableError("connection-refused", `connect ECONNREFUSED ${SERVER}`, {
      provider: "ollama",
      model: "qwen2.5:7b-instruct",
      baseUrl: SERVER,
    });
  const scripted = new ScriptedChatModel({
    responder: () => {
      throw refused();
    },
    guard: () => {
      throw refused();
    },
  });
  return { scripted, model: createChatModel(scripted, { maxRetries: 0 }) };
}

describe("the gate with the judge model down", () => {
  it("keeps the deterministic result in state, each judged criterion not evaluated, at an evaluation_error review", async () => {
    const { scripted, model } = refusingJudge();
    const checkpointer = await createCheckpointer({ sqlitePath: join(dir, "threads.sqlite") });
    try {
      const graph = buildEvaluationGraph({ model, criteriaPath: catalogPath }).compile({
        checkpointer: checkpointer.saver,
      });
      const config = { configurable: { thread_id: "judge-down" } };
      const out = await graph.invoke({ content: CONTENT, contentType: "statement" }, config);
      expect(scripted.calls).toHaveLength(1); // the one judged criterion, not retried

      const evaluation = out.evaluation;
      const byId = new Map(evaluation?.criteria.map((c) => [c.id, c]));
      // contains_all_of: "County report" and "2024" are there, "shelters" and "survey" not: 2/4.
      expect(byId.get("named_sources")).toMatchObject({ evaluated: true, score: 0.5, met: false });
      expect(byId.get("clarity")).toMatchObject({ evaluated: false, score: null, met: null });
      expect(byId.get("clarity")?.judgeError).toContain(SERVER);
      expect(evaluation?.notEvaluated).toEqual(["clarity"]);
      // Only the evaluated weight counts: the overall score is the check's 0.5.
      expect(evaluation?.overallScore).toBe(0.5);
      expect(evaluation?.passed).toBe(false);
      expect(out.status).toBe("error");

      // Stored as a successful evaluation's: traces in the store, their ids in state.
      expect(evaluation?.traces).toEqual([]);
      const traces = await getTraces(
        { evaluationId: evaluation?.evaluationId ?? "" },
        {
          sqlitePath: join(dir, "threads.sqlite"),
        },
      );
      expect(traces.map((t) => t.id)).toEqual(evaluation?.traceIds);
      expect(traces.some((t) => t.error?.includes(SERVER))).toBe(true);

      const paused = (out as { __interrupt__?: Array<{ value: Record<string, unknown> }> })
        .__interrupt__?.[0]?.value;
      expect(paused).toMatchObject({
        type: "evaluation_error",
        actions: ["retry", "edit", "approve"],
        evaluationRef: { field: "evaluation", overallScore: 0.5, passed: false },
      });
      // The administrators' error names the server; what reviewers and the writer read does not.
      expect(String(paused?.error)).toContain(SERVER);
      expect(out.errors.join("\n")).toContain(SERVER);
      expect(evaluation?.weaknesses).toContain("Clarity: could not be evaluated");
      expect(evaluation?.humanReviewReasons).toEqual([
        "the injection guard could not check the content (MODEL_UNAVAILABLE)",
      ]);
      const readByReviewers = [
        String(paused?.description),
        ...(evaluation?.weaknesses ?? []),
        ...(evaluation?.warnings ?? []),
        ...(evaluation?.humanReviewReasons ?? []),
        ...(evaluation?.suggestions ?? []),
        ...(await graph.getState(config)).values.messages.map((m: { text: string }) => m.text),
      ];
      expect(readByReviewers.filter((text) => /10\.20\.30\.40|ECONNREFUSED/.test(text))).toEqual(
        [],
      );
      expect(String(paused?.description)).toContain("| Named sources | 0.50 | 0.70 | no |");
      expect(String(paused?.description)).toContain("| Clarity | — | 0.70 | not evaluated |");
    } finally {
      await checkpointer.close();
    }
  });
});
