/**
 * The report formats and the progress lines, in process, on results the real engine produced from
 * a scripted judge whose answers repeat hostile content (markup, links, pipes, fences).
 */
import { describe, expect, it } from "vitest";
import type { TextOutput } from "../../src/cli/context.js";
import { createProgressReporter } from "../../src/cli/progress.js";
import { renderReport } from "../../src/cli/report/evaluationReports.js";
import { renderHtmlReport } from "../../src/cli/report/html.js";
import { escapeMarkdown, renderMarkdownReport } from "../../src/cli/report/markdown.js";
import { renderTableReport } from "../../src/cli/report/table.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import type { EvaluationProgress } from "../../src/engine/options.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { judgeOf, titleIn, userPromptOf } from "../engine/helpers.js";
import { htmlText } from "./htmlText.js";

const CATALOG = parseCatalog(
  [
    "meta{id,version,program,fundable_threshold,reject_below}:",
    'demo,1.0,"Demo <Programme>",4.0,2.0',
    "",
    "criteria[3,]{id,type,weight,title,prompt}:",
    'c1,check,1.0,"Hamburg Base","Is the company based in Hamburg?"',
    'c2,score,0.4,"Innovation","Rate the technological innovation (1-5)."',
    'c3,score,0.6,"Market","Rate the market potential (1-5)."',
  ].join("\n"),
  { format: "toon", source: "demo.toon" },
);

const HOSTILE =
  'Quoted: <script>alert("x")</script> <img src=x onerror=alert(1)> | a | b | ' +
  "[click](javascript:alert(1)) **bold** `code` & 'quotes'";

/** HOSTILE as HTML text: every markup character escaped. */
const HOSTILE_ESCAPED =
  "Quoted: &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt; | a | b | " +
  "[click](javascript:alert(1)) **bold** `code` &amp; &#39;quotes&#39;";

const LONG_REASONING = `${"The market analysis is careful and bottom-up. ".repeat(12)}END-OF-REASONING`;

/** c1 passes with hostile reasoning; c2 is 4; c3 fails the judge (an answer without a score). */
function judge(): ScriptedChatModel {
  return new ScriptedChatModel({
    responder: (messages) => {
      const title = titleIn(userPromptOf(messages));
      if (title === "Hamburg Base") return JSON.stringify({ reasoning: HOSTILE, result: "pass" });
      if (title === "Innovation") {
        return JSON.stringify({ reasoning: LONG_REASONING, score: 4, hits: [HOSTILE], misses: [] });
      }
      return "I would rather not say.";
    },
  });
}

async function evaluated(onProgress?: (event: EvaluationProgress) => void) {
  return evaluateContent({
    content: "Hafen Sensorik GmbH, Hamburg.",
    catalog: CATALOG,
    model: judgeOf(judge()),
    concurrency: 1,
    ...(onProgress === undefined ? {} : { onProgress }),
  });
}

/** A stream that records what is written to it. */
function recorder(init: { isTTY: boolean; columns?: number }): TextOutput & { text: string } {
  const stream = {
    ...init,
    text: "",
    write(chunk: string) {
      stream.text += chunk;
      return true;
    },
  };
  return stream;
}

