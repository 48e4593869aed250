/** The proposal as one HTML file that stands on its own (`evalgate show --format html`). */
import type { ProposalDocument } from "../../proposal/document.js";
import { PROPOSAL_FILE_CSS } from "./proposalStyle.js";
import { ProposalView } from "./proposalView.js";
import { renderStandaloneFile } from "./standaloneFile.js";

export function renderProposalHtmlFile(document: ProposalDocument): string {
  return renderStandaloneFile({
    title: document.title,
    css: PROPOSAL_FILE_CSS,
    body: (
      <>
        <main>
          <ProposalView document={document} />
        </main>
      </>
    ),
  });
}
