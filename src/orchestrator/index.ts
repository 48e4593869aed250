/**
 * `evalgate/orchestrator`: the ReviewOrchestrator that starts threads, lists pending reviews and
 * records decisions exactly once, over a SQLite or PostgreSQL checkpointer.
 */
export {
  type Checkpointer,
  type CheckpointerOptions,
  createCheckpointer,
  DEFAULT_SQLITE_PATH,
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
export type { PausedInterrupt, PendingReview } from "./pendingReview.js";
export {
  ReviewOrchestrator,
  type ReviewOrchestratorOptions,
  type ThreadOutcome,
} from "./reviewOrchestrator.js";
