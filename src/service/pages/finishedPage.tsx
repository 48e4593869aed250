/** The finished proposals this reviewer may read (an administrator: all), last finished first. */
import type { ThreadListPage } from "../../desk/answers.js";
import { DataTable } from "./dataTable.js";
import { Layout } from "./layout.js";
import { QueueTabs } from "./queueTabs.js";
import { Time } from "./time.js";

const threadPath = (item: { threadId: string }) => `/threads/${encodeURIComponent(item.threadId)}`;

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
