/**
 * The decision forms of a review, one per action the review offers: approve, revise with
 * feedback, edit in place, retry. Each posts the pending interrupt's id and the CSRF token; the
 * fields' limits are the review boundary's (the service checks them again on every post).
 */
import { REVIEW_LIMITS } from "../../graph/reviewInput.js";
import type { ReviewDetail } from "../../orchestrator/reviewDesk.js";
import { CorrectionFields } from "./correctionFields.js";
import { EditContentFields } from "./editFields.js";
import { type EditDraft, reviewContentType } from "./structuredEdit.js";

interface FormProps {
  review: ReviewDetail;
  csrf: string;
  /** A refused edit, shown again as entered with its problems. */
  editDraft?: EditDraft;
}

function formAction(threadId: string): string {
  return `/reviews/${encodeURIComponent(threadId)}/decisions`;
}

function Hidden(props: FormProps & { action: string }) {
  return (
    <>
      <input type="hidden" name="_csrf" value={props.csrf} />
      <input type="hidden" name="interruptId" value={props.review.interruptId} />
      <input type="hidden" name="action" value={props.action} />
    </>
  );
}

function ApproveForm(props: FormProps) {
  return (
    <form
      method="post"
      action={formAction(props.review.threadId)}
      class="decision"
      id="approve-form"
    >
      <h2>Approve</h2>
      <Hidden {...props} action="approve" />
      <label for="approve-comment">Comment (optional)</label>
      <textarea id="approve-comment" name="comment" maxlength={REVIEW_LIMITS.feedbackChars} />
      <CorrectionFields review={props.review} form="approve" />
      <p>
        <button type="submit" class="primary">
          Approve and go on
        </button>
      </p>
    </form>
  );
}

function ReviseForm(props: FormProps) {
  return (
    <form
      method="post"
      action={formAction(props.review.threadId)}
      class="decision"
      id="revise-form"
    >
      <h2>Ask for a revision</h2>
      <Hidden {...props} action="revise" />
      <label for="revise-feedback">What the writer should change</label>
      <textarea
        id="revise-feedback"
        name="feedback"
        required
        maxlength={REVIEW_LIMITS.feedbackChars}
      />
      <CorrectionFields review={props.review} form="revise" />
      <p>
        <button type="submit">Send back with this feedback</button>
      </p>
    </form>
  );
}

function EditForm(props: FormProps) {
  return (
    <form method="post" action={formAction(props.review.threadId)} class="decision" id="edit-form">
      <h2>Edit in place</h2>
      <Hidden {...props} action="edit" />
      <EditContentFields
        content={props.review.content}
        type={reviewContentType(props.review)}
        draft={props.editDraft}
      />
      <label for="edit-comment">Comment (optional)</label>
      <textarea id="edit-comment" name="comment" maxlength={REVIEW_LIMITS.feedbackChars} />
      <CorrectionFields review={props.review} form="edit" />
      <p>
        <button type="submit">Save my edit and go on</button>
      </p>
    </form>
  );
}

function RetryForm(props: FormProps) {
  return (
    <form method="post" action={formAction(props.review.threadId)} class="decision" id="retry-form">
      <h2>Try again</h2>
      <Hidden {...props} action="retry" />
      <p class="muted">Run the step that failed once more.</p>
      <p>
        <button type="submit">Retry</button>
      </p>
    </form>
  );
}

export function DecisionForms(props: FormProps) {
  const offered = new Set(props.review.actions);
  return (
    <section id="decide">
      {offered.has("approve") ? <ApproveForm {...props} /> : null}
      {offered.has("revise") ? <ReviseForm {...props} /> : null}
      {offered.has("edit") ? <EditForm {...props} /> : null}
      {offered.has("retry") ? <RetryForm {...props} /> : null}
    </section>
  );
}
