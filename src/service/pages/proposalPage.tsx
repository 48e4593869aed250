/** A thread's proposal, readable in the review service, with a Markdown download. */
import type { ProposalDocument } from "../../proposal/document.js";
import { Layout, type SignedIn } from "./layout.js";
import { ProposalView } from "./proposalView.js";

export interface ProposalPageProps extends SignedIn {
  document: ProposalDocument;
}

export function ProposalPage(props: ProposalPageProps) {
  const { document } = props;
  const thread = `/threads/${encodeURIComponent(document.threadId)}`;
  return (
    <Layout title={document.title} reviewer={props.reviewer} csrf={props.csrf}>
      <p id="proposal-links">
        <a href={`${thread}/proposal.md`} download id="download-proposal">
          Download as Markdown
        </a>{" "}
        · <a href={thread}>The thread: stages, decisions and judge calls</a> ·{" "}
        <a href="/reviews">Back to the queue</a>
      </p>
      <ProposalView document={document} />
    </Layout>
  );
}
