/**
 * Drives buildProposalGraph in tests: a ScriptedChatModel answering the writer and judge prompts,
 * a MemorySaver-compiled graph, and small readers for the paused thread (the pending interrupt,
 * the node it waits in, the writer prompts sent). Only the LLM is a test double.
 */
import { Command, MemorySaver } from "@langchain/langgraph";
import type { InterruptMetadata, ReviewDecision } from "../../src/graph/model.js";
import {
  buildProposalGraph,
  PROPOSAL_RECURSION_LIMIT,
  type ProposalGraphOptions,
} from "../../src/graph/proposalGraph.js";
import type { EvaluationContext } from "../../src/graph/state.js";
import { createChatModel, type JudgeModel } from "../../src/llm/chatModel.js";
import { type RecordedCall, type RecordedMessage, ScriptedChatModel } from "../doubles/index.js";
import { type AskedAgain, askedAgain, proposalResponder } from "./helpers.js";

export const RFP =
  "Calder Bay Community Foundation — Climate Resilience Fund 2025. Grants up to $250,000 over 24 months for registered nonprofits in Calder County. Proposals are scored on need (25), approach (35), capacity (20) and budget (20).";
export const APPLICANT =
  "Calder Bay Housing Trust, a registered nonprofit since 2009; retrofit crews flood-proofed 40 homes in 2024.";

export { SECTION_IDS, STAGE_IDS } from "../proposalStages.js";

/** Every call's system prompt says whether the writer or the judge was asked. */
export const isWriterCall = (call: RecordedCall): boolean =>
  (call.messages[0]?.content ?? "").includes("grant writer");

export const lastUser = (call: RecordedCall | RecordedMessage[] | undefined): string => {
  const messages = call === undefined ? [] : Array.isArray(call) ? call : call.messages;
  return messages.at(-1)?.content ?? "";
};

/** The writer prompts sent for one stage (recognised by their task line). */
export function writerPrompts(model: ScriptedChatModel, stageId: string): string[] {
  const task: Record<string, (user: string) => boolean> = {
    research: (u) => u.startsWith("Analyse the request for proposals"),
    solution: (u) => u.startsWith("From the research"),
    connection_pairs: (u) => u.startsWith("Match what the applicant"),
  };
  const title = stageId
    .split("_")
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join(" ");
  const matches = task[stageId] ?? ((u: string) => u.startsWith(`Write the "${title}" section`));
  return model.calls.filter(isWriterCall).map(lastUser).filter(matches);
}

export type Responder = (
  messages: RecordedMessage[],
  callNumber: number,
) => string | Promise<string>;

/**
 * A responder whose judge (or writer) answers can be broken while `fault.active` and repaired by
 * switching it off — the "cause is fixed" of the retry tests.
 */
export function switchableResponder(
  fault: { active: boolean },
  broken: Responder,
  which: "judge" | "writer" = "judge",
  base: Responder = proposalResponder(),
): Responder {
  return (messages, n) => {
    const writer = (messages[0]?.content ?? "").includes("grant writer");
    const targeted = which === "writer" ? writer : !writer;
    return fault.active && targeted ? broken(messages, n) : base(messages, n);
  };
}

export interface ProposalRun {
  model: ScriptedChatModel;
  graph: ReturnType<typeof compileProposalGraph>;
  config: {
    configurable: { thread_id: string };
    context?: EvaluationContext;
    recursionLimit: number;
  };
}

export function compileProposalGraph(options: ProposalGraphOptions) {
  return buildProposalGraph(options).compile({ checkpointer: new MemorySaver() });
}

let threadNumber = 0;

/**
 * A proposal graph on a fresh thread. `judge` wraps the scripted model (e.g. createChatModel with
 * a short timeout and no retries); by default the model is passed as is.
 */
export function proposalRun(
  options: {
    responder?: Responder;
    model?: ScriptedChatModel;
    judge?: (model: ScriptedChatModel) => JudgeModel;
    graph?: Omit<ProposalGraphOptions, "model">;
    context?: Partial<EvaluationContext>;
  } = {},
): ProposalRun {
  const model =
    options.model ?? new ScriptedChatModel({ responder: options.responder ?? proposalResponder() });
  const graph = compileProposalGraph({
    ...options.graph,
    model: options.judge === undefined ? model : options.judge(model),
  });
  threadNumber += 1;
  return {
    model,
    graph,
    config: {
      configurable: { thread_id: `proposal-${threadNumber}` },
      recursionLimit: PROPOSAL_RECURSION_LIMIT,
      ...(options.context === undefined ? {} : { context: options.context }),
    },
  };
}

/** A judge without retries (no back-off waits), with a short timeout when given. */
export function fastJudge(timeoutMs?: number) {
  return (model: ScriptedChatModel): JudgeModel =>
    createChatModel(model, { maxRetries: 0, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
}

export const input = (extra: Record<string, unknown> = {}) => ({
  rfpDocument: RFP,
  applicantInput: APPLICANT,
  ...extra,
});

export interface PendingInterrupt {
  id: string;
  node: string;
  value: InterruptMetadata;
}

/** The interrupt the paused thread waits on (exactly one), or undefined when it is not paused. */
export async function pending(run: ProposalRun): Promise<PendingInterrupt | undefined> {
  const state = await run.graph.getState(run.config);
  const found = state.tasks.flatMap((task) =>
    (task.interrupts ?? []).map((i) => ({
      id: String(i.id),
      node: task.name,
      value: i.value as InterruptMetadata,
    })),
  );
  if (found.length > 1) throw new Error(`expected one pending interrupt, found ${found.length}`);
  return found[0];
}

export async function start(run: ProposalRun, extra: Record<string, unknown> = {}) {
  return run.graph.invoke(input(extra), run.config);
}

export async function resume(run: ProposalRun, decision: ReviewDecision | Record<string, unknown>) {
  return run.graph.invoke(new Command({ resume: decision }), run.config);
}

export async function values(run: ProposalRun) {
  return (await run.graph.getState(run.config)).values;
}

/** Resumes with an answer the review refuses: it asks again; the refusal, as its interrupt says. */
export async function refusedResume(
  run: ProposalRun,
  decision: ReviewDecision | Record<string, unknown>,
): Promise<AskedAgain["refusal"]> {
  return askedAgain(await resume(run, decision)).refusal;
}
