/**
 * The HTML report: one self-contained file — inline CSS and inline SVG bars, no script, no
 * external asset, and a Content-Security-Policy that forbids loading anything. Every piece of
 * result text is escaped: it repeats what the judge said about untrusted content.
 */
import type { CriterionResult, EvaluationResult } from "../../scoring/result.js";
import { panelLine, quoteLines } from "./panelEvidence.js";
import { criterionRow, overallFacts, reportTitle, resultLists, summaryText } from "./summary.js";
import { formatScore } from "./text.js";

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

const BAR_WIDTH = 320;
const BAR_HEIGHT = 22;

const STYLE = `
:root { --met: #2f7d32; --unmet: #c62828; --none: #9e9e9e; --ink: #1d2329; --muted: #5f6b76;
  --line: #dde3e8; --track: #eef1f4; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
body { color: var(--ink); margin: 2rem auto; max-width: 60rem; padding: 0 1rem; line-height: 1.45; }
h1 { font-size: 1.5rem; margin-bottom: .25rem; }
h2 { font-size: 1.15rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; margin-top: 2rem; }
.badge { display: inline-block; padding: .15rem .6rem; border-radius: 1rem; font-weight: 600;
  color: #fff; margin-right: .4rem; }
.badge.passed { background: var(--met); } .badge.failed { background: var(--unmet); }
.badge.neutral { background: var(--muted); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; font-weight: 600; }
.bar-row { display: grid; grid-template-columns: 16rem ${BAR_WIDTH}px 8rem; align-items: center;
  gap: .75rem; margin: .3rem 0; }
.bar-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.bar-value { font-variant-numeric: tabular-nums; color: var(--muted); }
svg.bar .track { fill: var(--track); } svg.bar .fill.met { fill: var(--met); }
svg.bar .fill.unmet { fill: var(--unmet); } svg.bar .threshold { stroke: var(--ink); stroke-width: 2; }
svg.bar .none { fill: var(--none); font-size: 11px; }
article.criterion { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem;
  margin: .75rem 0; }
article.criterion h3 { margin: 0 0 .25rem; font-size: 1rem; }
article.criterion .meta { color: var(--muted); font-size: .9rem; margin: 0 0 .5rem; }
article.criterion.met { border-left: 4px solid var(--met); }
article.criterion.unmet { border-left: 4px solid var(--unmet); }
article.criterion.none { border-left: 4px solid var(--none); }
.hits li::marker { content: "+ "; color: var(--met); }
.misses li::marker { content: "− "; color: var(--unmet); }
.error { color: var(--unmet); }
.feedback { white-space: pre-line; }
footer { color: var(--muted); font-size: .85rem; margin-top: 2rem; }
`;

function stateOf(criterion: CriterionResult): "met" | "unmet" | "none" {
  if (criterion.met === null) return "none";
  return criterion.met ? "met" : "unmet";
}

/** One criterion's score against its threshold, as an inline SVG bar. */
function scoreBar(criterion: CriterionResult): string {
  const state = stateOf(criterion);
  const thresholdX = Math.round(criterion.threshold * BAR_WIDTH * 10) / 10;
  const label =
    criterion.score === null
      ? `${criterion.id}: not evaluated, threshold ${formatScore(criterion.threshold)}`
      : `${criterion.id}: score ${formatScore(criterion.score)}, threshold ${formatScore(criterion.threshold)}`;
  const fill =
    criterion.score === null
      ? `<text class="none" x="8" y="15">not evaluated</text>`
      : `<rect class="fill ${state}" x="0" y="5" width="${Math.round(criterion.score * BAR_WIDTH * 10) / 10}" height="12" rx="3"/>`;
  return [
    `<svg class="bar" data-criterion="${escapeHtml(criterion.id)}" role="img" aria-label="${escapeHtml(label)}" width="${BAR_WIDTH}" height="${BAR_HEIGHT}" viewBox="0 0 ${BAR_WIDTH} ${BAR_HEIGHT}">`,
    `<rect class="track" x="0" y="5" width="${BAR_WIDTH}" height="12" rx="3"/>`,
    fill,
    `<line class="threshold" x1="${thresholdX}" x2="${thresholdX}" y1="1" y2="${BAR_HEIGHT - 1}"/>`,
    "</svg>",
  ].join("");
}

