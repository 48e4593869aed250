/**
 * The HTML report (`evalgate evaluate … --format html`) is drawn with the review page's own
 * components: on results the real engine made from a scripted judge, its evaluation sections are
 * the review page's, byte for byte; text a judge repeats from hostile content (markup, a closing
 * style tag, quotes, ampersands) is text, never markup; and the file runs no script.
 */
import { jsx } from "hono/jsx";
import { describe, expect, it } from "vitest";
import { renderHtmlReport } from "../../src/cli/report/html.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import type { ReviewDetail } from "../../src/desk/answers.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import type { EvaluationResult } from "../../src/scoring/result.js";
import { ReviewPage } from "../../src/service/pages/review.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { judgeOf, titleIn, userPromptOf } from "../engine/helpers.js";
import { htmlText, tagsWithHandlers } from "./htmlText.js";

/** Funding rules on the 1–5 scale: FUNDABLE from 4.0, REJECTED under 2.0. */
const PARSED = parseCatalog(
  [
    "meta{id,version,program,fundable_threshold,reject_below}:",
    'kiel-2031,2.1,"Küste & Meer <Fonds>",4.0,2.0',
    "",
    "criteria[3,]{id,type,weight,title,prompt}:",
    'seat,check,1.0,"Seat in Kiel","Is the applicant registered in Kiel?"',
    'novelty,score,0.4,"Novelty \\"A&B\\" </style>","Rate the novelty (1-5)."',
    'reach,score,0.6,"Reach","Rate the expected reach (1-5)."',
  ].join("\n"),
  { format: "toon", source: "kiel.toon" },
);

/** The catalog with a source for reach that tries to end the table cell. */
const CATALOG = {
  ...PARSED,
  criteria: PARSED.criteria.map((criterion) =>
    criterion.id === "reach"
      ? { ...criterion, citation: 'Richtlinie §4 </td><td>"Anlage" & more' }
      : criterion,
  ),
};

/** What a judge might repeat from content written to break a page. */
const HOSTILE_REASONING =
  'The draft says </style><script>alert(1)</script> and "we & they" <b onmouseover="x()">here</b>.';

/** The same sentence as escaped HTML text, written out by hand. */
const HOSTILE_ESCAPED =
  "The draft says &lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt; and &quot;we &amp; they&quot; " +
  "&lt;b onmouseover=&quot;x()&quot;&gt;here&lt;/b&gt;.";

/**
 * seat passes; novelty 4 with the hostile reasoning and hit; reach 2 — 0.4·0.75 + 0.6·0.25 = 45 %,
 * native 1.6 + 1.2 = 2.8: REVIEW_REQUIRED, not passed. With `reachFails`, reach gets no answer.
 */
async function evaluated(options: { reachFails?: boolean } = {}): Promise<EvaluationResult> {
  const judge = new ScriptedChatModel({
    responder: (messages) => {
      const title = titleIn(userPromptOf(messages)) ?? "";
      if (title === "Seat in Kiel") {
        return JSON.stringify({ reasoning: "Registered at Kiel.", result: "pass" });
      }
      if (title.startsWith("Novelty")) {
        const hits = [HOSTILE_REASONING];
        return JSON.stringify({ reasoning: HOSTILE_REASONING, score: 4, hits, misses: [] });
      }
      if (options.reachFails === true) return "<script>alert(2)</script> no score from me";
      return JSON.stringify({ reasoning: "Local reach only.", score: 2, hits: [], misses: [] });
    },
  });
  return evaluateContent({
    content: "Förde Robotik GmbH, Kiel.",
    catalog: CATALOG,
    model: judgeOf(judge),
    mode: "per-criterion",
    concurrency: 1,
  });
}

/** The review page an administrator opens for the same result. */
function reviewPageOf(evaluation: EvaluationResult): string {
  const review: ReviewDetail = {
    threadId: "thread-kiel",
    interruptId: "interrupt-1",
    stage: "solution",
    title: "Förde Robotik",
    type: "evaluation_review",
    content: "Förde Robotik GmbH, Kiel.",
    contentKind: "text",
    evaluation,
    actions: ["approve", "revise", "edit"],
    createdAt: "2031-03-04T05:06:07.000Z",
  };
  return String(jsx(ReviewPage, { reviewer: "ana", csrf: "c".repeat(32), review, admin: true }));
}

/** From the first of the evaluation view's sections to the end of its criteria section. */
function evaluationBlock(html: string): string {
  const starts = ['<section id="warnings"', '<section id="panel-evidence"', '<section id="scores"']
    .map((marker) => html.indexOf(marker))
    .filter((index) => index >= 0);
  const criteria = html.indexOf('<section id="criteria">');
  expect(starts.length, "the evaluation view's first section").toBeGreaterThan(0);
  expect(criteria, "the criteria section").toBeGreaterThan(0);
  return html.slice(
    Math.min(...starts),
    html.indexOf("</section>", criteria) + "</section>".length,
  );
}

