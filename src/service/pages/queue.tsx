/** The queue's tabs: the pending reviews this reviewer may decide, and the finished proposals. */
import type { ReviewPage, ThreadListPage } from "../../desk/answers.js";
import type { ErrorBody } from "../errors.js";
import { stageName } from "../statusWords.js";
import { DataTable, Layout, type SignedIn, Time } from "./layout.js";
import { formatScore } from "./scoreChart.js";
import { StartProposalForm, type StartProposalValues } from "./startProposalForm.js";

/** The tabs above the queue (and, for admins, calibration). */
type QueueTab = "waiting" | "finished" | "calibration";

export function QueueTabs(props: { current: QueueTab; admin: boolean }) {
  const tab = (name: QueueTab, href: string, label: string) => (
    <a href={href} class="tab" aria-current={props.current === name ? "page" : undefined}>
      {label}
    </a>
  );
  return (
    <nav class="tabs" aria-label="Proposals">
      {tab("waiting", "/reviews", "Waiting for review")}
      {tab("finished", "/proposals/finished", "Finished")}
      {props.admin ? tab("calibration", "/calibration", "Calibration") : null}
    </nav>
  );
}

export function PassedBadge(props: { passed: boolean | null }) {
  if (props.passed === null) return <span class="muted">not judged</span>;
  return props.passed ? <span class="pass">passed</span> : <span class="fail">not passed</span>;
}

/** What an empty queue says: how work arrives, and what this reader can do to start some. */
function EmptyQueue() {
  return (
    <div id="queue-empty">
      <p>Nothing is waiting for your review right now.</p>
      <p class="muted">
        Proposals arrive here when a run pauses for review: each stage is written, judged, and then
        waits for a reviewer it is assigned to. Start one with the form below, or from a terminal
        with <code>npx evalgate run rfp.md --applicant applicant.md</code> on this service's
        database. Finished proposals are under <a href="/proposals/finished">Finished</a>.
      </p>
    </div>
  );
}

export function QueuePage(
  props: SignedIn & {
    page: ReviewPage;
    /** An administrator: the calibration tab. */
    admin?: boolean;
    /** The start form as it was sent, and why it was refused. */
    start?: { values: StartProposalValues; error: ErrorBody["error"] };
  },
) {
  const { items, nextCursor } = props.page;
  const admin = props.admin === true;
  return (
    <Layout title="Reviews" reviewer={props.reviewer} csrf={props.csrf}>
      <QueueTabs current="waiting" admin={admin} />
      <section>
        <h1>Reviews waiting for you</h1>
        {items.length === 0 ? (
          <EmptyQueue />
        ) : (
          <DataTable
            items={items}
            columns={{
              Proposal: (item) => (
                <a href={`/reviews/${encodeURIComponent(item.threadId)}`}>{item.title}</a>
              ),
              Stage: (item) => stageName(item.stage),
              Score: (item) => formatScore(item.overallScore),
              Gate: (item) => <PassedBadge passed={item.passed} />,
              "Waiting since": (item) => <Time iso={item.createdAt} />,
            }}
          />
        )}
        {nextCursor !== null ? (
          <p>
            <a href={`/reviews?cursor=${encodeURIComponent(nextCursor)}`}>Older reviews →</a>
          </p>
        ) : null}
      </section>
      <StartProposalForm
        csrf={props.csrf}
        values={props.start?.values}
        error={props.start?.error}
      />
    </Layout>
  );
}

/** The finished proposals this reviewer may read (an administrator: all), last finished first. */
const threadPath = (item: { threadId: string }) => `/threads/${encodeURIComponent(item.threadId)}`;

export function FinishedPage(
  props: SignedIn & {
    page: ThreadListPage;
    admin: boolean;
  },
) {
  const { items, nextCursor } = props.page;
  return (
    <Layout title="Finished proposals" reviewer={props.reviewer} csrf={props.csrf}>
      <QueueTabs current="finished" admin={props.admin} />
      <section>
        <h1>Finished proposals</h1>
        {items.length === 0 ? (
          <p class="muted" id="finished-empty">
            No proposal is finished yet. A proposal is finished once every one of its stages is
            approved; until then it is in the reviews waiting.
          </p>
        ) : (
          <DataTable
            id="finished"
            items={items}
            columns={{
              Proposal: (item) => <a href={`${threadPath(item)}/proposal`}>{item.title}</a>,
              Finished: (item) => <Time iso={item.finishedAt} />,
              History: (item) => <a href={threadPath(item)}>Stages and decisions</a>,
            }}
          />
        )}
        {nextCursor !== null ? (
          <p>
            <a href={`/proposals/finished?cursor=${encodeURIComponent(nextCursor)}`}>
              Finished earlier →
            </a>
          </p>
        ) : null}
      </section>
    </Layout>
  );
}
