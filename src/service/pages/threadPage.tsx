/**
 * A proposal's thread: status, stage scores, decisions. As the progress page it follows the thread
 * until its next review is ready (a script on the event stream; without one, a meta refresh).
 */
import type { DecisionRecord, ThreadStatus, ThreadTraces } from "../../desk/answers.js";
import { decisionName, stageName, statusName } from "../statusWords.js";
import { RecordedCorrections } from "./correctionFields.js";
import { AdminDetails, DataTable, Layout, type SignedIn, Time } from "./layout.js";
import { PassedBadge } from "./queue.js";
import { formatScore } from "./scoreChart.js";
import { TraceSection } from "./traceSection.js";

interface ThreadPageProps extends SignedIn {
  thread: ThreadStatus;
  /** The progress page's: where the event stream starts, its own address, what the run does now. */
  progress?: { eventsUrl: string; selfUrl: string; now?: string };
  traces?: ThreadTraces;
  admin?: boolean;
}

const REFRESH_SECONDS = 3;

function Stages(props: { thread: ThreadStatus }) {
  return (
    <DataTable
      id="stages"
      items={props.thread.stages}
      columns={{
        Stage: (stage) => stageName(stage.stage),
        Status: (stage) => statusName(stage.status),
        Score: (stage) =>
          formatScore(stage.overallScore) +
          (stage.status === "edited" && stage.overallScore !== null ? " (before the edit)" : ""),
        Gate: (stage) => <PassedBadge passed={stage.passed} />,
      }}
    />
  );
}

/** What the run does, never the status word said above it. */
const PROGRESS_HEADINGS: Readonly<Record<ThreadStatus["status"], string>> = {
  queued: "Working on the next step…",
  running: "Working on the next step…",
  waiting: "The next review is ready",
  finished: "Every stage is done",
  failed: "The run stopped",
  stopped: "The run was stopped before it was done",
};

function Progress(props: { thread: ThreadStatus; selfUrl: string; now?: string }) {
  const waiting = props.thread.status === "queued" || props.thread.status === "running";
  return (
    <section class="notice" id="progress">
      <h2>{PROGRESS_HEADINGS[props.thread.status]}</h2>
      <p id="progress-now">{waiting ? (props.now ?? "") : ""}</p>
      <ol class="progress-log" id="progress-log" />
      <p>
        {waiting ? "This page moves on by itself when the next review is ready. " : ""}
        <a href={props.selfUrl} id="reload">
          Reload
        </a>
      </p>
    </section>
  );
}

/**
 * Retry, offered on a failed thread (and going on, on a stopped one: it runs on from its last
 * step): it runs again once, whoever asks at the same time.
 */
function RetryThreadForm(props: { thread: ThreadStatus; csrf: string }) {
  const { thread } = props;
  const stopped = thread.status === "stopped";
  if (!stopped && thread.status !== "failed") return null;
  const refused = thread.decisions.findLast(
    (d) => d.refusedAt !== undefined && d.appliedAt === undefined,
  );
  const says = stopped
    ? "Its run was stopped before it was done. Go on from the last finished step."
    : refused === undefined
      ? "Run the step that failed once more, from the last saved point."
      : `The run could not take ${refused.reviewer}'s decision (${decisionName(refused.action)} ` +
        `${stageName(refused.stage)}). Retrying sets that decision aside and asks for the ` +
        "review again.";
  return (
    <form
      method="post"
      action={`/threads/${encodeURIComponent(thread.threadId)}/retry`}
      class="decision"
      id="retry-thread-form"
    >
      <h2>{stopped ? "Go on" : "Try again"}</h2>
      <input type="hidden" name="_csrf" value={props.csrf} />
      <p class="muted">{says}</p>
      <p>
        <button type="submit">{stopped ? "Go on" : "Retry"}</button>
      </p>
    </form>
  );
}

/* A thread's decisions, oldest first, and whether the run has taken each one yet. */
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

export function ThreadPage(props: ThreadPageProps) {
  const { thread, progress } = props;
  const following = progress !== undefined && thread.status !== "finished";
  const head = following ? (
    <noscript>
      <meta http-equiv="refresh" content={String(REFRESH_SECONDS)} />
    </noscript>
  ) : undefined;
  return (
    <Layout
      title={thread.title}
      reviewer={props.reviewer}
      csrf={props.csrf}
      head={head}
      scripts={following ? ["/assets/progress.js"] : []}
    >
      <section id="thread" data-events-url={following ? progress.eventsUrl : undefined}>
        <h1>{thread.title}</h1>
        <p>
          Status: <strong id="thread-status">{statusName(thread.status)}</strong>
          {thread.error !== undefined ? (
            <span class="error" id="thread-error">
              {" "}
              — the run stopped on an error
              {props.admin === true ? "" : "; an administrator can see what went wrong"}.
            </span>
          ) : null}
        </p>
        <AdminDetails
          admin={props.admin === true}
          id="thread-error-details"
          items={thread.error === undefined ? [] : [thread.error]}
        />
        <p class="muted">Reviewers: {thread.reviewers.join(", ")}</p>
        <p id="proposal-link">
          <a href={`/threads/${encodeURIComponent(thread.threadId)}/proposal`}>
            {thread.status === "finished" ? "Read the proposal" : "Read the draft so far"}
          </a>
        </p>
      </section>
      <RetryThreadForm thread={thread} csrf={props.csrf} />
      {progress !== undefined ? (
        <Progress thread={thread} selfUrl={progress.selfUrl} now={progress.now} />
      ) : null}
      <section>
        <h2>Stages</h2>
        <Stages thread={thread} />
      </section>
      <section>
        <h2>Decisions</h2>
        <DecisionHistory thread={thread} />
      </section>
      {props.traces !== undefined && props.admin === true ? (
        <TraceSection traces={props.traces} stages={thread.stages} />
      ) : null}
      <p>
        <a href="/reviews">Back to the queue</a>
      </p>
    </Layout>
  );
}
