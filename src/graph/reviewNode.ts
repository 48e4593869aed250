import { Command, interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";

import {
  type CorrectionIssue,
  checkedCorrections,
  type RecordedCorrection,
  recordedCorrections,
} from "../scoring/corrections.js";
import type { EvaluationResult } from "../scoring/result.js";
import { evaluationReview, referencedEvaluation } from "./failure.js";
import {
  type InterruptMetadata,
  InterruptMetadataSchema,
  REVIEW_ACTIONS,
  type ReviewAction,
  type ReviewDecision,
  type ReviewRefusal,
  type RevisionRound,
} from "./model.js";
import { humanInterruptOf, readReviewAnswer } from "./reviewAnswer.js";
import { decide, type ReviewNodeOptions, stageEvaluation } from "./reviewDecisions.js";
import { editContentIssue } from "./reviewInput.js";
import { type RefusedRunSettings, readRunSettings } from "./runSettings.js";
import type { StageDefinition } from "./stages.js";
import type { OverallProposalStateType } from "./state.js";
import { parseStatePath, readStatePath } from "./statePath.js";
import { structuredContentOf } from "./structuredContent.js";

export const DEFAULT_MAX_REVISIONS = 3;

/** What the reviewer sees: the metadata the evaluate node left, or one built from the state. */
function metadataFor(state: OverallProposalStateType, stage: StageDefinition): InterruptMetadata {
  const current = InterruptMetadataSchema.safeParse(state.interruptMetadata);
  if (current.success && current.data.contentId === stage.id) return current.data;
  const where = { ...stage, contentId: stage.id };
  return evaluationReview(where, stageEvaluation(state, stage));
}

/** Why the review refuses this action (only the actions it offers are taken), or undefined. */
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

function offeredAnswers(metadata: InterruptMetadata): string {
  const actions = REVIEW_ACTIONS.filter((a) => refusedAction(metadata, a) === undefined);
  const inbox = [
    ...(actions.includes("approve") ? ["accept"] : []),
    ...(actions.includes("revise") ? ["respond"] : []),
    ...(actions.includes("edit") ? ["edit"] : []),
  ];
  const words = (list: readonly string[]) =>
    list.length <= 1 ? list.join("") : `${list.slice(0, -1).join(", ")} or ${list.at(-1)}`;
  return `${words(actions)}${inbox.length === 0 ? "" : ` (in Agent Inbox: ${words(inbox)})`}`;
}

function editHint(stage: StageDefinition): string {
  const type = structuredContentOf(stage);
  if (type === undefined) return "Send the edited text, with visible characters (at most 1 MiB).";
  const required = type.fields.filter((f) => f.required === true).map((f) => f.key);
  const shape =
    type.shape === "object"
      ? `Send ${type.name} as a JSON object: the fields you give replace theirs, the fields you leave out are kept, null or empty removes one`
      : `Send ${type.name} as a JSON list of objects, every ${(type.itemName ?? "item").toLowerCase()} with its fields`;
  return `${shape}${required.length === 0 ? "" : `; ${required.join(", ")} cannot be emptied`}.`;
}

/** Why an answer given with other settings than the thread's is not taken (within the schema's bounds). */
function refusalOfSettings(refused: RefusedRunSettings): ReviewRefusal {
  const problem = `thread '${refused.threadId}' was started with other settings (${refused.changes.join("; ")})`;
  return {
    field: "context",
    problem: problem.length > 2_000 ? `${problem.slice(0, 1_999)}…` : problem,
    fix:
      "Answer again with the settings the thread started with (or none) in the run's context, " +
      "or override them explicitly (overrideSettings: true).",
  };
}

function askAgain(
  options: ReviewNodeOptions,
  metadata: InterruptMetadata,
  refusal: ReviewRefusal,
): Command {
  return new Command({
    update: { isInterrupted: true, interruptMetadata: { ...metadata, refusal } },
    goto: options.reviewNode,
  });
}

/**
 * The review: pauses with the interrupt metadata (which also carries Agent Inbox's
 * `HumanInterrupt` shape) and resumes with a ReviewDecision or a `HumanResponse`. A refused
 * answer is never an error — the review asks again with the refusal, so the thread stays paused
 * on a LangGraph server. The node holds no model call: on resume nothing is judged twice.
 */
export function createReviewNode(options: ReviewNodeOptions) {
  const { stage } = options;
  const statusPath = parseStatePath(stage.statusField);
  const contentPath = parseStatePath(stage.contentPath);

  return (state: OverallProposalStateType, config?: LangGraphRunnableConfig): Command => {
    // A resume with other settings than the thread's is refused: the review asks again, with why.
    const run = readRunSettings(state.threadSettings, config);
    const settings = "refused" in run ? run.refused.context : run.context;
    const settingsRefusal = "refused" in run ? refusalOfSettings(run.refused) : undefined;
    const found = metadataFor(state, stage);
    const shown = settingsRefusal === undefined ? found : { ...found, refusal: settingsRefusal };
    const { refusal: _earlier, ...metadata } = shown;
    const refused = (decision: ReviewDecision) => refusedAction(metadata, decision.action);
    const corrections = correctionsSeen(metadata, state);
    const content = readStatePath(state, contentPath);
    const inbox = humanInterruptOf(shown, content, refused, stageEvaluation(state, stage));
    const maxRevisions = settings.maxRevisions ?? options.maxRevisions ?? DEFAULT_MAX_REVISIONS;
    const round =
      options.generateNode === undefined ? {} : { round: roundOf(state, stage, maxRevisions) };
    // One value for both readers: the review's metadata (its own description kept as `intro`)
    // and Agent Inbox's HumanInterrupt (whose `description` is the Markdown summary).
    const value = { ...shown, ...round, ...inbox, intro: metadata.description };
    const answer: unknown = interrupt(value);
    if (settingsRefusal !== undefined) return askAgain(options, metadata, settingsRefusal);
    const read = readReviewAnswer(answer, {
      action: refused,
      content: (edited) => editContentIssue(stage, edited, content),
      corrections: (decision) => {
        const checked = corrections(decision);
        return "issue" in checked ? checked.issue : undefined;
      },
      offered: offeredAnswers(metadata),
      editHint: editHint(stage),
      shown: inbox.action_request,
    });
    if ("refusal" in read) return askAgain(options, metadata, read.refusal);
    const checked = corrections(read.decision);
    return decide({
      ...{ options, state, metadata, statusPath, contentPath, maxRevisions },
      decision: read.decision,
      evaluation: stageEvaluation(state, stage),
      corrections: "issue" in checked ? [] : checked.corrections,
    });
  };
}

/** The round of writing under review, of at most one more than the limit, with its feedback. */
function roundOf(
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

/** A decision's corrections checked against the evaluation the reviewer saw (read once). */
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
