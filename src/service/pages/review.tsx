/** A review, opened: what the judge said, the content, and the decisions it offers. */
import type { ReviewDetail, ThreadTraces } from "../../orchestrator/reviewDesk.js";
import { DecisionForms } from "./decisionForms.js";
import { EvaluationView } from "./evaluationView.js";
import { Layout } from "./layout.js";
import { ReviewContent } from "./reviewContent.js";
import type { EditDraft } from "./structuredEdit.js";
import { TraceSection } from "./traceSection.js";

export interface ReviewPageProps {
  reviewer: string;
  csrf: string;
  review: ReviewDetail;
  /** Why the last decision was refused (shown above the forms). */
  error?: string;
  /** The judge calls of the evaluation under review, shown collapsed under it. */
  traces?: ThreadTraces;
  /** A refused edit, shown again in the edit form as entered, with its problems. */
  editDraft?: EditDraft;
}

/** The feedback a revised version was written to answer. */
function AnsweredFeedback(props: { review: ReviewDetail }) {
  const { round } = props.review;
  if (round?.feedback === undefined) return null;
  return (
    <div class="feedback-answered" id="answered-feedback">
      <p>{`This version answers the feedback of round ${round.number - 1}:`}</p>
      <blockquote class="text">{round.feedback}</blockquote>
    </div>
  );
}

function Summary(props: { review: ReviewDetail }) {
  const { review } = props;
  return (
    <section id="summary">
      <h1>{review.title}</h1>
      <p class="muted">
        Stage <strong>{review.stage}</strong> · {review.type.replaceAll("_", " ")} · waiting since{" "}
        <time datetime={review.createdAt}>{review.createdAt.replace("T", " ").slice(0, 16)}</time>
        {review.round !== undefined
          ? ` · round ${review.round.number} of at most ${review.round.max}`
          : ""}
        {review.revisions !== undefined
          ? ` · revision ${review.revisions.count} of at most ${review.revisions.max}`
          : ""}
      </p>
      <AnsweredFeedback review={review} />
      {review.error !== undefined ? (
        <p class="error" role="alert">
          {review.error}
        </p>
      ) : null}
    </section>
  );
}

export function ReviewPage(props: ReviewPageProps) {
  const { review } = props;
  return (
    <Layout title={review.title} reviewer={props.reviewer} csrf={props.csrf}>
      <Summary review={review} />
      {review.evaluation !== null ? <EvaluationView evaluation={review.evaluation} /> : null}
      {props.traces !== undefined ? <TraceSection traces={props.traces} /> : null}
      <ReviewContent review={review} />
      {props.error !== undefined ? (
        <section class="alert" role="alert" id="decision-error">
          <p>{props.error}</p>
        </section>
      ) : null}
      <DecisionForms review={review} csrf={props.csrf} editDraft={props.editDraft} />
      <p>
        <a href={`/threads/${encodeURIComponent(review.threadId)}`}>History of this proposal</a> ·{" "}
        <a href="/reviews">Back to the queue</a>
      </p>
    </Layout>
  );
}
