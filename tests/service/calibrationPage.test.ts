/**
 * The calibration page over the real review desk: administrators only (403 for a reviewer, the
 * queue links it for admins alone); the report of the store's labels and the comparison
 * `calibrate --compare` recorded last, one under the other, with figures worked out by hand for a small
 * fixed set of labels; text from the labels escaped.
 */
import { describe, expect, it } from "vitest";
import { daysAgo, LABELS, recordComparison } from "./calibrationFixtures.js";
import { PageClient } from "./pageClient.js";
import { servedDeskForFile } from "./servedDesk.js";

const served = servedDeskForFile({ root: "admin", ana: "reviewer" });

/** A row's cells as the page writes them: each labelled with its column (a phone shows the label). */
const labelled =
  (headers: readonly string[]) =>
  (...values: string[]) =>
    values.map((v, i) => `<td data-label="${headers[i]}">${v}</td>`).join("");
const FIGURES = ["Labels", "Marked", "Accepted", "Judge errors", "Agreement", "κ", "ρ marked"];
const COMPARED = [
  "Criterion",
  "Compared",
  "Agreement without",
  "Agreement with",
  "Agreement Δ",
  "κ without",
  "κ with",
  "κ Δ",
  "ρ marked without",
  "ρ marked with",
  "ρ marked Δ",
];

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

  it("shows the labels' report and under it the latest comparison, as worked out by hand", async () => {
    const admin = new PageClient(served.app);
    await admin.signIn(served.tokens.root);
    const before = await (await admin.get("/calibration")).text();
    expect(before).toContain("No comparison recorded yet");

    await served.real.desk.store.addCalibrationLabels(LABELS);
    await recordComparison(served.real.desk.store);
    const page = await admin.get("/calibration");
    expect(page.status).toBe(200);
    const html = await page.text();
    // The store's labels: the judge passed all four (0.9), the reviewers two: agreement 2/4;
    // pJ = 1, pR = 1/2, pe = 1/2, κ = (1/2 − 1/2)/(1 − 1/2) = 0; the judge's scores never vary,
    // so ρ has no figure.
    expect(html).toContain(
      labelled(["Scope", ...FIGURES])(
        "every label",
        ...["4", "4", "0", "0", "50%", "0.00", "not enough labels"],
      ),
    );
    // Times as instants the page's script shows in the reader's zone (UTC, named, without it).
    expect(html).toContain(
      'Measured <time datetime="2026-05-10T12:00:00.000Z">2026-05-10 12:00 UTC</time> with ollama:judge-under-test',
    );
    expect(html).toContain(
      'Labels since <time datetime="2026-05-01T00:00:00.000Z">2026-05-01 00:00 UTC</time> of Budget: 4 in the',
    );
    expect(html).not.toMatch(/>[^<]*\d{4}-\d\d-\d\dT\d\d:\d\d/);
    // Content types by their titles: "Budget", never the id "budget" as a heading.
    expect(html).toContain("<h3>Content type: Budget</h3>");
    // κ 0 beside 50% agreement is not a high agreement: no line about chance.
    expect(html).not.toContain("kappa-note");
    // Without examples the judge says 0.3 (fail) to all four: agreement 2/4, pJ = 0, pe = 1/2,
    // κ 0, ρ none. With them the first label (no earlier correction) stays 0.3 and the other
    // three get 0.8 (pass): agreement 3/4; pJ = 3/4, pR = 1/2, pe = 3/8 + 1/8 = 1/2,
    // κ = (3/4 − 1/2)/(1/2) = 0.5; ranks judge [1, 3, 3, 3], reviewer [1.5, 3.5, 3.5, 1.5]:
    // ρ = 2 / √(3 · 4) = 0.58.
    const row = ["4", "50%", "75%", "+25 pp", "0.00", "0.50", "+0.50", "not enough labels"];
    const cells = labelled(COMPARED);
    expect(html).toContain(cells("all criteria", ...row, "0.58", "—"));
    expect(html).toContain(
      cells(
        "&lt;b&gt;Costs&lt;/b&gt; &amp; &quot;itemised&quot; (costs_itemised) · Budget",
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
