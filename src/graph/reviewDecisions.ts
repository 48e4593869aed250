import { AIMessage } from "@langchain/core/messages";
import { Command, END } from "@langchain/langgraph";
import type { RecordedCorrection } from "../scoring/corrections.js";
import type { EvaluationResult } from "../scoring/result.js";
import { readUntrustedJson } from "../untrusted/json.js";
import {
  ACCEPTED_STATUSES,
  type DecisionRecord,
  DecisionRecordSchema,
  type InterruptMetadata,
  type ProcessingStatus,
  type ReviewDecision,
} from "./model.js";
import { type DependencyMap, transitiveDependents } from "./proposalConfig.js";
import { readStructuredEdit } from "./reviewInput.js";
import type { StageDefinition } from "./stages.js";
import type { OverallProposalStateType, ProposalUpdate } from "./state.js";
import {
  mergeStateUpdates,
  parseStatePath,
  readStatePath,
  type StatePath,
  statePathUpdate,
} from "./statePath.js";
import { structuredContentOf } from "./structuredContent.js";

/** Statuses this decision gives stages, so the next one can be chosen before the update lands. */
export type StatusOverrides = Readonly<Record<string, ProcessingStatus>>;

export type NextNode = (state: OverallProposalStateType, overrides: StatusOverrides) => string;

export interface ReviewNodeOptions {
  stage: StageDefinition;
  stages: readonly StageDefinition[];
  dependencies?: DependencyMap;
  /** The generator a revision returns to; without one, a revision ends the run. */
  generateNode?: string;
  evaluateNode: string;
  reviewNode: string;
  next: NextNode;
  maxRevisions?: number;
}

export function stageStatus(
  state: OverallProposalStateType,
  stage: StageDefinition,
): ProcessingStatus {
  const value = readStatePath(state, parseStatePath(stage.statusField));
  return typeof value === "string" ? (value as ProcessingStatus) : "not_started";
}

/** The stage's evaluation in the state, null when there is none. */
export function stageEvaluation(
  state: OverallProposalStateType,
  stage: StageDefinition,
): EvaluationResult | null {
  const value = readStatePath(state, parseStatePath(stage.resultField));
  return value === undefined || value === null ? null : (value as EvaluationResult);
}

type ContentKind = NonNullable<StageDefinition["contentKind"]>;

/** The stage's content in the state (text, an object or a list), undefined when none. */
export function stageContent(state: OverallProposalStateType, stage: StageDefinition): unknown {
  return readStatePath(state, parseStatePath(stage.contentPath));
}

/** The shape of a content value: a list, an object, or text. */
export function kindOf(current: unknown): ContentKind {
  if (Array.isArray(current)) return "list";
  if (typeof current === "object" && current !== null) return "object";
  return "text";
}

/** An edit in the content's shape: text as is; JSON when it fits, otherwise wrapped as `{ text }`. */
export function editedValue(current: unknown, content: string, kind?: ContentKind): unknown {
  const shape = kind ?? kindOf(current);
  if (shape === "text") return content;
  // Prototype-poisoning protection: JSON with a `__proto__` key is kept as text below.
  const read = readUntrustedJson(content);
  if (read.ok) {
    if (shape === "list" && Array.isArray(read.value)) return read.value;
    if (shape === "object" && kindOf(read.value) === "object") return read.value;
  }
  return shape === "list" ? [{ text: content }] : { text: content };
}

/** The content an edit stores: a structured stage's by the edit rule, any other as editedValue. */
function editedContent(stage: StageDefinition, current: unknown, content: string): unknown {
  const type = structuredContentOf(stage);
  if (type !== undefined) {
    const read = readStructuredEdit(stage, type, content, current);
    if (read.ok) return read.value;
  }
  return editedValue(current, content, stage.contentKind);
}

interface ReviewDecisionContext {
  options: ReviewNodeOptions;
  state: OverallProposalStateType;
  metadata: InterruptMetadata;
  decision: ReviewDecision;
  evaluation: EvaluationResult | null;
  corrections: RecordedCorrection[];
  statusPath: StatePath;
  contentPath: StatePath;
  maxRevisions: number;
}

function record(ctx: ReviewDecisionContext, staled: string[] = []): DecisionRecord {
  const { decision, evaluation } = ctx;
  const { stage } = ctx.options;
  const kept: DecisionRecord = {
    contentId: stage.id,
    contentType: stage.contentType,
    action: decision.action,
    reviewer: decision.reviewer,
    comment: decision.comment,
    feedback: decision.action === "revise" ? decision.feedback : undefined,
    decidedAt: new Date().toISOString(),
    evaluation:
      evaluation === null ? null : DecisionRecordSchema.shape.evaluation.parse(evaluation),
    staled,
  };
  if (ctx.corrections.length > 0) kept.corrections = ctx.corrections;
  return kept;
}

const cleared: ProposalUpdate = { isInterrupted: false, interruptMetadata: null };

