/**
 * The HTML report, with the review page's own evaluation view (escaped by hono/jsx): one file, its
 * stylesheet inline, no script, and a Content-Security-Policy that loads nothing.
 */
import type { EvaluationResult } from "../../scoring/result.js";
import { REVIEW_CSS } from "../../service/pages/assets.js";
import { EvaluationView } from "../../service/pages/evaluationView.js";
import { renderStandaloneFile } from "../../service/pages/proposalView.js";
import { criterionRow, overallFacts, reportTitle, summaryText } from "./summary.js";

/** What the report adds to the review pages' stylesheet (no rule loads anything). */
const REPORT_CSS = `
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .6rem 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; font-weight: 600; }
p.feedback { white-space: pre-line; }
table.criteria-table { width: 100%; border-collapse: collapse; }
table.criteria-table th, table.criteria-table td { text-align: left; padding: .35rem .45rem;
  border-bottom: 1px solid var(--line); vertical-align: top; }
footer.report { color: var(--muted); font-size: .85rem; margin: 1rem 0 2rem; }
`;

/** The report's whole stylesheet: the review pages' look, then the report's own rules. */
const REPORT_FILE_CSS = `${REVIEW_CSS}${REPORT_CSS}`;

/** The run's facts that the evaluation view does not show (the gate: with --fail-under). */
const RUN_FACTS = new Set(["native total", "gate", "model", "cache hits"]);

function ReportSummary(props: { result: EvaluationResult; failUnder?: number }) {
  const { result } = props;
  const facts = overallFacts(result, props.failUnder).filter((fact) => RUN_FACTS.has(fact.label));
  return (
    <section id="summary">
      <h1>{reportTitle(result)}</h1>
      <p class="feedback">{summaryText(result)}</p>
      {facts.length > 0 ? (
        <dl class="facts">
          {facts.map((fact) => (
            <>
              <dt>{fact.label}</dt>
              <dd>{fact.value}</dd>
            </>
          ))}
        </dl>
      ) : null}
    </section>
  );
}

/** How each criterion is scored: method, weight, knockout or critical, the catalog's source. */
function CriteriaTable(props: { result: EvaluationResult }) {
  return (
    <section id="criteria-table">
      <h2>How each criterion is scored</h2>
      <table class="criteria-table">
        <thead>
          <tr>
            <th>Criterion</th>
            <th>Method</th>
            <th>Weight</th>
            <th>Native value</th>
            <th>Source</th>
          </tr>
        </thead>
        <tbody>
          {props.result.criteria.map((criterion) => {
            const row = criterionRow(criterion);
            return (
              <tr id={`criterion-${criterion.id}`}>
                <td>{row.criterion}</td>
                <td>{row.method}</td>
                <td>{String(Number(criterion.weight.toFixed(4)))}</td>
                <td>{row.native}</td>
                <td>{criterion.citation ?? "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

export function renderHtmlReport(
  result: EvaluationResult,
  options: { failUnder?: number } = {},
): string {
  const { usage } = result;
  return renderStandaloneFile({
    title: reportTitle(result),
    css: REPORT_FILE_CSS,
    body: (
      <>
        <main>
          <ReportSummary result={result} failUnder={options.failUnder} />
          {/* The reader ran the evaluation: the engine's own texts are shown, collapsed. */}
          <EvaluationView evaluation={result} admin={true} />
          <CriteriaTable result={result} />
          <footer class="report">
            {`Evaluated ${result.timestamp} by ${result.evaluator}; ${usage.totalTokens} tokens (${usage.inputTokens} in, ${usage.outputTokens} out).`}
          </footer>
        </main>
      </>
    ),
  });
}
