/**
 * `evalgate/review`: people decide — the ReviewOrchestrator, the review desk, the checkpointer,
 * calibration from the reviewers' decisions, and the review service (Hono app and server).
 *
 * @example
 * const desk = await createReviewDesk({ sqlitePath: ".evalgate/checkpoints.sqlite" });
 * const service = await startService({ desk, host: "127.0.0.1", port: 8787 });
 * console.log(`reviews at ${service.url}`);
 */

export { storeExampleSource } from "../calibration/fewShot.js";
export {
  /** Where calibrationReport reads labels from: a review store. */
  type CalibrationLabelSource,
  /** What calibrationReport reads (labels you have, or a store) and which period and content type. */
  type CalibrationReportOptions,
  /** How well the judge agreed with the reviewers, per content type and criterion, from their labels. */
  calibrationReport,
} from "../calibration/labels.js";
export {
  createReviewDesk,
  type ReviewDeskHandle,
  /** The options of createReviewDesk: the database, the model, few-shot examples, jobs, retention. */
  type ReviewDeskOptions,
} from "../desk/createReviewDesk.js";
export {
  /** A decision as the review service takes it: the interrupt it answers, the action, feedback, content, corrections. */
  type DecisionRequest,
  /** The zod schema of DecisionRequest (the body of `POST /api/reviews/:threadId/decisions`). */
  DecisionRequestSchema,
  /** A request to start a proposal: the RFP text, the applicant and an optional title. */
  type StartProposal,
  /** The zod schema of StartProposal (the body of `POST /api/proposals`). */
  StartProposalSchema,
} from "../desk/requests.js";
export type {
  /** What the review service and the CLI ask on a reviewer's behalf: start, list, open, decide, follow. */
  ReviewDesk,
} from "../desk/reviewDesk.js";
export {
  /** A checkpointer createCheckpointer opened: the LangGraph saver and which database it is on. */
  type Checkpointer,
  /** Where createCheckpointer keeps checkpoints: a SQLite file, or PostgreSQL by URL or DATABASE_URL. */
  type CheckpointerOptions,
  /** Opens the checkpointer for a database: SQLite at `.evalgate/checkpoints.sqlite` by default, PostgreSQL by URL. */
  createCheckpointer,
} from "../orchestrator/checkpointer.js";
export type { ReviewGraphBuilder } from "../orchestrator/orchestratorEngine.js";
export type { PendingReview } from "../orchestrator/pendingReview.js";
export {
  ReviewOrchestrator,
  /** The options of ReviewOrchestrator: the graph, its checkpointer or database, retention, settings. */
  type ReviewOrchestratorOptions,
  type ThreadOutcome,
} from "../orchestrator/reviewOrchestrator.js";
export {
  getTraces,
  type TraceQuery,
} from "../store/index.js";
export {
  /** The review service as a Hono app over a review desk: JSON API, review pages, progress as Server-Sent Events. */
  createServiceApp,
  /** The options of createServiceApp: the desk, the session secret, event stream and sign-in attempt limits. */
  type ServiceAppOptions,
} from "./app.js";
export {
  /** A running review service: its URL, and close() to stop it and its desk. */
  type RunningService,
  /** The options of startService: the desk, host and port, and the app's options. */
  type ServiceOptions,
  /** Serves the review service on host:port until close() (what `evalgate serve` runs). */
  startService,
} from "./server.js";
