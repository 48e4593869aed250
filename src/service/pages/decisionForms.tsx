/**
 * A review's one decision form, so the score corrections and comment entered once go with
 * whichever decision is chosen: each offered decision is a submit button named `action`, its own
 * fields beside it. Plain HTML, no script.
 */
import type { Child } from "hono/jsx";
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

/** One decision: its heading, its own fields, and the submit button named `action`. */
function Choice(props: { action: string; heading: string; button: string; children: Child }) {
  const { action } = props;
  return (
    <div class="choice" id={action}>
      <h3>{props.heading}</h3>
      {props.children}
      <button
        type="submit"
        name="action"
        value={action}
        class={action === "approve" ? "primary" : undefined}
        id={`${action}-button`}
      >
        {props.button}
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
          {offered.has("approve") ? (
            <Choice action="approve" heading="Approve" button="Approve and go on">
              <p class="muted">The content goes on as it is.</p>
            </Choice>
          ) : null}
          {offered.has("revise") ? (
            <Choice
              action="revise"
              heading="Ask for a revision"
              button="Send back with this feedback"
            >
              <label for="revise-feedback">
                What the writer should change (needed to send it back)
              </label>
              <textarea
                id="revise-feedback"
                name="feedback"
                maxlength={REVIEW_LIMITS.feedbackChars}
              >
                {values.feedback ?? ""}
              </textarea>
            </Choice>
          ) : null}
          {offered.has("edit") ? (
            <Choice action="edit" heading="Edit in place" button="Save my edit and go on">
              <EditContentFields
                content={values.content ?? review.content}
                type={reviewContentType(review)}
                draft={props.editDraft}
              />
            </Choice>
          ) : null}
          {offered.has("retry") ? (
            <Choice action="retry" heading="Try again" button="Retry">
              <p class="muted">Run the step that failed once more.</p>
            </Choice>
          ) : null}
        </div>
      </form>
    </section>
  );
}
