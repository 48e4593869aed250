/**
 * The proposal as one HTML file that stands on its own (`evalgate show --format html`): the same
 * components as the service's proposal page, its stylesheet inline, and a Content-Security-Policy
 * that loads nothing and runs no script.
 */
import type { ProposalDocument } from "../../orchestrator/proposal/document.js";
import { htmlDocument } from "./layout.js";
import { PROPOSAL_FILE_CSS } from "./proposalStyle.js";
import { ProposalView } from "./proposalView.js";

export function renderProposalHtmlFile(document: ProposalDocument): string {
  const page = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta
          http-equiv="Content-Security-Policy"
          content="default-src 'none'; style-src 'unsafe-inline'"
        />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{document.title}</title>
        {/* Our own stylesheet, a constant: nothing of the document is in it. */}
        <style dangerouslySetInnerHTML={{ __html: PROPOSAL_FILE_CSS }} />
      </head>
      <body>
        <main>
          <ProposalView document={document} />
        </main>
      </body>
    </html>
  );
  return `${htmlDocument(page)}\n`;
}
