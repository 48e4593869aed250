/**
 * A review's one decision form, so the score corrections and comment entered once go with
 * whichever decision is chosen: each offered decision is a submit button named `action`, its own
 * fields beside it. Plain HTML, no script.
 */
import type { ReviewDetail } from "../../desk/answers.js";
import { REVIEW_LIMITS } from "../../graph/reviewInput.js";
import { CorrectionFields } from "./correctionFields.js";
import { EditContentFields } from "./editFields.js";
import { type EditDraft, reviewContentType } from "./structuredEdit.js";

interface DecisionFormsProps {
  review: ReviewDetail;
  csrf: string;
  /** The fields of a refused decision, entered again. */
  values?: Readonly<Record<string, string>> | undefined;
  editDraft?: EditDraft | undefined;
}

/** The decisions that take a comment and score corrections (not a plain retry). */
const JUDGING_ACTIONS = new Set(["approve", "revise", "edit"]);

function Approve() {
  return (
    <div class="choice" id="approve">
      <h3>Approve</h3>
      <p class="muted">The content goes on as it is.</p>
      <button type="submit" name="action" value="approve" class="primary" id="approve-button">
        Approve and go on
      </button>
    </div>
  );
}

function Revise(props: { feedback: string | undefined }) {
  return (
    <div class="choice" id="revise">
      <h3>Ask for a revision</h3>
      <label for="revise-feedback">What the writer should change (needed to send it back)</label>
      <textarea id="revise-feedback" name="feedback" maxlength={REVIEW_LIMITS.feedbackChars}>
        {props.feedback ?? ""}
      </textarea>
      <button type="submit" name="action" value="revise" id="revise-button">
        Send back with this feedback
      </button>
    </div>
  );
}

function Edit(props: { review: ReviewDetail; content: string; draft: EditDraft | undefined }) {
  return (
    <div class="choice" id="edit">
      <h3>Edit in place</h3>
      <EditContentFields
        content={props.content}
        type={reviewContentType(props.review)}
        draft={props.draft}
      />
      <button type="submit" name="action" value="edit" id="edit-button">
        Save my edit and go on
      </button>
    </div>
  );
}

function Retry() {
  return (
    <div class="choice" id="retry">
      <h3>Try again</h3>
      <p class="muted">Run the step that failed once more.</p>
      <button type="submit" name="action" value="retry" id="retry-button">
        Retry
      </button>
    </div>
  );
}

function Comment(props: { comment: string | undefined }) {
  return (
    <div class="comment">
      <label for="decision-comment">Comment (optional, kept with your decision)</label>
      <textarea id="decision-comment" name="comment" maxlength={REVIEW_LIMITS.feedbackChars}>
        {props.comment ?? ""}
      </textarea>
    </div>
  );
}

export function DecisionForms(props: DecisionFormsProps) {
  const { review } = props;
  const values = props.values ?? {};
  const offered = new Set(review.actions);
  const judging = review.actions.some((action) => JUDGING_ACTIONS.has(action));
  return (
    <section id="decide">
      <form
        method="post"
        action={`/reviews/${encodeURIComponent(review.threadId)}/decisions`}
        class="decision"
        id="decision-form"
      >
        <input type="hidden" name="_csrf" value={props.csrf} />
        <input type="hidden" name="interruptId" value={review.interruptId} />
        {/* The form's default button: Enter in a text field submits nothing. */}
        <button type="submit" class="enter-guard" disabled hidden />
        <h2>Your decision</h2>
        {judging ? <CorrectionFields review={review} values={values} /> : null}
        {judging ? <Comment comment={values.comment} /> : null}
        <div class="choices">
          {offered.has("approve") ? <Approve /> : null}
          {offered.has("revise") ? <Revise feedback={values.feedback} /> : null}
          {offered.has("edit") ? (
            <Edit
              review={review}
              content={values.content ?? review.content}
              draft={props.editDraft}
            />
          ) : null}
          {offered.has("retry") ? <Retry /> : null}
        </div>
      </form>
    </section>
  );
}
