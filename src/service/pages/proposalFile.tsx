/**
 * The proposal as one HTML file that stands on its own (`evalgate show --format html`): the same
 * components as the service's proposal page, its stylesheet inline, and a Content-Security-Policy
 * that loads nothing and runs no script.
 */
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
