/**
 * Markdown on the pages, in `show --format html` and in the proposal file, drawn by markdown-it:
 * a GFM table is a table, raw HTML stays text, a link only goes to http, https or mailto (a
 * `javascript:` or `data:` link stays the words it was written as), an image loads nothing, and a
 * section's headings sit under the page's own.
 */
import { describe, expect, it } from "vitest";
import { markdownHtml } from "../../src/service/pages/contentView.js";

const BUDGET = [
  "## Budget",
  "",
  "| Item | Amount |",
  "|---|---:|",
  "| Retrofit crews | $120,000 |",
  "| Sensors <script>x()</script> | $30,000 |",
].join("\n");

describe("markdownHtml", () => {
  it("draws a GFM table as a table inside its own scrolling container", () => {
    const html = markdownHtml(BUDGET);
    expect(html).toContain('<div class="table-scroll"><table>');
    expect(html).toContain("<th>Item</th>");
    expect(html).toContain('<th style="text-align:right">Amount</th>');
    expect(html).toContain('<td style="text-align:right">$120,000</td>');
    expect(html).toContain("<td>Sensors &lt;script&gt;x()&lt;/script&gt;</td>");
    expect(html).toContain("</table>\n</div>");
    expect(html).not.toContain("| Item |");
  });

  it("keeps raw HTML as text: no tag, no attribute, no comment reaches the page", () => {
    const html = markdownHtml(
      [
        '<script>alert("s")</script>',
        "",
        "<img src=x onerror=alert(2)> inline <b>bold</b> and <!-- note -->",
        "",
        '<div onclick="x()">',
        "block",
        "</div>",
      ].join("\n"),
    );
    expect(html).not.toMatch(/<(script|img|b|div)[\s>]/);
    expect(html).not.toContain("<!--");
    expect(html).toContain("&lt;script&gt;alert(&quot;s&quot;)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=alert(2)&gt; inline &lt;b&gt;bold&lt;/b&gt;");
  });

  it("links only to http, https and mailto; any other link stays its words", () => {
    const html = markdownHtml(
      [
        "[site](https://example.org/a?b=1) [mail](mailto:grants@example.org)",
        "[run](javascript:alert(1)) [run2](JaVaScRiPt:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=)",
        "[vb](vbscript:msgbox) [file](file:///etc/passwd) <javascript:alert(3)> www.example.org",
      ].join("\n"),
    );
    expect(html).toContain(
      '<a href="https://example.org/a?b=1" rel="nofollow noopener noreferrer">site</a>',
    );
    expect(html).toContain(
      '<a href="mailto:grants@example.org" rel="nofollow noopener noreferrer">',
    );
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
    expect(hrefs).toEqual(["https://example.org/a?b=1", "mailto:grants@example.org"]);
    expect(html).toContain("[run](javascript:alert(1))");
    expect(html).toContain("[data](data:text/html;base64,PHNjcmlwdD4=)");
    expect(html).toContain("&lt;javascript:alert(3)&gt;");
    expect(html).toContain("www.example.org");
  });

  it("shows an image as its alt text: the page loads nothing from elsewhere", () => {
    const html = markdownHtml("![logo](https://example.org/track.png) ![x](javascript:alert(1))");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("src=");
  });

  it("puts a section's headings under the page's h1–h3, and keeps lists, emphasis and code", () => {
    const html = markdownHtml(
      "# One\n\n## Two\n\n### Three\n\n- a **b**\n- `c<d>`\n\n> quoted\n\n```\n<pre>\n```",
    );
    expect(html).toContain("<h4>One</h4>");
    expect(html).toContain("<h5>Two</h5>");
    expect(html).toContain("<h6>Three</h6>");
    expect(html).toContain("<li>a <strong>b</strong></li>");
    expect(html).toContain("<li><code>c&lt;d&gt;</code></li>");
    expect(html).toContain("<blockquote>\n<p>quoted</p>\n</blockquote>");
    expect(html).toContain("<pre><code>&lt;pre&gt;\n</code></pre>");
  });
});
