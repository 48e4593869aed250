import type { Command, LangGraphRunnableConfig } from "@langchain/langgraph";
import { interrupt } from "@langchain/langgraph";
import {
  type CorrectionIssue,
  checkedCorrections,
  type RecordedCorrection,
  recordedCorrections,
} from "../scoring/recordedCorrections.js";
import type { EvaluationResult } from "../scoring/result.js";
import {
  decisionOf,
  humanInterruptOf,
  type ReviewResponse,
  reviewResponseSchema,
} from "./agentInbox.js";
import { evaluationRefOf, referencedEvaluation } from "./evaluationRef.js";
import {
  type InterruptMetadata,
  InterruptMetadataSchema,
  type ReviewAction,
  type ReviewDecision,
  type RevisionRound,
} from "./model.js";
import { decide, type ReviewNodeOptions } from "./reviewDecisions.js";
import { editContentIssue } from "./reviewInput.js";
import { settleRunSettings } from "./runSettings.js";
import type { StageDefinition } from "./stages.js";
import type { OverallProposalStateType } from "./state.js";
import { parseStatePath, readStatePath } from "./statePath.js";

export const DEFAULT_MAX_REVISIONS = 3;

export {
  editedValue,
  type NextNode,
  type ReviewNodeOptions,
  type StatusOverrides,
  stageStatus,
} from "./reviewDecisions.js";

export function stageEvaluation(
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
  const evaluation = stageEvaluation(state, stage);
  return {
    type: "evaluation_review",
    contentType: stage.contentType,
    contentId: stage.id,
    evaluation: null,
    ...(evaluation === null
      ? {}
      : { evaluationRef: evaluationRefOf(stage.resultField, evaluation) }),
    actions: ["approve", "revise", "edit"],
    title: `${stage.title} Evaluation Review`,
    description: `Review the evaluation of the ${stage.title}.`,
  };
}

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

/**
 * The review: pauses with the interrupt metadata — which also carries LangGraph's prebuilt
 * `HumanInterrupt` shape (action_request, config, description) for Agent Inbox — and resumes with
 * the reviewer's answer: a ReviewDecision, or a `HumanResponse` (accept → approve, response →
 * revise with the text as feedback, edit → edit with the edited content; ignore is refused). The
 * answer is validated by zod — the review boundary's fields (reviewInput.ts), the actions the
 * review offers, an edit that fits the stage's shape, corrections that fit the evaluation — and an
 * invalid or refused value throws with the thread left paused.
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
    // Before the interrupt: a resume with other settings than the thread's is refused here.
    const settings = settleRunSettings(state.threadSettings, config).context;
    const metadata = metadataFor(state, stage);
    const refused = (decision: ReviewDecision) => refusedAction(metadata, decision.action);
    const corrections = correctionsSeen(metadata, state);
    const correctionRefusal = (decision: ReviewDecision) => {
      const checked = corrections(decision);
      return "issue" in checked ? checked.issue : undefined;
    };
    const content = readStatePath(state, contentPath);
    const inbox = humanInterruptOf(metadata, content, refused, stageEvaluation(state, stage));
    const maxRevisions = settings.maxRevisions ?? options.maxRevisions ?? DEFAULT_MAX_REVISIONS;
    const round =
      options.generateNode === undefined ? {} : { round: roundOf(state, stage, maxRevisions) };
    // One value for both readers: the review's metadata (its own short description kept as
    // `intro`) and Agent Inbox's HumanInterrupt (whose `description` is the Markdown summary).
    const value = { ...metadata, ...round, ...inbox, intro: metadata.description };
    const contentRefusal = (edited: string) => editContentIssue(stage, edited);
    const response: ReviewResponse = interrupt(value, {
      responseSchema: reviewResponseSchema(refused, correctionRefusal, contentRefusal),
    });
    const decision = decisionOf(response);
    if (decision === undefined) throw new Error("internal: a refused review answer was accepted");
    const checked = corrections(decision);
    if ("issue" in checked) throw new Error("internal: refused corrections were accepted");
    return decide({
      ...{ options, state, metadata, decision, statusPath, contentPath },
      evaluation: stageEvaluation(state, stage),
      corrections: checked.corrections,
      maxRevisions,
    });
  };
}

/**
 * The round of writing under review: one more than the revisions made, of at most one more than
 * the limit, with the feedback the writer answered (the generator clears it when it writes for
 * another reason).
 */
export function roundOf(
  state: OverallProposalStateType,
  stage: StageDefinition,
  maxRevisions: number,
): RevisionRound {
  const count = state.revisionCounts[stage.id] ?? 0;
  const feedback = state.revisionFeedback[stage.id]?.trim();
  return {
    number: count + 1,
    max: Math.max(maxRevisions, count) + 1,
    ...(count > 0 && feedback !== undefined && feedback !== "" ? { feedback } : {}),
  };
}

/**
 * A decision's corrections checked against the evaluation the reviewer saw (read once, when a
 * decision first carries corrections), as the history keeps them, or the issue that refuses them.
 */
function correctionsSeen(metadata: InterruptMetadata, state: OverallProposalStateType) {
  let seen: EvaluationResult | null | undefined;
  return (
    decision: ReviewDecision,
  ): { corrections: RecordedCorrection[] } | { issue: CorrectionIssue } => {
    const inputs = "corrections" in decision ? (decision.corrections ?? []) : [];
    if (inputs.length === 0) return { corrections: [] };
    seen ??= referencedEvaluation(metadata, state);
    const checked = checkedCorrections(seen, inputs);
    if ("issue" in checked) return checked;
    return { corrections: seen === null ? [] : recordedCorrections(seen, checked.corrections) };
  };
}