describe("report formats", () => {
  it("html escapes every piece of result text and loads nothing", async () => {
    const result = await evaluated();
    const html = renderHtmlReport(result);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).not.toMatch(/<a\s/i);
    expect(html).toContain(HOSTILE_ESCAPED);
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    // The catalog name is escaped too.
    expect(html).toContain("Demo &lt;Programme&gt;");
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;"/>`,
    );
    // The review page's chart: a row per criterion; the one that was not evaluated says so.
    expect(html.match(/<svg class="chart"/g)).toHaveLength(1);
    expect(html.match(/<rect class="bar-(met|unmet|none)"/g)).toHaveLength(3);
    expect(html).toContain("<title>Market: not judged (score / threshold)</title>");
    // The full reasoning is in the HTML (only the table truncates it).
    expect(html).toContain("END-OF-REASONING");
  });

  it("markdown escapes markup, links and pipes so a table row stays one row", async () => {
    const result = await evaluated();
    const md = renderMarkdownReport(result);
    const c1Row = md.split("\n").find((line) => line.startsWith("| c1 "));
    expect(c1Row).toBeDefined();
    // Seven cells: the pipes in the reasoning are escaped.
    expect(c1Row?.split(/(?<!\\)\|/).length).toBe(9);
    expect(c1Row).toContain("\\<script\\>");
    expect(c1Row).toContain("\\[click\\](javascript:alert(1))");
    expect(md).not.toMatch(/(?<!\\)<script/);
    expect(escapeMarkdown("a | b")).toBe("a \\| b");
  });

  it("the table truncates the reasoning to the width and lists what was not evaluated", async () => {
    const result = await evaluated();
    const table = renderTableReport(result, { width: 100 });
    const lines = table.split("\n");
    for (const line of lines.slice(0, 6)) expect(line.length).toBeLessThanOrEqual(100);
    const c2 = lines.find((line) => line.startsWith("c2 "));
    expect(c2?.endsWith("…")).toBe(true);
    expect(table).not.toContain("END-OF-REASONING");
    expect(lines.find((line) => line.startsWith("c3 "))).toMatch(
      /^c3 Market\s+score\s+—\s+— \/ 0\.75\s+—/,
    );
    expect(lines).toContain("Not evaluated");
    expect(lines.some((line) => line.startsWith("  - c3: "))).toBe(true);
  });

  it("every format lists each suggestion once and opens its summary with the verdict's word", async () => {
    const weak = new ScriptedChatModel({
      responder: (messages) => {
        const title = titleIn(userPromptOf(messages));
        if (title === "Hamburg Base")
          return JSON.stringify({ reasoning: "Based there.", result: "pass" });
        const score = title === "Innovation" ? 2 : 3;
        return JSON.stringify({ reasoning: "Thin evidence.", score, hits: [], misses: [] });
      },
    });
    const result = await evaluateContent({
      content: "Kai Werft GmbH, Hamburg.",
      catalog: CATALOG,
      model: judgeOf(weak),
      concurrency: 1,
    });
    // Innovation 2 and Market 3 on 1–5: under the fundable 4.0, over the reject line 2.0.
    expect(result).toMatchObject({ passed: false, status: "REVIEW_REQUIRED" });
    expect(result.suggestions.length).toBe(2);
    const word = { pass: "PASSED", borderline: "BORDERLINE", fail: "FAILED" }[result.verdict];
    for (const format of ["table", "md", "html"] as const) {
      const rendered = renderReport(result, format);
      const text = format === "html" ? htmlText(rendered) : rendered;
      for (const suggestion of result.suggestions) {
        const shown = format === "md" ? escapeMarkdown(suggestion) : suggestion;
        expect(text.split(shown).length - 1, `${format}: ${suggestion}`).toBe(1);
      }
      expect(text, format).not.toContain("Suggestions for improvement");
      expect(text, format).toContain(`Evaluation ${word} for catalog`);
      for (const other of ["PASSED", "BORDERLINE", "FAILED"].filter((w) => w !== word)) {
        expect(text, format).not.toContain(`Evaluation ${other}`);
      }
    }
  });

  it("json is exactly the result", async () => {
    const result = await evaluated();
    expect(JSON.parse(renderReport(result, "json"))).toEqual(JSON.parse(JSON.stringify(result)));
  });
});

/** What the progress bar writes before each redraw: carriage return, erase the line. */
const CLEAR = "\r\x1b[2K";

describe("progress on stderr", () => {
  it("not a terminal: one plain line per criterion, no carriage returns", async () => {
    const stream = recorder({ isTTY: false });
    const reporter = createProgressReporter(stream, CATALOG);
    await evaluated(reporter.onProgress);
    expect(stream.text).not.toContain("\r");
    expect(stream.text.split("\n").filter((l) => l !== "")).toEqual([
      "evaluating 3 criteria (3 by the judge model, 0 by deterministic checks)",
      "[1/3] c1 Hamburg Base: pass → 1.00 (threshold 0.75, met)",
      "[2/3] c2 Innovation: 4 → 0.75 (threshold 0.75, met)",
      expect.stringMatching(/^\[3\/3\] c3 Market: not evaluated: /),
      "done: not passed (overall 0.75)",
    ]);
  });

  it("a terminal: a bar redrawn in place with \\r, finished lines kept, fitted to the width", async () => {
    const stream = recorder({ isTTY: true, columns: 60 });
    const reporter = createProgressReporter(stream, CATALOG);
    await evaluated(reporter.onProgress);
    reporter.finish();
    expect(stream.text).toContain(`${CLEAR}[------------------------] 0/3`);
    expect(stream.text).toContain("[########----------------] 1/3");
    expect(stream.text).toContain("judging c2");
    // What stays on screen once each redraw has cleared the bar.
    const screen = stream.text
      .split("\n")
      .map((line) => line.split(CLEAR).at(-1) ?? "")
      .filter((line) => line !== "");
    expect(screen[1]).toBe("[1/3] c1 Hamburg Base: pass → 1.00 (threshold 0.75, met)");
    expect(screen.at(-1)).toBe("done: not passed (overall 0.75)");
    for (const line of stream.text.replaceAll(CLEAR, "\n").split("\n")) {
      expect(Array.from(line).length).toBeLessThanOrEqual(59);
    }
  });
});
