/** The queue: the pending reviews this reviewer may decide, newest first, a page at a time. */
import type { ReviewPage } from "../../orchestrator/reviewDesk.js";
import { stageName } from "../statusWords.js";
import { Layout } from "./layout.js";
import { formatScore } from "./scorePercent.js";
import { Time } from "./time.js";

// The score's words live apart so the HTML report can use the evaluation view without the queue.
export { formatScore } from "./scorePercent.js";

export function PassedBadge(props: { passed: boolean | null }) {
  if (props.passed === null) return <span class="muted">not judged</span>;
  return props.passed ? <span class="pass">passed</span> : <span class="fail">not passed</span>;
}

export function QueuePage(props: {
  reviewer: string;
  csrf: string;
  page: ReviewPage;
  /** An administrator: the queue links the calibration page. */
  admin?: boolean;
}) {
  const { items, nextCursor } = props.page;
  return (
    <Layout title="Reviews" reviewer={props.reviewer} csrf={props.csrf}>
      {props.admin === true ? (
        <nav class="admin-nav" aria-label="Administration">
          <a href="/calibration">Calibration</a>
        </nav>
      ) : null}
      <section>
        <h1>Reviews waiting for you</h1>
        {items.length === 0 ? (
          <p class="muted" id="queue-empty">
            Nothing to review right now.
          </p>
        ) : (
          <table class="queue">
            <thead>
              <tr>
                <th>Proposal</th>
                <th>Stage</th>
                <th>Score</th>
                <th>Gate</th>
                <th>Waiting since</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => (
                <tr>
                  <td>
                    <a href={`/reviews/${encodeURIComponent(item.threadId)}`}>{item.title}</a>
                  </td>
                  <td>{stageName(item.stage)}</td>
                  <td>{formatScore(item.overallScore)}</td>
                  <td>
                    <PassedBadge passed={item.passed} />
                  </td>
                  <td>
                    <Time iso={item.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {nextCursor !== null ? (
          <p>
            <a href={`/reviews?cursor=${encodeURIComponent(nextCursor)}`}>Older reviews →</a>
          </p>
        ) : null}
      </section>
    </Layout>
  );
}