function list(className: string, title: string, items: readonly string[]): string {
  if (items.length === 0) return "";
  const entries = items.map((item) => `<li>${escapeHtml(item)}</li>`).join("");
  return `<h4>${escapeHtml(title)}</h4><ul class="${className}">${entries}</ul>`;
}

function criterionCard(criterion: CriterionResult): string {
  const row = criterionRow(criterion);
  const meta = [
    `method ${row.method}`,
    `weight ${Number(criterion.weight.toFixed(4))}`,
    `native ${row.native}`,
    `score ${row.score} / threshold ${row.threshold}`,
    `met ${row.met}`,
  ].join(" · ");
  const parts = [
    `<article class="criterion ${stateOf(criterion)}" id="criterion-${escapeHtml(criterion.id)}">`,
    `<h3>${escapeHtml(row.criterion)}</h3>`,
    `<p class="meta">${escapeHtml(meta)}</p>`,
    criterion.judgeError === undefined
      ? ""
      : `<p class="error">${escapeHtml(criterion.judgeError)}</p>`,
    criterion.reasoning.trim() === ""
      ? ""
      : `<p class="reasoning">${escapeHtml(criterion.reasoning)}</p>`,
    list("hits", "Hits", criterion.hits),
    list("misses", "Misses", criterion.misses),
    list("evidence", "Evidence", criterion.evidence),
    list("panel", "Panel", panelLine(criterion) === undefined ? [] : [panelLine(criterion) ?? ""]),
    list("quotes", "Quotes", quoteLines(criterion)),
    criterion.citation === undefined
      ? ""
      : `<p class="meta">Source: ${escapeHtml(criterion.citation)}</p>`,
    "</article>",
  ];
  return parts.filter((part) => part !== "").join("\n");
}

export function renderHtmlReport(result: EvaluationResult): string {
  const title = reportTitle(result);
  const badges = [
    `<span class="badge ${result.passed ? "passed" : "failed"}">${result.passed ? "passed" : "not passed"}</span>`,
    `<span class="badge neutral">verdict: ${escapeHtml(result.verdict)}</span>`,
    result.status === undefined
      ? ""
      : `<span class="badge neutral">${escapeHtml(result.status)}</span>`,
  ].join("");
  const facts = overallFacts(result)
    .map((fact) => `<dt>${escapeHtml(fact.label)}</dt><dd>${escapeHtml(fact.value)}</dd>`)
    .join("\n");
  const bars = result.criteria
    .map((criterion) => {
      const row = criterionRow(criterion);
      const value =
        criterion.score === null ? `— / ${row.threshold}` : `${row.score} / ${row.threshold}`;
      return [
        `<div class="bar-row">`,
        `<span class="bar-label" title="${escapeHtml(row.criterion)}">${escapeHtml(row.criterion)}</span>`,
        scoreBar(criterion),
        `<span class="bar-value">${escapeHtml(value)}</span>`,
        "</div>",
      ].join("");
    })
    .join("\n");
  const lists = resultLists(result)
    .map(
      (entry) =>
        `<h2>${escapeHtml(entry.title)}</h2>\n<ul>${entry.items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p>${badges}</p>
</header>
<section class="overview">
<dl class="facts">
${facts}
</dl>
</section>
<section class="chart">
<h2>Scores against thresholds</h2>
${bars}
</section>
<section class="summary">
<h2>Summary</h2>
<p class="feedback">${escapeHtml(summaryText(result))}</p>
</section>
<section class="criteria">
<h2>Criteria</h2>
${result.criteria.map(criterionCard).join("\n")}
</section>
${lists}
<footer>Evaluated ${escapeHtml(result.timestamp)} by ${escapeHtml(result.evaluator)}; ${result.usage.totalTokens} tokens (${result.usage.inputTokens} in, ${result.usage.outputTokens} out).</footer>
</body>
</html>
`;
}
