/**
 * The calibration page in a real Chromium, at 1280 px and at a 390 px phone width, over the real
 * review desk with 45 labels of one criterion (the judge passed them all, the reviewers all but
 * one: 97.8% agreement, κ 0) and the comparison `calibrate --compare` recorded: the page never
 * scrolls sideways, every table's last column ("Threshold → best", "ρ marked Δ") is on screen,
 * times are in the reader's zone with the zone named, content types by their titles, and the
 * line that says why κ is 0 there.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CalibrationLabel } from "../../src/scoring/calibrationLabel.js";
import { type RunningService, startService } from "../../src/service/server.js";
import { screenshot, signIn } from "./browserSteps.js";
import { LABELS, recordComparison } from "./calibrationFixtures.js";
import { launchChromium } from "./chromium.js";
import { openRealDesk, type RealDesk } from "./realDesk.js";

let browser: Browser;
let real: RealDesk;
let service: RunningService;
let token: string;

const LONG_TITLE =
  "The problem is stated with sourced figures for the affected households and districts";

/** 45 labels of the solution's grounding criterion: 44 accepted passes, 1 marked as failing. */
function solutionLabels(): CalibrationLabel[] {
  const template = LABELS[0];
  if (template === undefined) throw new Error("no label to copy");
  return Array.from({ length: 45 }, (_, i) => {
    const failed = i === 0;
    return {
      ...template,
      decisionId: `sol-d${i}`,
      threadId: `sol-t${i}`,
      evaluationId: `sol-ev${i}`,
      stage: "solution",
      contentType: "solution",
      criterionId: "problem_grounded",
      criterionTitle: LONG_TITLE,
      decidedAt: new Date(Date.now() - (20 - i / 10) * 86_400_000).toISOString(),
      action: failed ? ("revise" as const) : ("approve" as const),
      judgePassed: true,
      source: failed ? ("marked" as const) : ("accepted" as const),
      ...(failed ? { reviewerScore: 0.2, reviewerNative: 0.2 } : {}),
    };
  }).map((label) => {
    if (label.source === "marked") return label;
    const { reviewerScore: _score, reviewerNative: _native, ...accepted } = label;
    return accepted;
  });
}

beforeAll(async () => {
  browser = await launchChromium();
  real = await openRealDesk();
  token = await real.addReviewer("root", "admin");
  await real.desk.store.addCalibrationLabels([...LABELS, ...solutionLabels()]);
  await recordComparison(real.desk.store);
  service = await startService({ desk: real.desk, host: "127.0.0.1", port: 0 });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await service?.close();
  await real?.close();
});

interface Fit {
  pageWidth: number;
  viewport: number;
  /** Per table: the right edge of its last header and last cells, and its container's. */
  tables: Array<{ lastRight: number; containerRight: number; hidden: number; lastText: string }>;
}

/**
 * How the page and each table of figures fit the viewport, measured in the browser (a script as
 * text: the tests are compiled without the DOM's types).
 */
const MEASURE_FIT = `(() => {
  const tables = [...document.querySelectorAll("table.figures")].map((table) => {
    const container = table.parentElement;
    const lasts = [...table.querySelectorAll("tbody tr")].map((row) => row.lastElementChild);
    return {
      lastRight: Math.max(...lasts.map((cell) => cell.getBoundingClientRect().right)),
      containerRight: container.getBoundingClientRect().right,
      hidden: container.scrollWidth - container.clientWidth,
      lastText: lasts.map((cell) => cell.innerText).join(" | "),
    };
  });
  return { pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth, tables };
})()`;

function measureFit(page: Page): Promise<Fit> {
  return page.evaluate(MEASURE_FIT) as Promise<Fit>;
}

/** The `::before` text of the first row's last cell: the column's name a phone shows. */
const LAST_CELL_LABEL = `getComputedStyle(document.querySelector("table.figures tbody td:last-child"), "::before").content`;

async function openCalibration(width: number, height: number): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height },
    timezoneId: "Asia/Kathmandu",
    locale: "en-GB",
  });
  const page = await context.newPage();
  await signIn(page, service.url, token);
  await page.goto(`${service.url}/calibration`);
  await page.waitForSelector("time[data-local=true]");
  return page;
}

function expectEverythingOnScreen(measured: Fit): void {
  expect(measured.pageWidth).toBeLessThanOrEqual(measured.viewport);
  // Every figures table: the report's, the gate's, one per content type, the comparison.
  expect(measured.tables.length).toBe(5);
  for (const table of measured.tables) {
    expect(table.hidden, table.lastText).toBeLessThanOrEqual(0);
    expect(table.lastRight, table.lastText).toBeLessThanOrEqual(table.containerRight + 0.5);
    expect(table.lastRight, table.lastText).toBeLessThanOrEqual(measured.viewport);
  }
}

describe("the calibration page in Chromium", () => {
  it("fits 1280 px: no sideways scroll, the Threshold → best column whole, times local", async () => {
    const page = await openCalibration(1280, 900);
    const measured = await measureFit(page);
    expectEverythingOnScreen(measured);
    // The criteria tables' last column, whole: "Threshold (agreement) → best".
    const thresholds = measured.tables.map((t) => t.lastText);
    expect(thresholds).toContain("0.50 (97.8%), already the best");
    expect(thresholds).toContain("0.50 (50%), already the best");
    // Times in the reader's zone (Kathmandu, UTC+5:45), the zone named; UTC kept as the title.
    const measuredAt = page.locator("#comparison time").first();
    expect(await measuredAt.textContent()).toBe("10 May 2026, 17:45 GMT+5:45");
    expect(await measuredAt.getAttribute("title")).toBe("2026-05-10 12:00 UTC");
    const scope = (await page.textContent("#calibration-scope")) ?? "";
    expect(scope).toMatch(/decisions from \d+ \w+ \d{4}, \d\d:\d\d GMT\+5:45 to /);
    expect(scope).not.toMatch(/\d{4}-\d\d-\d\dT/);
    // Content types by title; κ 0 beside 97.8% explained under the tables where it shows.
    const headings = await page.$$eval("h3", (nodes) => nodes.map((n) => n.textContent));
    expect(headings).toContain("Content type: Solution Sought");
    expect(headings).toContain("Content type: Budget");
    const notes = await page.$$eval("p.kappa-note", (nodes) => nodes.map((n) => n.textContent));
    expect(notes.some((note) => note?.includes("the 97.8% agreement says little"))).toBe(true);
    expect(notes.join(" ")).toContain("the judge passed 45 of 45, the reviewers 44 of 45");
    await screenshot(page, "calibration-1280");
    await page.context().close();
  }, 120_000);

  it("fits a 390 px phone: each row a card of labelled values, nothing off screen", async () => {
    const page = await openCalibration(390, 844);
    const measured = await measureFit(page);
    expectEverythingOnScreen(measured);
    // On a phone each value carries its column's name.
    const label = (await page.evaluate(LAST_CELL_LABEL)) as string;
    expect(label.replaceAll('"', "")).toBe("ρ all");
    const threshold = page.locator('td[data-label="Threshold (agreement) → best"]').first();
    expect(await threshold.isVisible()).toBe(true);
    const box = await threshold.boundingBox();
    expect(box === null ? Number.POSITIVE_INFINITY : box.x + box.width).toBeLessThanOrEqual(390);
    await screenshot(page, "calibration-390");
    await page.context().close();
  }, 120_000);
});
