import { Command } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import type { ProcessingStatus } from "../../src/graph/model.js";
import {
  fastJudge,
  input,
  type ProposalRun,
  pending,
  proposalRun,
  switchableResponder,
  values,
} from "./proposalHarness.js";

const TOP_LEVEL_STATUS: Record<string, string> = {
  researchStatus: "research",
  solutionSoughtStatus: "solution",
  connectionPairsStatus: "connection_pairs",
};

type Seen = Array<{ id: string; status: string; via: "custom" | "update" | "values" }>;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** Every status a stage passed through, from custom events and from node updates, in order. */
function statusesIn(chunk: unknown, seen: Seen): void {
  if (!Array.isArray(chunk)) return;
  const [mode, payload] = chunk as [string, unknown];
  if (mode === "custom" && isRecord(payload) && payload.type === "status") {
    seen.push({ id: String(payload.contentId), status: String(payload.status), via: "custom" });
    return;
  }
  if (mode === "values" && isRecord(payload) && seen.length === 0) {
    // The first snapshot: the input with the state's defaults.
    for (const [field, id] of Object.entries(TOP_LEVEL_STATUS)) {
      if (typeof payload[field] === "string")
        seen.push({ id, status: payload[field], via: "values" });
    }
    return;
  }
  if (mode !== "updates" || !isRecord(payload)) return;
  for (const [node, update] of Object.entries(payload)) {
    if (node === "__interrupt__" || !isRecord(update)) continue;
    for (const [field, id] of Object.entries(TOP_LEVEL_STATUS)) {
      if (typeof update[field] === "string")
        seen.push({ id, status: update[field], via: "update" });
    }
    if (isRecord(update.sections)) {
      for (const [id, patch] of Object.entries(update.sections)) {
        if (isRecord(patch) && typeof patch.status === "string") {
          seen.push({ id, status: patch.status, via: "update" });
        }
      }
    }
  }
}

async function streamed(run: ProposalRun, value: unknown, withValues = false): Promise<Seen> {
  const seen: Seen = [];
  const stream = await run.graph.stream(value as never, {
    ...run.config,
    streamMode: withValues ? ["values", "custom", "updates"] : ["custom", "updates"],
  });
  for await (const chunk of stream) statusesIn(chunk, seen);
  return seen;
}

/**
 * The statuses a stage went through: those written to the state, and `running`, which the
 * generator announces on the stream while it writes (the `evaluating` event repeats the state's).
 */
const of = (seen: Seen, id: string) =>
  seen
    .filter((s) => s.id === id && !(s.via === "custom" && s.status === "evaluating"))
    .map((s) => s.status);
/** The status events of the stream alone. */
const announced = (seen: Seen, id: string) =>
  seen.filter((s) => s.id === id && s.via === "custom").map((s) => s.status);

describe("status transitions of a stage", () => {
  it("not_started → running → completed → evaluating → awaiting_review → revision_requested / edited / stale / error / approved", async () => {
    const fault = { active: false };
    const run = proposalRun({
      responder: switchableResponder(fault, () => "I cannot comply."),
      judge: fastJudge(),
    });
    // The solution was approved earlier: research comes first and solution depends on it.
    const initial = input({
      solutionSoughtResults: { problem: "flood risk", desiredOutcomes: ["fewer evictions"] },
      solutionSoughtStatus: "approved",
    });

    const first = await streamed(run, initial, true);
    expect(of(first, "research")).toEqual([
      "not_started",
      "running",
      "completed",
      "evaluating",
      "awaiting_review",
    ]);
    // All but `running` were written to the state; `evaluating` is also announced on the stream.
    expect(first.filter((s) => s.id === "research").map((s) => s.via)).toEqual([
      "values",
      "custom",
      "update",
      "update",
      "custom",
      "update",
    ]);
    expect(announced(first, "research")).toEqual(["running", "evaluating"]);
    let state = await values(run);
    expect(state.researchStatus).toBe("awaiting_review");
    expect(state.connectionPairsStatus).toBe("not_started"); // the state's default
    expect(state.sections.conclusion).toBeUndefined();
    expect(of(first, "solution")).toEqual(["approved"]); // the input, untouched

    const revised = await streamed(
      run,
      new Command({ resume: { action: "revise", feedback: "Quote the eligibility rules." } }),
    );
    expect(of(revised, "research")).toEqual([
      "revision_requested",
      "running",
      "completed",
      "evaluating",
      "awaiting_review",
    ]);
    expect((await values(run)).researchStatus).toBe("awaiting_review");

    // The solution's judge will fail: its evaluation ends in error.
    fault.active = true;
    const edited = await streamed(
      run,
      new Command({ resume: { action: "edit", content: '{"funder": "Calder Bay CF"}' } }),
    );
    expect(of(edited, "research")).toEqual(["edited"]);
    expect(of(edited, "solution")).toEqual([
      "stale",
      "running",
      "completed",
      "evaluating",
      "error",
    ]);
    state = await values(run);
    expect(state.researchStatus).toBe("edited");
    expect(state.researchResults).toMatchObject({
      funder: "Calder Bay CF",
      priorities: ["climate resilience"],
    });
    expect(state.solutionSoughtStatus).toBe("error");
    expect((await pending(run))?.value.type).toBe("evaluation_error");

    fault.active = false;
    const retried = await streamed(run, new Command({ resume: { action: "retry" } }));
    expect(of(retried, "solution")).toEqual(["evaluating", "evaluating", "awaiting_review"]);
    expect((await values(run)).solutionSoughtStatus).toBe("awaiting_review");

    const approved = await streamed(run, new Command({ resume: { action: "approve" } }));
    expect(of(approved, "solution")).toEqual(["approved"]);
    expect(of(approved, "connection_pairs")).toEqual([
      "running",
      "completed",
      "evaluating",
      "awaiting_review",
    ]);
    state = await values(run);
    expect(state.solutionSoughtStatus).toBe("approved");
    expect(state.researchStatus).toBe("edited");
  });

  it("every status written to the state is a known ProcessingStatus", async () => {
    const run = proposalRun();
    const seen = await streamed(run, input());
    const known: readonly ProcessingStatus[] = [
      "not_started",
      "running",
      "completed",
      "evaluating",
      "awaiting_review",
      "approved",
      "revision_requested",
      "edited",
      "stale",
      "error",
    ];
    expect(seen.length).toBeGreaterThan(0);
    for (const s of seen) expect(known).toContain(s.status);
  });
});
