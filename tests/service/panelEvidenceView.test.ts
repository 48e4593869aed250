/** The review page's evaluation view shows a panel's answers and agreement, and checked quotes. */
import { jsx } from "hono/jsx";
import { describe, expect, it } from "vitest";
import { panelFacts } from "../../src/cli/report/summary.js";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { EvaluationView } from "../../src/service/pages/evaluationView.js";
import { jsonAnswer, ScriptedChatModel } from "../doubles/index.js";
import { catalogOf, judgeOf } from "../engine/helpers.js";

const MADE_UP = "signed letters of intent with 12 councils";

function judge(name: string, result: "pass" | "fail", quotes: string[]) {
  return new ScriptedChatModel({
    model: name,
    responder: () => jsonAnswer({ reasoning: `Partners: ${result}.`, quotes, result }),
  });
}

/** One pass/fail check: have the partners committed? */
function supportCatalog() {
  return catalogOf({
    id: "support",
    name: "Support",
    version: "1",
    criteria: [
      {
        id: "partners",
        title: "Partner commitment",
        description: "Partners have committed.",
        weight: 1,
        method: { kind: "check" },
      },
    ],
  });
}

describe("the review page's evaluation view", () => {
  it("says once why the result is held, and shows each judge's answer, the agreement and the quotes found or not", async () => {
    const catalog = supportCatalog();
    const evaluation = await evaluateContent({
      content: "Two councils have expressed informal interest in joining the second phase.",
      catalog,
      judges: [judge("a", "pass", [MADE_UP]), judge("b", "pass", [MADE_UP])].map((m) => judgeOf(m)),
    });
    const html = String(await jsx(EvaluationView, { evaluation }).toString());
    // Why it is held is said once, in the reviewer's words; the engine's text is not on the page.
    expect(html.match(/id="warnings"/g)).toHaveLength(1);
    expect(html).toContain(
      "The judge quoted text that is not in the content for Partner commitment: check that score against the content.",
    );
    expect(html).not.toContain("criterion partners was met on quotes");
    expect(html).not.toContain("Held for your review");
    expect(html).toContain("Panel of 2 (scripted:a, scripted:b), median: agreement");
    expect(html).toContain("Quotes: 0 of 2 found in the content, 2 not found");
    expect(html).toContain(
      "Judges (median, agreement 1, nominal): scripted:a pass; scripted:b pass",
    );
    expect(html).toContain(`NOT FOUND in the content (scripted:a): “${MADE_UP}”`);
    expect(html).not.toContain("Possible prompt injection");
  });

  it("counts a panel's gaps in words, as the reports do: 1 missing answer", async () => {
    const catalog = supportCatalog();
    const down = new ScriptedChatModel({
      model: "b",
      responder: () => {
        throw new Error("judge b is down");
      },
    });
    const evaluation = await evaluateContent({
      content: "Two councils have expressed informal interest in joining the second phase.",
      catalog,
      judges: [judge("a", "pass", []), down].map((m) => judgeOf(m)),
    });
    expect(evaluation.panel?.gaps).toBe(1);
    const html = String(await jsx(EvaluationView, { evaluation }).toString());
    expect(html).toContain(", 1 missing answer</p>");
    expect(panelFacts(evaluation)[0]?.value).toMatch(/; 1 missing answer\)$/);
  });
});
