/**
 * The proposal document as HTML components (hono/jsx: every text is escaped): the sections in
 * order, appendix A (research, solution sought, connection pairs as labelled fields) and appendix B
 * (each stage's gate record and decisions). The review service's proposal page and
 * `evalgate show --format html` both draw it.
 */
import { contentForm } from "../../graph/contentFields.js";
import { structuredContentOf } from "../../graph/structuredContent.js";
import type {
  GateRecord,
  ProposalDocument,
  ProposalInputPart,
  ProposalSection,
} from "../../proposal/document.js";
import { MarkdownText, StructuredContent } from "./contentView.js";

function NotApproved(props: { status: string; accepted: boolean }) {
  if (props.accepted) return null;
  return (
    <p class="muted not-approved">{`Not approved yet (${props.status.replaceAll("_", " ")}).`}</p>
  );
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

function GateRow(props: { gate: GateRecord }) {
  const { gate } = props;
  const score =
    gate.verdict !== null && !gate.judged
      ? "not evaluated"
      : gate.overallScore === null
        ? "—"
        : `${gate.overallScore.toFixed(2)}${gate.scoredBeforeEdit ? " (before the edit)" : ""}`;
  return (
    <tr data-stage={gate.stage}>
      <td>{gate.title}</td>
      <td>{gate.status.replaceAll("_", " ")}</td>
      <td>{score}</td>
      <td class={gate.verdict === "pass" ? "pass" : gate.verdict === "fail" ? "fail" : undefined}>
        {gate.verdict ?? "—"}
      </td>
      <td>{gate.fundingStatus ?? "—"}</td>
      <td>{gate.passed === null ? "—" : gate.passed ? "yes" : "no"}</td>
      <td>{gate.round === 0 ? "—" : String(gate.round)}</td>
      <td>
        <Decisions gate={gate} />
      </td>
    </tr>
  );
}

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
            .map((p) => `${p.title} (${p.status.replaceAll("_", " ")})`)
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
        <table class="queue gates">
          <thead>
            <tr>
              <th>Stage</th>
              <th>Status</th>
              <th>Score</th>
              <th>Verdict</th>
              <th>Funding status</th>
              <th>Passed</th>
              <th>Round</th>
              <th>Decisions</th>
            </tr>
          </thead>
          <tbody>
            {document.gates.map((gate) => (
              <GateRow gate={gate} />
            ))}
          </tbody>
        </table>
        <ErrorLists document={document} />
      </section>
      <p class="muted">{`Thread ${document.threadId}`}</p>
    </article>
  );
}
