/** A review, opened: what the judge said, the content, and the decisions it offers. */
import type { ReviewDetail, ThreadTraces } from "../../desk/answers.js";
import { contentForm } from "../../graph/contentFields.js";
import type { ErrorBody } from "../errors.js";
import { reviewKindName, stageName } from "../statusWords.js";
import { MarkdownText, StructuredContent } from "./contentView.js";
import { DecisionForms } from "./decisionForms.js";
import { EvaluationView } from "./evaluationView.js";
import { AdminDetails, ErrorNotice, Layout, type SignedIn, Time } from "./layout.js";
import { type EditDraft, reviewContentType, shownContent } from "./structuredEdit.js";
import { TraceSection } from "./traceSection.js";

interface ReviewPageProps extends SignedIn {
  review: ReviewDetail;
  /** Why the last decision was refused (shown above the forms, with what was entered kept). */
  error?: ErrorBody["error"];
  values?: Readonly<Record<string, string>>;
  /** The judge calls of the evaluation under review (administrators). */
  traces?: ThreadTraces | undefined;
  admin?: boolean;
  editDraft?: EditDraft | undefined;
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

/** What went wrong before this review, in a reviewer's words (the technical error is for admins). */
function problemText(review: ReviewDetail): string {
  const { type, evaluation } = review;
  if (type === "evaluation_error" && evaluation?.criteria.some((c) => c.evaluated) === true) {
    return "The judge could not evaluate this content, so the criteria it judges were not evaluated; the checks that need no judge are scored below: try again, edit it, or approve it as it is.";
  }
  if (type === "evaluation_error") {
    return "The judge could not evaluate this content, so it has no scores: try again, edit it, or approve it as it is.";
  }
  if (type === "generation_error") {
    return "The writer could not write this content: try again, or write it yourself with an edit.";
  }
  return "Something went wrong before this review: try again, or decide on the content as it is.";
}

function Summary(props: { review: ReviewDetail; admin: boolean }) {
  const { review } = props;
  return (
    <section id="summary">
      <h1>{review.title}</h1>
      <p class="muted">
        Stage <strong>{stageName(review.stage)}</strong> · {reviewKindName(review.type)} · waiting
        since <Time iso={review.createdAt} />
        {review.round !== undefined
          ? ` · round ${review.round.number} of at most ${review.round.max}`
          : ""}
        {review.revisions !== undefined
          ? ` · revision ${review.revisions.count} of at most ${review.revisions.max}`
          : ""}
      </p>
      <AnsweredFeedback review={review} />
      {review.error !== undefined ? (
        <p class="error" role="alert" id="review-problem">
          {problemText(review)}
        </p>
      ) : null}
      <AdminDetails
        admin={props.admin}
        id="review-error-details"
        items={review.error === undefined ? [] : [review.error]}
      />
    </section>
  );
}

/** The content under review, whole and readable. */
function Body(props: { review: ReviewDetail }) {
  const { review } = props;
  if (review.content.trim() === "") return <p class="muted">No content (nothing was written).</p>;
  const type = reviewContentType(review);
  if (type === undefined) return <MarkdownText text={review.content} />;
  const shown = shownContent(review);
  if (shown === undefined) return <pre class="code">{review.content}</pre>;
  return <StructuredContent form={contentForm(type, shown)} itemName={type.itemName} />;
}

function ReviewContent(props: { review: ReviewDetail }) {
  return (
    <section id="content" data-content-kind={props.review.contentKind}>
      <h2>The content</h2>
      <Body review={props.review} />
    </section>
  );
}

export function ReviewPage(props: ReviewPageProps) {
  const { review } = props;
  const admin = props.admin === true;
  return (
    <Layout title={review.title} reviewer={props.reviewer} csrf={props.csrf}>
      <Summary review={review} admin={admin} />
      {review.evaluation !== null ? (
        <EvaluationView evaluation={review.evaluation} admin={admin} />
      ) : null}
      {props.traces !== undefined && admin ? <TraceSection traces={props.traces} /> : null}
      <ReviewContent review={review} />
      {props.error !== undefined ? (
        <section class="alert" role="alert" id="decision-error">
          <ErrorNotice error={props.error} lead="Your decision was not recorded." />
        </section>
      ) : null}
      <DecisionForms
        review={review}
        csrf={props.csrf}
        values={props.values}
        editDraft={props.editDraft}
      />
      <p>
        <a href={`/threads/${encodeURIComponent(review.threadId)}`}>History of this proposal</a> ·{" "}
        <a href="/reviews">Back to the queue</a>
      </p>
    </Layout>
  );
}
