/** A review, opened: what the judge said, the content, and the decisions it offers. */
import type { ReviewDetail, ThreadTraces } from "../../orchestrator/reviewDesk.js";
import { DecisionForms } from "./decisionForms.js";
import { EvaluationView } from "./evaluationView.js";
import { Layout } from "./layout.js";
import { TraceSection } from "./traceSection.js";

export interface ReviewPageProps {
  reviewer: string;
  csrf: string;
  review: ReviewDetail;
  /** Why the last decision was refused (shown above the forms). */
  error?: string;
  /** The judge calls of the evaluation under review, shown collapsed under it. */
  traces?: ThreadTraces;
}

function Summary(props: { review: ReviewDetail }) {
  const { review } = props;
  return (
    <section id="summary">
      <h1>{review.title}</h1>
      <p class="muted">
        Stage <strong>{review.stage}</strong> · {review.type.replaceAll("_", " ")} · waiting since{" "}
        <time datetime={review.createdAt}>{review.createdAt.replace("T", " ").slice(0, 16)}</time>
        {review.revisions !== undefined
          ? ` · revision ${review.revisions.count} of at most ${review.revisions.max}`
          : ""}
      </p>
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
      <section id="content">
        <h2>The content</h2>
        <pre class="content">{review.content}</pre>
      </section>
      {props.error !== undefined ? (
        <section class="alert" role="alert" id="decision-error">
          <p>{props.error}</p>
        </section>
      ) : null}
      <DecisionForms review={review} csrf={props.csrf} />
      <p>
        <a href={`/threads/${encodeURIComponent(review.threadId)}`}>History of this proposal</a> ·{" "}
        <a href="/reviews">Back to the queue</a>
      </p>
    </Layout>
  );
}