function who(decision: ReviewDecision): string {
  return decision.reviewer === undefined ? "" : ` by ${decision.reviewer}`;
}

/** approve → approved, on to the next stage. */
function approve(ctx: ReviewDecisionContext): Command {
  const { options, state, decision } = ctx;
  const { stage } = options;
  const update = mergeStateUpdates(statePathUpdate(ctx.statusPath, "approved"), cleared, {
    reviewHistory: [record(ctx)],
    messages: [new AIMessage(`${stage.title} approved${who(decision)}.`)],
  });
  return new Command({ update, goto: options.next(state, { [stage.id]: "approved" }) });
}

/** retry → generate again after a failed generation, evaluate again after anything else. */
function retry(ctx: ReviewDecisionContext): Command {
  const { options, decision } = ctx;
  const { stage } = options;
  const regenerate = ctx.metadata.type === "generation_error";
  const update = mergeStateUpdates(
    statePathUpdate(ctx.statusPath, regenerate ? "running" : "evaluating"),
    cleared,
    {
      reviewHistory: [record(ctx)],
      messages: [
        new AIMessage(
          `${stage.title}: ${regenerate ? "generating" : "evaluating"} again${who(decision)}.`,
        ),
      ],
    },
  );
  const goto =
    regenerate && options.generateNode !== undefined ? options.generateNode : options.evaluateNode;
  return new Command({ update, goto });
}

/** revise past the limit → the review again, now offering approve, edit or retry. */
function escalate(ctx: ReviewDecisionContext, count: number): Command {
  const { options } = ctx;
  const { stage } = options;
  const max = ctx.maxRevisions;
  const escalated: InterruptMetadata = {
    ...ctx.metadata,
    type: "revision_limit",
    actions: ["approve", "edit", "retry"],
    title: `${stage.title}: Revision Limit Reached`,
    description: `The ${stage.title} was revised ${count} time${count === 1 ? "" : "s"} (the maximum is ${max}). Approve it, edit it yourself, or evaluate again.`,
    revisions: { count, max },
  };
  const update = mergeStateUpdates(statePathUpdate(ctx.statusPath, "awaiting_review"), {
    isInterrupted: true,
    interruptMetadata: escalated,
    reviewHistory: [record(ctx)],
    messages: [new AIMessage(escalated.description)],
  });
  return new Command({ update, goto: options.reviewNode });
}

/** revise → revision_requested, back to the generator with the feedback. */
function revise(ctx: ReviewDecisionContext, feedback: string): Command {
  const { options, state, decision } = ctx;
  const { stage } = options;
  const count = state.revisionCounts[stage.id] ?? 0;
  if (options.generateNode !== undefined && count >= ctx.maxRevisions) return escalate(ctx, count);
  const update = mergeStateUpdates(statePathUpdate(ctx.statusPath, "revision_requested"), cleared, {
    revisionCounts: { [stage.id]: count + 1 },
    revisionFeedback: { [stage.id]: feedback },
    reviewHistory: [record(ctx)],
    messages: [new AIMessage(`${stage.title}: revision requested${who(decision)}: ${feedback}`)],
  });
  return new Command({ update, goto: options.generateNode ?? END });
}

/** edit → the content replaced and edited; every accepted dependent (transitively) stale. */
function edit(ctx: ReviewDecisionContext, content: string): Command {
  const { options, state, decision } = ctx;
  const { stage } = options;
  const dependents = transitiveDependents(options.dependencies ?? { dependents: {} }, stage.id);
  const staled = options.stages.filter(
    (s) => dependents.includes(s.id) && ACCEPTED_STATUSES.has(stageStatus(state, s)),
  );
  const current = readStatePath(state, ctx.contentPath);
  const overrides: Record<string, ProcessingStatus> = { [stage.id]: "edited" };
  for (const s of staled) overrides[s.id] = "stale";
  const stale =
    staled.length === 0
      ? ""
      : ` Marked stale for regeneration: ${staled.map((s) => s.title).join(", ")}.`;
  const update = mergeStateUpdates(
    statePathUpdate(ctx.contentPath, editedContent(stage, current, content)),
    statePathUpdate(ctx.statusPath, "edited"),
    ...staled.map((s) => statePathUpdate(parseStatePath(s.statusField), "stale")),
    cleared,
    {
      reviewHistory: [
        record(
          ctx,
          staled.map((s) => s.id),
        ),
      ],
      messages: [new AIMessage(`${stage.title} edited${who(decision)}.${stale}`)],
    },
  );
  return new Command({ update, goto: options.next(state, overrides) });
}

export function decide(ctx: ReviewDecisionContext): Command {
  const { decision } = ctx;
  switch (decision.action) {
    case "approve":
      return approve(ctx);
    case "retry":
      return retry(ctx);
    case "revise":
      return revise(ctx, decision.feedback);
    case "edit":
      return edit(ctx, decision.content);
  }
}
