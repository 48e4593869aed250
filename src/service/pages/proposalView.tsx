/**
 * The proposal document: its sections, appendix A (the inputs) and B (gate records and decisions);
 * as a page of the review service with a Markdown download, and as a file on its own.
 */

import type { Child } from "hono/jsx";
import { contentForm } from "../../graph/contentFields.js";
import { structuredContentOf } from "../../graph/structuredContent.js";
import type {
  GateRecord,
  ProposalDocument,
  ProposalInputPart,
  ProposalSection,
} from "../../proposal/document.js";
import { shownScore } from "../../scoring/shownScore.js";
import { statusName } from "../statusWords.js";
import { PROPOSAL_FILE_CSS } from "./assets.js";
import { MarkdownText, StructuredContent } from "./contentView.js";
import { type Columns, DataTable, htmlDocument, Layout, type SignedIn } from "./layout.js";

function NotApproved(props: { status: string; accepted: boolean }) {
  if (props.accepted) return null;
  return <p class="muted not-approved">{`Not approved yet (${statusName(props.status)}).`}</p>;
}

function SectionView(props: { section: ProposalSection }) {
  const { section } = props;
  return (
    <section class="proposal-section" id={`section-${section.stage}`}>
      <h2>{section.title}</h2>
      {section.text === null || section.text.trim() === "" ? (
        <p class="muted">Not written yet.</p>
      ) : (
        <>
          <NotApproved status={section.status} accepted={section.accepted} />
          <MarkdownText text={section.text} />
        </>
      )}
    </section>
  );
}

function InputView(props: { part: ProposalInputPart }) {
  const { part } = props;
  const type = structuredContentOf({ contentType: part.stage, contentKind: part.shape });
  return (
    <div class="proposal-input" id={`input-${part.stage}`}>
      <h3>{part.title}</h3>
      {part.content === null || type === undefined ? (
        <p class="muted">Not written yet.</p>
      ) : (
        <>
          <NotApproved status={part.status} accepted={part.accepted} />
          <StructuredContent form={contentForm(type, part.content)} itemName={type.itemName} />
        </>
      )}
    </div>
  );
}

function Decisions(props: { gate: GateRecord }) {
  if (props.gate.decisions.length === 0) return <span class="muted">—</span>;
  return (
    <ul class="decisions">
      {props.gate.decisions.map((d) => (
        <li>
          {d.action}
          {d.reviewer === undefined ? "" : ` by ${d.reviewer}`}{" "}
          <time datetime={d.decidedAt}>{d.decidedAt.slice(0, 16).replace("T", " ")}</time>
          {d.feedback !== undefined ? `: “${d.feedback}”` : ""}
          {d.comment !== undefined ? ` (${d.comment})` : ""}
        </li>
      ))}
    </ul>
  );
}

function gateScore(gate: GateRecord): string {
  if (gate.verdict !== null && !gate.judged) return "not evaluated";
  if (gate.overallScore === null) return "—";
  return `${shownScore(gate.overallScore)}${gate.scoredBeforeEdit ? " (before the edit)" : ""}`;
}

const GATE_COLUMNS: Columns<GateRecord> = {
  Stage: (gate) => gate.title,
  Status: (gate) => statusName(gate.status),
  Score: gateScore,
  Verdict: (gate) => gate.verdict ?? "—",
  "Funding status": (gate) => gate.fundingStatus ?? "—",
  Passed: (gate) => (gate.passed === null ? "—" : gate.passed ? "yes" : "no"),
  "Judged with": (gate) => gate.judgedWith ?? "—",
  Round: (gate) => (gate.round === 0 ? "—" : String(gate.round)),
  Decisions: (gate) => <Decisions gate={gate} />,
};

const verdictClass = (gate: GateRecord) =>
  gate.verdict === "pass" ? "pass" : gate.verdict === "fail" ? "fail" : undefined;

function ErrorLists(props: { document: ProposalDocument }) {
  const { current, superseded } = props.document.errors;
  const item = (e: { stage?: string; message: string }) => (
    <li>{e.stage === undefined ? e.message : `${e.stage}: ${e.message}`}</li>
  );
  return (
    <>
      {current.length > 0 ? (
        <div id="current-errors">
          <h3>Errors</h3>
          <ul class="error">{current.map(item)}</ul>
        </div>
      ) : null}
      {superseded.length > 0 ? (
        <details id="superseded-errors">
          <summary>{`Earlier errors (${superseded.length}, superseded: the stage has moved on since)`}</summary>
          <ul class="muted">{superseded.map(item)}</ul>
        </details>
      ) : null}
    </>
  );
}

function DraftNotice(props: { document: ProposalDocument }) {
  const { document } = props;
  if (document.state === "complete") return null;
  return (
    <p class="notice draft" id="draft-notice">
      <strong>Draft.</strong> This proposal is not finished: not every stage is written and approved
      yet.
      {document.pending.length > 0
        ? ` Not yet written or approved: ${document.pending
            .map((p) => `${p.title} (${statusName(p.status)})`)
            .join(", ")}.`
        : ""}
    </p>
  );
}

/** The whole document (see the module's description). */
export function ProposalView(props: { document: ProposalDocument }) {
  const { document } = props;
  return (
    <article class="proposal" data-state={document.state}>
      <header>
        <h1>{document.title}</h1>
        {document.respondsTo === undefined ? null : (
          <p class="responds-to" id="responds-to">{`In response to ${document.respondsTo}`}</p>
        )}
        <DraftNotice document={document} />
      </header>
      {document.sections.map((section) => (
        <SectionView section={section} />
      ))}
      <section id="appendix-inputs">
        <h2>Appendix A: research, solution sought and connection pairs</h2>
        <p class="muted">What the sections were written from.</p>
        {document.inputs.map((part) => (
          <InputView part={part} />
        ))}
      </section>
      <section id="appendix-gates">
        <h2>Appendix B: gate results and decisions</h2>
        <DataTable
          class="queue gates"
          items={document.gates}
          columns={GATE_COLUMNS}
          cellClass={{ Verdict: verdictClass }}
          rowStage={(gate) => gate.stage}
        />
        <ErrorLists document={document} />
      </section>
      <p class="muted">{`Thread ${document.threadId}`}</p>
    </article>
  );
}

/** The proposal as one HTML file that stands on its own (`evalgate show --format html`). */
export function renderProposalHtmlFile(document: ProposalDocument): string {
  const body = (
    <main>
      <ProposalView document={document} />
    </main>
  );
  return renderStandaloneFile({ title: document.title, css: PROPOSAL_FILE_CSS, body });
}

export function ProposalPage(props: SignedIn & { document: ProposalDocument }) {
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

/* An HTML file on its own: its stylesheet inline, a Content-Security-Policy that loads and runs nothing. */
export function renderStandaloneFile(props: { title: string; css: string; body: Child }): string {
  const page = (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta
          http-equiv="Content-Security-Policy"
          content="default-src 'none'; style-src 'unsafe-inline'"
        />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title}</title>
        <style dangerouslySetInnerHTML={{ __html: props.css }} />
      </head>
      <body>{props.body}</body>
    </html>
  );
  return `${htmlDocument(page)}\n`;
}
