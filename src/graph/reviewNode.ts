import { AIMessage } from "@langchain/core/messages";
import { Command, END, interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { EvaluationResult } from "../scoring/result.js";
import { type DependencyMap, transitiveDependents } from "./dependencies.js";
import {
  ACCEPTED_STATUSES,
  type DecisionRecord,
  type InterruptMetadata,
  InterruptMetadataSchema,
  type ProcessingStatus,
  type ReviewAction,
  type ReviewDecision,
  ReviewDecisionSchema,
} from "./model.js";
import type { StageDefinition } from "./stages.js";
import {
  EvaluationContextSchema,
  type OverallProposalStateType,
  type ProposalUpdate,
} from "./state.js";
import { mergeStateUpdates, parseStatePath, readStatePath, statePathUpdate } from "./statePath.js";

export const DEFAULT_MAX_REVISIONS = 3;

/** Statuses this decision gives stages, so the next stage can be chosen before the update lands. */
export type StatusOverrides = Readonly<Record<string, ProcessingStatus>>;

/** Picks the node to continue to after a stage was approved or edited (END when none is left). */
export type NextNode = (state: OverallProposalStateType, overrides: StatusOverrides) => string;

export interface ReviewNodeOptions {
  stage: StageDefinition;
  /** Every stage of the graph, for stale marking. */
  stages: readonly StageDefinition[];
  /** Direct dependents per stage id (config/dependencies.json). */
  dependencies?: DependencyMap;
  /** The generator a revision returns to; without one, a revision ends the run. */
  generateNode?: string;
  /** The node a retry goes back to. */
  evaluateNode: string;
  /** This review node's own name, for escalation. */
  reviewNode: string;
  next: NextNode;
  maxRevisions?: number;
}

/** The stage's status as the state has it. */
export function stageStatus(
  state: OverallProposalStateType,
  stage: StageDefinition,
): ProcessingStatus {
  const value = readStatePath(state, parseStatePath(stage.statusField));
  return typeof value === "string" ? (value as ProcessingStatus) : "not_started";
}

function stageEvaluation(
  state: OverallProposalStateType,
  stage: StageDefinition,
): EvaluationResult | null {
  const value = readStatePath(state, parseStatePath(stage.resultField));
  return value === undefined || value === null ? null : (value as EvaluationResult);
}

/** What the reviewer sees: the metadata the evaluate node left, or one built from the state. */
function metadataFor(state: OverallProposalStateType, stage: StageDefinition): InterruptMetadata {
  const current = InterruptMetadataSchema.safeParse(state.interruptMetadata);
  if (current.success && current.data.contentId === stage.id) return current.data;
  return {
    type: "evaluation_review",
    contentType: stage.contentType,
    contentId: stage.id,
    evaluation: stageEvaluation(state, stage),
    actions: ["approve", "revise", "edit"],
    title: `${stage.title} Evaluation Review`,
    description: `Review the evaluation of the ${stage.title}.`,
  };
}

type ContentKind = NonNullable<StageDefinition["contentKind"]>;

function kindOf(current: unknown): ContentKind {
  if (Array.isArray(current)) return "list";
  if (typeof current === "object" && current !== null) return "object";
  return "text";
}

/**
 * A reviewer's edit in the content's shape (the stage's `contentKind`, else the current content's):
 * text as is; an object or a list read as JSON when it is one, otherwise wrapped as `{ text }`.
 */
export function editedValue(current: unknown, content: string, kind?: ContentKind): unknown {
  const shape = kind ?? kindOf(current);
  if (shape === "text") return content;
  try {
    const parsed: unknown = JSON.parse(content);
    if (shape === "list" && Array.isArray(parsed)) return parsed;
    if (shape === "object" && kindOf(parsed) === "object") return parsed;
  } catch {
    // Not JSON: kept as text below.
  }
  return shape === "list" ? [{ text: content }] : { text: content };
}

function record(
  stage: StageDefinition,
  decision: ReviewDecision,
  evaluation: EvaluationResult | null,
  staled: string[] = [],
): DecisionRecord {
  return {
    contentId: stage.id,
    contentType: stage.contentType,
    action: decision.action,
    reviewer: decision.reviewer,
    comment: decision.comment,
    feedback: decision.action === "revise" ? decision.feedback : undefined,
    decidedAt: new Date().toISOString(),
    evaluation:
      evaluation === null
        ? null
        : {
            timestamp: evaluation.timestamp,
            overallScore: evaluation.overallScore,
            passed: evaluation.passed,
            verdict: evaluation.verdict,
            status: evaluation.status,
          },
    staled,
  };
}

const cleared: ProposalUpdate = { isInterrupted: false, interruptMetadata: null };

/**
 * Why the review refuses this action, or undefined when it accepts it. A review accepts only the
 * actions it offers (a retry where none is offered is refused, and nothing is judged again); after
 * the revision limit no revise, and after a failed generation no approve (nothing was written).
 */
export function refusedAction(
  review: Pick<InterruptMetadata, "type" | "actions">,
  action: ReviewAction,
): string | undefined {
  if (review.type === "revision_limit" && action === "revise") {
    return "the revision limit is reached: approve, edit or retry";
  }
  if (review.type === "generation_error" && action === "approve") {
    return "nothing was written to approve: retry the generation or edit the content";
  }
  if (!review.actions.includes(action)) {
    return `this review offers ${review.actions.join(", ")}, not ${action}`;
  }
  return undefined;
}

/** What the reviewer may answer to this pause (see refusedAction). */
function decisionSchema(metadata: InterruptMetadata) {
  return ReviewDecisionSchema.superRefine((decision, ctx) => {
    const refusal = refusedAction(metadata, decision.action);
    if (refusal !== undefined) ctx.addIssue({ code: "custom", path: ["action"], message: refusal });
  });
}

/**
 * The review: pauses with the interrupt metadata and resumes with the reviewer's decision,
 * validated by ReviewDecisionSchema (an invalid value throws and the thread stays paused).
 * approve → approved, on to the next stage; revise → revision_requested, back to the generator
 * with the feedback (after `maxRevisions`, the reviewer must approve or edit instead); edit →
 * the content replaced, edited, and every approved or edited dependent (transitively) stale;
 * retry → evaluate again. The node holds no model call: on resume nothing is judged twice.
 */
export function createReviewNode(options: ReviewNodeOptions) {
  const { stage } = options;
  const statusPath = parseStatePath(stage.statusField);
  const contentPath = parseStatePath(stage.contentPath);

  return (state: OverallProposalStateType, config?: LangGraphRunnableConfig): Command => {
    const metadata = metadataFor(state, stage);
    const schema = decisionSchema(metadata);
    const decision: ReviewDecision = interrupt(metadata, { responseSchema: schema });

    const evaluation = stageEvaluation(state, stage);
    const who = decision.reviewer === undefined ? "" : ` by ${decision.reviewer}`;
    const context = EvaluationContextSchema.safeParse(config?.context ?? {});
    const max =
      (context.success ? context.data.maxRevisions : undefined) ??
      options.maxRevisions ??
      DEFAULT_MAX_REVISIONS;

    switch (decision.action) {
      case "approve": {
        const update = mergeStateUpdates(statePathUpdate(statusPath, "approved"), cleared, {
          reviewHistory: [record(stage, decision, evaluation)],
          messages: [new AIMessage(`${stage.title} approved${who}.`)],
        });
        return new Command({ update, goto: options.next(state, { [stage.id]: "approved" }) });
      }
      case "retry": {
        const regenerate = metadata.type === "generation_error";
        const update = mergeStateUpdates(
          statePathUpdate(statusPath, regenerate ? "running" : "evaluating"),
          cleared,
          {
            reviewHistory: [record(stage, decision, evaluation)],
            messages: [
              new AIMessage(
                `${stage.title}: ${regenerate ? "generating" : "evaluating"} again${who}.`,
              ),
            ],
          },
        );
        // A failed generation is retried by generating again; anything else by evaluating again.
        const goto =
          metadata.type === "generation_error" && options.generateNode !== undefined
            ? options.generateNode
            : options.evaluateNode;
        return new Command({ update, goto });
      }
      case "revise": {
        const count = state.revisionCounts[stage.id] ?? 0;
        if (options.generateNode !== undefined && count >= max) {
          const escalated: InterruptMetadata = {
            ...metadata,
            type: "revision_limit",
            actions: ["approve", "edit", "retry"],
            title: `${stage.title}: Revision Limit Reached`,
            description: `The ${stage.title} was revised ${count} times (the maximum is ${max}). Approve it, edit it yourself, or evaluate again.`,
            revisions: { count, max },
          };
          const update = mergeStateUpdates(statePathUpdate(statusPath, "awaiting_review"), {
            isInterrupted: true,
            interruptMetadata: escalated,
            reviewHistory: [record(stage, decision, evaluation)],
            messages: [new AIMessage(escalated.description)],
          });
          return new Command({ update, goto: options.reviewNode });
        }
        const update = mergeStateUpdates(
          statePathUpdate(statusPath, "revision_requested"),
          cleared,
          {
            revisionCounts: { [stage.id]: count + 1 },
            revisionFeedback: { [stage.id]: decision.feedback },
            reviewHistory: [record(stage, decision, evaluation)],
            messages: [
              new AIMessage(`${stage.title}: revision requested${who}: ${decision.feedback}`),
            ],
          },
        );
        return new Command({ update, goto: options.generateNode ?? END });
      }
      case "edit": {
        const dependents = transitiveDependents(
          options.dependencies ?? { dependents: {} },
          stage.id,
        );
        const staled = options.stages.filter(
          (s) => dependents.includes(s.id) && ACCEPTED_STATUSES.has(stageStatus(state, s)),
        );
        const current = readStatePath(state, contentPath);
        const overrides: Record<string, ProcessingStatus> = { [stage.id]: "edited" };
        for (const s of staled) overrides[s.id] = "stale";
        const update = mergeStateUpdates(
          statePathUpdate(contentPath, editedValue(current, decision.content, stage.contentKind)),
          statePathUpdate(statusPath, "edited"),
          ...staled.map((s) => statePathUpdate(parseStatePath(s.statusField), "stale")),
          cleared,
          {
            reviewHistory: [
              record(
                stage,
                decision,
                evaluation,
                staled.map((s) => s.id),
              ),
            ],
            messages: [
              new AIMessage(
                `${stage.title} edited${who}.${staled.length === 0 ? "" : ` Marked stale for regeneration: ${staled.map((s) => s.title).join(", ")}.`}`,
              ),
            ],
          },
        );
        return new Command({ update, goto: options.next(state, overrides) });
      }
    }
  };
}
