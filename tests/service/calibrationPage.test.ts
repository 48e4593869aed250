/**
 * The calibration page over the real review desk: administrators only (403 for a reviewer, the
 * queue links it for admins alone); the report of the store's labels and the comparison
 * `calibrate --compare` recorded last, side by side, with figures worked out by hand for a small
 * fixed set of labels; text from the labels escaped.
 */
import { describe, expect, it } from "vitest";
import { CatalogSchema } from "../../src/criteria/model.js";
import { inMemoryExampleSource } from "../../src/judge/exampleSource.js";
import { compareFewShot } from "../../src/orchestrator/calibrationReplay.js";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { PageClient } from "./pageClient.js";
import { servedDeskForFile } from "./servedDesk.js";

const served = servedDeskForFile({ root: "admin", ana: "reviewer" });

const TITLE = '<b>Costs</b> & "itemised"';

const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/**
 * Four corrections of one criterion (threshold 0.5): the judge said 0.9 each time; the reviewers
 * said 0.2, 0.9, 0.9, 0.2.
 */
const LABELS: CalibrationLabel[] = [0.2, 0.9, 0.9, 0.2].map((reviewerScore, i) => ({
  decisionId: `cal-d${i + 1}`,
  threadId: `cal-t${i + 1}`,
  stage: "budget",
  contentType: "budget",
  evaluationId: `cal-ev${i + 1}`,
  reviewer: "root",
  // Recent, oldest first: the page reads the labels of its window (the last 90 days by default).
  decidedAt: daysAgo(10 - i),
  action: "approve",
  judgePassed: true,
  criterionId: "costs_itemised",
  criterionTitle: TITLE,
  method: "score",
  threshold: 0.5,
  judgeScore: 0.9,
  judgeMet: true,
  judgeNative: 0.9,
  source: "marked",
  reviewerScore,
  reviewerNative: reviewerScore,
}));

const CATALOG = CatalogSchema.parse({
  id: "budget_plan",
  name: "Budget plan",
  version: "4",
  criteria: [
    {
      id: "costs_itemised",
      title: TITLE,
      description: "Is every cost line itemised with a unit price?",
      weight: 1,
      method: { kind: "score", scale: { min: 0, max: 1 } },
    },
  ],
});

/** A judge that answers 0.8 when its prompt carries an example, 0.3 otherwise. */
const judge = () =>
  new ScriptedChatModel({
    responder: (messages) => {
      const score = (messages.at(-1)?.content ?? "").includes("<<<EXAMPLE id=") ? 0.8 : 0.3;
      return JSON.stringify({ reasoning: `Scored ${score}.`, score, hits: [], misses: [] });
    },
  });

async function recordComparison() {
  const examples = inMemoryExampleSource(
    LABELS.map((label) => ({
      labelId: `${label.decisionId}#${label.criterionId}`,
      criterionId: label.criterionId,
      contentType: label.contentType,
      decidedAt: label.decidedAt,
      excerpt: `Travel for ${label.decisionId}: a lump sum.`,
      judgeValue: 0.9,
      correctedValue: label.reviewerScore ?? 0,
    })),
  );
  const comparison = await compareFewShot({
    labels: LABELS,
    catalog: CATALOG,
    model: judge(),
    examples,
    contentOf: async (label) => `Travel for ${label.decisionId}: a lump sum.`,
  });
  const { replays: _perLabel, ...figures } = comparison;
  return served.real.desk.store.recordCalibrationMeasurement({
    measuredAt: "2026-05-10T12:00:00.000Z",
    since: "2026-05-01T00:00:00.000Z",
    until: null,
    contentType: "budget",
    model: "ollama:judge-under-test",
    catalog: { id: CATALOG.id, version: CATALOG.version },
    comparison: figures,
  });
}

const cells = (...values: string[]) => values.map((v) => `<td>${v}</td>`).join("");

