/**
 * What the judge said about the content: warnings (possible prompt injection first, loudly), the
 * score chart against thresholds, strengths, weaknesses, suggestions, and each criterion's
 * reasoning with its hits, misses and evidence.
 */
import type { CriterionResult, EvaluationResult } from "../../scoring/result.js";
import { CriterionPanelAndQuotes, PanelEvidenceSummary } from "./panelEvidenceView.js";
import { formatScore } from "./queue.js";
import { ScoreChart } from "./scoreChart.js";

function isInjectionWarning(warning: string): boolean {
  return /prompt injection/i.test(warning);
}

/** Injection warnings first, then the rest in their order. */
export function orderedWarnings(warnings: readonly string[]): string[] {
  return [
    ...warnings.filter(isInjectionWarning),
    ...warnings.filter((w) => !isInjectionWarning(w)),
  ];
}

function Warnings(props: { evaluation: EvaluationResult }) {
  const warnings = orderedWarnings(props.evaluation.warnings);
  const reasons = props.evaluation.humanReviewReasons ?? [];
  const injection = reasons.some(isInjectionWarning) || warnings.some(isInjectionWarning);
  if (warnings.length === 0 && !injection) return null;
  return (
    <section
      class={injection ? "alert warnings" : "notice warnings"}
      role={injection ? "alert" : undefined}
    >
      <h2>{injection ? "Possible prompt injection: read the content yourself" : "Warnings"}</h2>
      {injection ? (
        <p>
          The content looks like it addresses the judge. The scores below may have been steered;
          this review cannot pass without your decision.
        </p>
      ) : null}
      <ul>
        {warnings.map((warning) => (
          <li class={isInjectionWarning(warning) ? "injection" : undefined}>{warning}</li>
        ))}
      </ul>
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
  return `${formatScore(criterion.score)}${native}, threshold ${formatScore(criterion.threshold)}: ${met}`;
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
      {criterion.judgeError !== undefined ? <p class="error">{criterion.judgeError}</p> : null}
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

export function EvaluationView(props: { evaluation: EvaluationResult }) {
  const { evaluation } = props;
  return (
    <>
      <Warnings evaluation={evaluation} />
      <PanelEvidenceSummary evaluation={evaluation} />
      <section id="scores">
        <h2>
          Overall {formatScore(evaluation.overallScore)}: {evaluation.verdict}
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
