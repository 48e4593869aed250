/**
 * `evalgate/orchestrator`: the ReviewOrchestrator that starts threads, lists pending reviews and
 * records decisions exactly once, over a SQLite or PostgreSQL checkpointer; the review desk the
 * service and the CLI ask on a reviewer's behalf.
 */

export {
  type CorrectionLabelReader,
  type EvaluationTraceReader,
  storeExampleSource,
} from "../calibration/fewShot.js";
export {
  type CalibrationLabelPageQuery,
  type CalibrationLabelSource,
  type CalibrationReportOptions,
  type CalibrationReportScope,
  calibrationReport,
} from "../calibration/labels.js";
export { DEFAULT_SQLITE_PATH } from "../store/location.js";
export type { Reviewer } from "../store/reviewers.js";
export {
  type Checkpointer,
  type CheckpointerOptions,
  createCheckpointer,
} from "./checkpointer.js";
export {
  createReviewDesk,
  type ReviewDeskHandle,
  type ReviewDeskOptions,
} from "./createReviewDesk.js";
export type { ReviewDetail, ReviewListItem, ThreadStatus } from "./deskAnswers.js";
export {
  type DecisionRequest,
  DecisionRequestSchema,
  type StartProposal,
  StartProposalSchema,
} from "./deskRequests.js";
export {
  CheckpointerError,
  type DecisionIssue,
  DeskError,
  type DeskErrorDetails,
  ForeignThreadError,
  InterruptMismatchError,
  InvalidDecisionError,
  OrchestratorError,
  type OrchestratorErrorCode,
  ThreadNotPausedError,
} from "./errors.js";
export type { NotPausedReason } from "./errorText.js";
export type {
  GraphInput,
  GraphState,
  Reviewable,
  ReviewFields,
  ReviewGraphBuilder,
  ReviewGraphRunnable,
} from "./graphTypes.js";
export type { JobQueue, ThreadJob } from "./jobs/jobQueue.js";
export type { PausedInterrupt, PendingReview } from "./pendingReview.js";
export {
  buildProposalDocument,
  type GateRecord,
  type ProposalDocument,
  type ProposalDocumentInput,
  ProposalDocumentSchema,
} from "./proposal/document.js";
export { renderProposalMarkdown } from "./proposal/markdown.js";
export { type ThreadError, type ThreadErrors, threadErrors } from "./proposal/stageErrors.js";
export type { ReviewDesk } from "./reviewDesk.js";
export {
  ReviewOrchestrator,
  type ReviewOrchestratorOptions,
  type ThreadOutcome,
} from "./reviewOrchestrator.js";
export type { AdvanceOutcome } from "./threadRunner.js";
