/** A thread's decisions, oldest first, and whether the run has taken each one yet. */
import type { DecisionRecord, ThreadStatus } from "../../desk/answers.js";
import { decisionName, stageName } from "../statusWords.js";
import { RecordedCorrections } from "./correctionFields.js";
import { Time } from "./time.js";

function DecisionState(props: { decision: DecisionRecord }) {
  const { decision } = props;
  if (decision.refusedAt !== undefined && decision.appliedAt === undefined) {
    return <span class="fail"> — the run refused it</span>;
  }
  if (decision.appliedAt === undefined) return <span class="muted"> (being applied)</span>;
  return null;
}

function EditedText(props: { content: string }) {
  const characters = [...props.content].length.toLocaleString("en-US");
  return (
    <details class="edited">
      <summary>{`The edited text (${characters} characters)`}</summary>
      <pre class="content">{props.content}</pre>
    </details>
  );
}

function DecisionEntry(props: { decision: DecisionRecord }) {
  const { decision } = props;
  return (
    <li class="decision" data-decision-id={decision.decisionId}>
      <p>
        <Time iso={decision.decidedAt} /> · <strong>{decision.reviewer}</strong>{" "}
        {decisionName(decision.action)} <em>{stageName(decision.stage)}</em>
        <DecisionState decision={decision} />
      </p>
      {decision.feedback !== undefined ? (
        <blockquote class="feedback">
          <span class="muted">Asked the writer: </span>
          {decision.feedback}
        </blockquote>
      ) : null}
      {decision.comment !== undefined ? (
        <blockquote class="comment">
          <span class="muted">Comment: </span>
          {decision.comment}
        </blockquote>
      ) : null}
      {decision.content !== undefined ? <EditedText content={decision.content} /> : null}
      <RecordedCorrections corrections={decision.corrections} />
    </li>
  );
}

export function DecisionHistory(props: { thread: ThreadStatus }) {
  const { decisions } = props.thread;
  if (decisions.length === 0) return <p class="muted">No decisions yet.</p>;
  return (
    <ol id="decisions">
      {decisions.map((decision) => (
        <DecisionEntry decision={decision} />
      ))}
    </ol>
  );
}
