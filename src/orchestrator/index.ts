export {
  type Checkpointer,
  type CheckpointerOptions,
  createCheckpointer,
  DEFAULT_SQLITE_PATH,
  redactUrl,
} from "./checkpointer.js";
export {
  CheckpointerError,
  type DecisionIssue,
  ForeignThreadError,
  GraphRunError,
  InterruptMismatchError,
  InvalidDecisionError,
  InvalidThreadIdError,
  type NotPausedReason,
  OrchestratorError,
  ThreadExistsError,
  ThreadNotFoundError,
  ThreadNotPausedError,
  ThreadStateError,
} from "./errors.js";
export type {
  GraphInput,
  GraphState,
  Reviewable,
  ReviewFields,
  ReviewGraphBuilder,
  ReviewGraphRunnable,
  ThreadRunConfig,
} from "./graphTypes.js";
export {
  type PausedInterrupt,
  type PendingReview,
  pausedInterrupts,
  reviewsOf,
} from "./pendingReview.js";
export {
  ReviewOrchestrator,
  type ReviewOrchestratorOptions,
  type ThreadOutcome,
} from "./reviewOrchestrator.js";
export { KeyedLock } from "./threadLock.js";
export { foreignChannels, listThreads, type StoredThread } from "./threads.js";