describe("GET /calibration", () => {
  it("is for administrators: 403 for a reviewer, linked from the queue for admins only", async () => {
    const reviewer = new PageClient(served.app);
    await reviewer.signIn(served.tokens.ana);
    const refused = await reviewer.get("/calibration");
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("may not see the calibration report");
    expect(await (await reviewer.get("/reviews")).text()).not.toContain('href="/calibration"');

    const admin = new PageClient(served.app);
    await admin.signIn(served.tokens.root);
    expect(await (await admin.get("/reviews")).text()).toContain('href="/calibration"');
    const anonymous = await new PageClient(served.app).get("/calibration");
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toContain("/signin");
  });

  it("shows the labels' report and the latest comparison side by side, as worked out by hand", async () => {
    const admin = new PageClient(served.app);
    await admin.signIn(served.tokens.root);
    const before = await (await admin.get("/calibration")).text();
    expect(before).toContain("No comparison recorded yet");

    await served.real.desk.store.addCalibrationLabels(LABELS);
    await recordComparison();
    const page = await admin.get("/calibration");
    expect(page.status).toBe(200);
    const html = await page.text();
    // The store's labels: the judge passed all four (0.9), the reviewers two: agreement 2/4;
    // pJ = 1, pR = 1/2, pe = 1/2, κ = (1/2 − 1/2)/(1 − 1/2) = 0; the judge's scores never vary,
    // so ρ has no figure.
    expect(html).toContain(
      cells("every label", "4", "4", "0", "0", "50%", "0.00", "not enough labels"),
    );
    expect(html).toContain("Measured 2026-05-10T12:00:00.000Z with ollama:judge-under-test");
    expect(html).toContain("Labels since 2026-05-01T00:00:00.000Z, content type budget: 4 in the");
    // Without examples the judge says 0.3 (fail) to all four: agreement 2/4, pJ = 0, pe = 1/2,
    // κ 0, ρ none. With them the first label (no earlier correction) stays 0.3 and the other
    // three get 0.8 (pass): agreement 3/4; pJ = 3/4, pR = 1/2, pe = 3/8 + 1/8 = 1/2,
    // κ = (3/4 − 1/2)/(1/2) = 0.5; ranks judge [1, 3, 3, 3], reviewer [1.5, 3.5, 3.5, 1.5]:
    // ρ = 2 / √(3 · 4) = 0.58.
    const row = ["4", "50%", "75%", "+25 pp", "0.00", "0.50", "+0.50", "not enough labels"];
    expect(html).toContain(cells("all criteria", ...row, "0.58", "—"));
    expect(html).toContain(
      cells(
        "&lt;b&gt;Costs&lt;/b&gt; &amp; &quot;itemised&quot; (costs_itemised) · budget",
        ...row,
        "0.58",
        "—",
      ),
    );
    expect(html).not.toContain("<b>Costs</b>");
  });
  it("reads the labels of a bounded window: the last 90 days unless ?days= says otherwise", async () => {
    const admin = new PageClient(served.app);
    await admin.signIn(served.tokens.root);
    const old = LABELS[0];
    if (old === undefined) throw new Error("no label to copy");
    await served.real.desk.store.addCalibrationLabels([
      { ...old, decisionId: "cal-old", threadId: "cal-t-old", decidedAt: daysAgo(400) },
    ]);
    const count = (html: string) => /(\d+) labels \(/.exec(html)?.[1];
    expect(count(await (await admin.get("/calibration")).text())).toBe("4");
    expect(count(await (await admin.get("/calibration?days=401")).text())).toBe("5");
    // Labels decided 10, 9, 8 and 7 days before the request: a 10-day window starts after the
    // first of them.
    expect(count(await (await admin.get("/calibration?days=10")).text())).toBe("3");
    for (const days of ["0", "3661", "1.5", "abc"]) {
      const refused = await admin.get(`/calibration?days=${days}`);
      expect(refused.status).toBe(400);
      const html = await refused.text();
      expect(html).toContain("Details: INVALID_INPUT");
      expect(html).not.toContain("[INVALID_INPUT]");
    }
  });
});