/** The ids of the elements in a piece of HTML, in order. */
function idsIn(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]*)"/g)].map((match) => match[1] ?? "");
}

describe("the HTML report shows a result as the review page does", () => {
  it("has the review page's evaluation sections, byte for byte, in its words", async () => {
    const result = await evaluated();
    const report = renderHtmlReport(result);
    const page = reviewPageOf(result);
    expect(evaluationBlock(report)).toBe(evaluationBlock(page));
    expect(idsIn(evaluationBlock(report))).toEqual([
      "scores",
      "strengths",
      "weaknesses",
      "suggestions",
      "criteria",
    ]);
    const text = htmlText(report);
    // verdict, status and passed in the one vocabulary of the pages.
    expect(text).toContain("Overall 45%: fail, REVIEW_REQUIRED — not passed");
    expect(text).toContain("Seat in Kiel critical");
    expect(text).toContain("100% (pass), threshold 75%: met");
    expect(text).toContain("75% (4), threshold 75%: met");
    expect(text).toContain("25% (2), threshold 75%: not met");
    // What only the report adds: the summary, how each criterion is scored, the run.
    expect(idsIn(report.slice(0, report.indexOf('<section id="scores"')))).toEqual(["summary"]);
    expect(text).toContain("Evaluation FAILED for catalog");
    expect(text).toContain("native total2.8");
    expect(report).toContain(
      "<td>seat Seat in Kiel (knockout)</td><td>check</td><td>1</td><td>pass</td><td>—</td>",
    );
    expect(report).toContain(
      "<td>reach Reach</td><td>score</td><td>0.6</td><td>2</td><td>Richtlinie §4 &lt;/td&gt;&lt;td&gt;&quot;Anlage&quot; &amp; more</td>",
    );
  });

  it("with --fail-under, says the gate the exit code follows, as the other reports do", async () => {
    const result = await evaluated();
    const text = htmlText(renderHtmlReport(result, { failUnder: 0.4 }));
    // 45% reaches 0.4, and nothing the score leaves out failed: the gate holds, not passed.
    expect(text).toContain("gatepassed (--fail-under 0.4)");
    expect(text).toContain("not passed");
    expect(htmlText(renderHtmlReport(result))).not.toContain("--fail-under");
  });

  it("words a criterion the judge could not answer as the review page does", async () => {
    const result = await evaluated({ reachFails: true });
    const report = renderHtmlReport(result);
    expect(evaluationBlock(report)).toBe(evaluationBlock(reviewPageOf(result)));
    const text = htmlText(report);
    expect(text).toContain(
      "The judge could not answer for 1 criterion (Reach): it was not evaluated.",
    );
    expect(text).toContain("The judge could not answer: this criterion was not evaluated.");
    expect(text).toContain("Reach: not judged (score / threshold)");
  });
});

describe("hostile text in the HTML report", () => {
  it("a reasoning with <script>, </style>, quotes and & is text, wherever it is shown", async () => {
    const result = await evaluated();
    const report = renderHtmlReport(result);
    // The reasoning and the hit that repeats it, both escaped.
    expect(report.split(HOSTILE_ESCAPED).length - 1).toBeGreaterThanOrEqual(2);
    expect(htmlText(report)).toContain(HOSTILE_REASONING);
    // The title with quotes, & and </style> in the chart, the criteria and the table.
    expect(report).toContain("Novelty &quot;A&amp;B&quot; &lt;/style&gt;");
    expect(report).toContain("Küste &amp; Meer &lt;Fonds&gt;");
    // Only the report's own stylesheet closes a style element; no injected element or handler.
    expect(report.match(/<\/style>/gi)).toHaveLength(1);
    expect(report.match(/<style\b/gi)).toHaveLength(1);
    expect(report).not.toMatch(/<b\b/i);
    expect(tagsWithHandlers(report)).toEqual([]);
  });

  it("the file runs no script and loads nothing, also when a judge answers with markup", async () => {
    for (const result of [await evaluated(), await evaluated({ reachFails: true })]) {
      const report = renderHtmlReport(result);
      expect(report.startsWith('<!doctype html><html lang="en">')).toBe(true);
      expect(report).not.toMatch(/<script/i);
      expect(report).not.toMatch(/<(link|img|iframe|object|embed|a)\b/i);
      expect(report).not.toMatch(/\s(src|href|action)\s*=/i);
      expect(report).not.toMatch(/url\(|@import/i);
      expect(report).toContain(
        `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;"/>`,
      );
    }
  });
});

describe("the tests' own reading of tags", () => {
  it("finds a handler attribute, not a quoted value or text that reads like one", () => {
    expect(tagsWithHandlers('<p>a</p><b class="x" onclick="go()">b</b>')).toEqual([
      '<b class="x" onclick="go()">',
    ]);
    expect(
      tagsWithHandlers('<p title="a onclick=b">x onload=y</p><img src="z" onerror=f>'),
    ).toEqual(['<img src="z" onerror=f>']);
  });
});
