/** What the judge said: the notices first (a possible injection loudly), the chart, each criterion. */

import { agreementText, missingAnswers } from "../../scoring/agreement.js";
import type { CriterionResult, EvaluationResult } from "../../scoring/result.js";
import { shownOverall, shownThreshold } from "../../scoring/shownScore.js";
import { AdminDetails } from "./layout.js";
import { type ReviewerNotice, reviewerNotices, technicalNotes } from "./reviewerNotices.js";
import { formatScore, ScoreChart } from "./scoreChart.js";

/** Why the result is held for review is said once, in the review page's notices. */
function PanelEvidenceSummary(props: { evaluation: EvaluationResult }) {
  const { panel, evidence } = props.evaluation;
  if (panel === undefined && evidence === undefined) return null;
  return (
    <section id="panel-evidence" class="notice">
      {panel !== undefined ? (
        <p id="panel-agreement">
          Panel of {panel.judges.length} ({panel.judges.join(", ")}), {panel.aggregate}: agreement α{" "}
          {agreementText(panel.agreement)}
          {panel.minAgreement === undefined ? "" : ` (minimum ${panel.minAgreement})`}
          {panel.gaps === 0 ? "" : `, ${missingAnswers(panel.gaps)}`}
        </p>
      ) : null}
      {evidence !== undefined ? (
        <p id="quote-check">
          Quotes: {evidence.verified} of {evidence.quotes} found in the content
          {evidence.unverified === 0 ? "" : `, ${evidence.unverified} not found`}
        </p>
      ) : null}
    </section>
  );
}

function CriterionPanelAndQuotes(props: { criterion: CriterionResult }) {
  const { panel, quotes } = props.criterion;
  return (
    <>
      {panel !== undefined ? (
        <p class="panel">
          Judges ({panel.aggregate}, agreement {agreementText(panel.agreement)}, {panel.metric}):{" "}
          {panel.answers
            .map((a) => `${a.judge} ${a.evaluated ? String(a.native) : "no answer"}`)
            .join("; ")}
        </p>
      ) : null}
      {quotes?.length ? (
        <ul class="quotes">
          {quotes.map((q) => (
            <li class={q.verified ? "pass" : "fail"}>
              {q.verified ? "found" : "NOT FOUND in the content"}
              {q.judge === undefined ? "" : ` (${q.judge})`}: “{q.text}”
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}

function noticesHeading(notices: readonly ReviewerNotice[]): string {
  if (notices.some((n) => n.kind === "injection")) {
    return "Possible prompt injection: read the content yourself";
  }
  return notices.some((n) => n.alert) ? "Read the content yourself" : "Before you decide";
}

/** The one box of notices (nothing when there is nothing to say). */
function Notices(props: { evaluation: EvaluationResult; admin: boolean }) {
  const notices = reviewerNotices(props.evaluation);
  const technical = technicalNotes(props.evaluation);
  if (notices.length === 0 && !(props.admin && technical.length > 0)) return null;
  const alert = notices.some((n) => n.alert);
  return (
    <section
      id="warnings"
      class={alert ? "alert warnings" : "notice warnings"}
      role={alert ? "alert" : undefined}
    >
      <h2>{noticesHeading(notices)}</h2>
      {notices.length > 0 ? (
        <ul>
          {notices.map((notice) => (
            <li class={notice.alert ? "injection" : undefined} data-kind={notice.kind}>
              {notice.text}
              {notice.passages.length > 0 ? (
                <ul class="passages">
                  {notice.passages.map((passage) => (
                    <li>
                      <q>{passage}</q>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">Nothing for reviewers.</p>
      )}
      <AdminDetails admin={props.admin} id="warning-details" items={technical} />
    </section>
  );
}

function TextList(props: { title: string; items: readonly string[]; id: string }) {
  return (
    <div id={props.id}>
      <h2>{props.title}</h2>
      {props.items.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <ul>
          {props.items.map((item) => (
            <li>{item}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

function criterionValue(criterion: CriterionResult): string {
  if (!criterion.evaluated) return "not judged";
  const native = criterion.native === null ? "" : ` (${String(criterion.native)})`;
  const met = criterion.met ? "met" : "not met";
  return `${formatScore(criterion.score, criterion.threshold)}${native}, threshold ${shownThreshold(criterion.threshold, "percent")}: ${met}`;
}

function CriterionDetail(props: { criterion: CriterionResult }) {
  const { criterion } = props;
  return (
    <div class="criterion">
      <h3>
        {criterion.title} {criterion.critical ? <span class="fail">critical</span> : null}
      </h3>
      <p class={criterion.met === false ? "fail" : criterion.met ? "pass" : "muted"}>
        {criterionValue(criterion)}
      </p>
      {criterion.judgeError !== undefined ? (
        <p class="error">The judge could not answer: this criterion was not evaluated.</p>
      ) : null}
      <p>{criterion.reasoning}</p>
      {criterion.hits.length > 0 ? <p>Hits: {criterion.hits.join("; ")}</p> : null}
      {criterion.misses.length > 0 ? <p>Misses: {criterion.misses.join("; ")}</p> : null}
      {criterion.evidence.length > 0 ? (
        <p class="muted">Evidence: {criterion.evidence.join("; ")}</p>
      ) : null}
      <CriterionPanelAndQuotes criterion={criterion} />
    </div>
  );
}

export function EvaluationView(props: { evaluation: EvaluationResult; admin?: boolean }) {
  const { evaluation } = props;
  return (
    <>
      <Notices evaluation={evaluation} admin={props.admin === true} />
      <PanelEvidenceSummary evaluation={evaluation} />
      <section id="scores">
        <h2>
          Overall {shownOverall(evaluation, "percent")}: {evaluation.verdict}
          {evaluation.status !== undefined ? `, ${evaluation.status}` : ""} —{" "}
          <span class={evaluation.passed ? "pass" : "fail"}>
            {evaluation.passed ? "passed" : "not passed"}
          </span>
        </h2>
        <ScoreChart evaluation={evaluation} />
      </section>
      <section class="columns">
        <TextList id="strengths" title="Strengths" items={evaluation.strengths} />
        <TextList id="weaknesses" title="Weaknesses" items={evaluation.weaknesses} />
        <TextList id="suggestions" title="Suggestions" items={evaluation.suggestions} />
      </section>
      <section id="criteria">
        <h2>Criteria</h2>
        {evaluation.criteria.map((criterion) => (
          <CriterionDetail criterion={criterion} />
        ))}
      </section>
    </>
  );
}
