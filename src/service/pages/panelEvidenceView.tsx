/** A panel's answers and agreement, and the judges' quotes marked found or not in the content. */
import type { CriterionResult, EvaluationResult } from "../../scoring/result.js";

function agreementText(value: number | null): string {
  return value === null ? "n/a" : String(value);
}

/** Why the result is held for review is said once, in the review page's notices. */
export function PanelEvidenceSummary(props: { evaluation: EvaluationResult }) {
  const { panel, evidence } = props.evaluation;
  if (panel === undefined && evidence === undefined) return null;
  return (
    <section id="panel-evidence" class="notice">
      {panel !== undefined ? (
        <p id="panel-agreement">
          Panel of {panel.judges.length} ({panel.judges.join(", ")}), {panel.aggregate}: agreement α{" "}
          {agreementText(panel.agreement)}
          {panel.minAgreement === undefined ? "" : ` (minimum ${panel.minAgreement})`}
          {panel.gaps === 0 ? "" : `, ${panel.gaps} missing answers`}
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

export function CriterionPanelAndQuotes(props: { criterion: CriterionResult }) {
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
