/** The finished proposals this reviewer may read (an administrator: all), last finished first. */
import type { ThreadListPage } from "../../desk/answers.js";
import { Layout } from "./layout.js";
import { QueueTabs } from "./queueTabs.js";
import { Time } from "./time.js";

export function FinishedPage(props: {
  reviewer: string;
  csrf: string;
  page: ThreadListPage;
  admin: boolean;
}) {
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
          <table class="queue" id="finished">
            <thead>
              <tr>
                <th>Proposal</th>
                <th>Finished</th>
                <th>History</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => {
                const thread = `/threads/${encodeURIComponent(item.threadId)}`;
                return (
                  <tr>
                    <td>
                      <a href={`${thread}/proposal`}>{item.title}</a>
                    </td>
                    <td>
                      <Time iso={item.finishedAt} />
                    </td>
                    <td>
                      <a href={thread}>Stages and decisions</a>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
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
