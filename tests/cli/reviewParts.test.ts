/**
 * The parts of the review commands that need no model: the line reader over stdin, the decision
 * prompt (with a real EDITOR: a small node script that rewrites the file), the stored run
 * settings, the store resolution, and the review, pending-list and summary views.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RunSettingsFileError } from "../../src/cli/errors.js";
import { renderIndexList, renderReview, waitingSince } from "../../src/cli/review/display.js";
import { createLineReader } from "../../src/cli/review/input.js";
import { askDecision, type DecisionPromptIo } from "../../src/cli/review/interactive.js";
import {
  importLegacyRunSettings,
  legacyRunSettingsPath,
  loadRunSettings,
} from "../../src/cli/review/settings.js";
import { describeStore, storeOfFlags } from "../../src/cli/review/store.js";
import { readStructuredEdit } from "../../src/graph/reviewInput.js";
import {
  CONNECTION_PAIRS_STAGE,
  RESEARCH_STAGE,
  type StageDefinition,
  sectionStage,
} from "../../src/graph/stages.js";
import { structuredContentOf } from "../../src/graph/structuredContent.js";
import type { PendingReview } from "../../src/orchestrator/pendingReview.js";
import type { EvaluationResult } from "../../src/scoring/result.js";
import { openReviewStore } from "../../src/store/index.js";
import { DEFAULT_SQLITE_PATH } from "../../src/store/location.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-review-parts-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The content a decision with this edit stores: the edit applied to `current` by the edit rule. */
function storedEdit(stage: StageDefinition, current: unknown, content: string): unknown {
  const type = structuredContentOf(stage);
  if (type === undefined) throw new Error(`${stage.id} is text`);
  const read = readStructuredEdit(stage, type, content, current);
  if (!read.ok) throw new Error(read.issue);
  return read.value;
}

function buffer() {
  let text = "";
  return { write: (chunk: string) => (text += chunk), text: () => text };
}

function review(overrides: Partial<PendingReview> = {}): PendingReview {
  return {
    threadId: "t-1",
    interruptId: "i-1",
    type: "evaluation_review",
    contentType: "budget",
    contentId: "budget",
    title: "Budget Evaluation Review",
    description: "Review the evaluation of the Budget.",
    evaluation: null,
    actions: ["approve", "revise", "edit"],
    ...overrides,
  };
}

const evaluation = {
  passed: false,
  timestamp: "2026-01-05T10:00:00.000Z",
  evaluator: "evalgate",
  overallScore: 0.55,
  scores: { arithmetic: 0.4 },
  strengths: ["Lines are itemised"],
  weaknesses: ["Subtotals do not add up"],
  suggestions: ["Recompute the subtotals"],
  feedback: "",
  verdict: "fail",
  criteria: [
    {
      id: "arithmetic",
      title: "Totals add up",
      method: "score",
      weight: 1,
      critical: true,
      knockout: false,
      required: false,
      evaluated: true,
      score: 0.4,
      native: 0.4,
      met: false,
      threshold: 0.7,
      reasoning: "Subtotal B is off by 1,200.",
      hits: [],
      misses: [],
      evidence: [],
    },
  ],
  notEvaluated: [],
  catalog: { id: "budget", version: "1.0" },
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  warnings: ["The budget mentions no currency"],
  traces: [],
} satisfies EvaluationResult;

describe("createLineReader", () => {
  it("hands out queued lines one per read and undefined once the input ended", async () => {
    const input = new PassThrough();
    const lines = createLineReader(input);
    input.end("approve\r\nrevise\nlast without newline");
    expect(await lines.next()).toBe("approve");
    expect(await lines.next()).toBe("revise");
    expect(await lines.next()).toBe("last without newline");
    expect(await lines.next()).toBeUndefined();
    expect(lines.ended).toBe(true);
    lines.close();
  });

  it("answers a pending read when a line comes later, and drops queued lines when cancelled", async () => {
    const input = new PassThrough();
    const controller = new AbortController();
    const lines = createLineReader(input, controller.signal);
    const pending = lines.next();
    input.write("later\n");
    expect(await pending).toBe("later");
    input.write("queued\n");
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect(await lines.next()).toBeUndefined();
    lines.close();
  });

  it("reads nothing while it holds (an editor has the terminal), and the lines typed then after", async () => {
    const input = new PassThrough();
    const lines = createLineReader(input);
    const held = lines.hold(() => {
      input.write("typed while held\n");
      return input.isPaused();
    });
    expect(held).toBe(true);
    expect(input.isPaused()).toBe(false);
    expect(await lines.next()).toBe("typed while held");
    input.end();
    expect(await lines.next()).toBeUndefined();
    // Once the input ended, a hold just runs.
    expect(lines.hold(() => "ran")).toBe("ran");
    lines.close();
  });
});

describe("askDecision", () => {
  function io(text: string, extra: Partial<DecisionPromptIo> = {}) {
    const input = new PassThrough();
    input.end(text);
    const out = buffer();
    return {
      out,
      io: { lines: createLineReader(input), out, cwd: dir, env: {}, terminal: false, ...extra },
    };
  }

  it("maps answers to decisions, re-asks after an answer the review does not offer, and records the reviewer", async () => {
    const { io: prompt, out } = io("retry\nrevise\n\nr\n  Add unit costs.  \n");
    const outcome = await askDecision(review(), "text", undefined, { ...prompt, reviewer: "ana" });
    expect(outcome).toEqual({
      kind: "decision",
      decision: { action: "revise", feedback: "Add unit costs.", reviewer: "ana" },
    });
    expect(out.text()).toContain("retry is not offered here: answer approve, revise, edit, quit.");
    expect(out.text()).toContain("Decide: [a]pprove, [r]evise, [e]dit, [q]uit > retry\n");
  });

  it("offers retry and no approve after a failed generation, and reads an edit from a file", async () => {
    await writeFile(join(dir, "budget.md"), "Staff: 2 × 40,000 = 80,000\n", "utf8");
    const failed = review({ type: "generation_error", actions: ["retry", "edit"] });
    const { io: prompt, out } = io("a\ne\nq\ne\nnope.md\nbudget.md\n");
    const outcome = await askDecision(failed, undefined, sectionStage("budget", "Budget"), prompt);
    expect(outcome).toEqual({
      kind: "decision",
      decision: { action: "edit", content: "Staff: 2 × 40,000 = 80,000\n" },
    });
    expect(out.text()).toContain("approve is not offered here: answer retry, edit, quit.");
    expect(out.text()).toContain("content file nope.md: no such file\n");
  });

  it("quits on q and at the end of the input", async () => {
    expect(await askDecision(review(), "", undefined, io("q\n").io)).toEqual({
      kind: "quit",
      why: "quit",
    });
    expect(await askDecision(review(), "", undefined, io("r\n").io)).toEqual({
      kind: "quit",
      why: "end-of-input",
    });
  });

  it("edits structured content as a form with a heading per field in $EDITOR, read back through its schema", async () => {
    const editor = join(dir, "form-editor.mjs");
    await writeFile(
      editor,
      [
        'import { readFileSync, writeFileSync } from "node:fs";',
        "const file = process.argv[2];",
        'const text = readFileSync(file, "utf8");',
        "writeFileSync(file, text",
        '  .replace("## Funder\\nCalder Bay", "## Funder\\nEdited Foundation")',
        '  .replace("## Priorities\\n", "## Priorities\\n- drainage\\n- \\n* tenants\\n"));',
      ].join("\n"),
      "utf8",
    );
    const { io: prompt } = io("e\n", {
      terminal: true,
      env: { EDITOR: `${process.execPath} ${editor}` },
    });
    const current = { funder: "Calder Bay", sources: ["RFP p. 1"] };
    const outcome = await askDecision(review(), current, RESEARCH_STAGE, prompt);
    expect(outcome.kind).toBe("decision");
    const content =
      outcome.kind === "decision" && outcome.decision.action === "edit"
        ? outcome.decision.content
        : "";
    // The edit names every field of the form: the empty ones as null, so they stay removed.
    expect(JSON.parse(content)).toMatchObject({ eligibility: null, sources: ["RFP p. 1"] });
    expect(storedEdit(RESEARCH_STAGE, current, content)).toEqual({
      funder: "Edited Foundation",
      priorities: ["drainage", "tenants"],
      sources: ["RFP p. 1"],
    });
  });

  it("explains an edit that does not fit, keeps the reviewer's text, and offers the edit again", async () => {
    // The first run empties the pair's applicant capability; the second (given the kept text) fixes it.
    const editor = join(dir, "two-step-editor.mjs");
    await writeFile(
      editor,
      [
        'import { readFileSync, writeFileSync } from "node:fs";',
        "const file = process.argv[2];",
        'const text = readFileSync(file, "utf8");',
        'const next = text.includes("## Applicant capability\\nwelders")',
        '  ? text.replace("## Applicant capability\\nwelders", "## Applicant capability\\n")',
        '  : text.replace("## Applicant capability\\n", "## Applicant capability\\nwelding crews");',
        "writeFileSync(file, next);",
      ].join("\n"),
      "utf8",
    );
    const { io: prompt, out } = io("e\ne\n", {
      terminal: true,
      env: { EDITOR: `${process.execPath} ${editor}` },
    });
    const pairs = [{ funderNeed: "tank repairs", applicantCapability: "welders" }];
    const outcome = await askDecision(review(), pairs, CONNECTION_PAIRS_STAGE, prompt);
    expect(out.text()).toContain(
      "The edit does not fit the connection pairs:\n  - Applicant capability (pair 1): is required: it cannot be left out or emptied\n",
    );
    expect(out.text()).toContain("Choose edit again to fix it (your text is kept).");
    const content =
      outcome.kind === "decision" && outcome.decision.action === "edit"
        ? outcome.decision.content
        : "";
    expect(JSON.parse(content)).toEqual([
      { funderNeed: "tank repairs", applicantCapability: "welding crews" },
    ]);
  });

  it("reads a structured edit from a file as the form or as JSON, and offers the edit again after one that does not fit", async () => {
    await writeFile(join(dir, "prose.md"), "The funder wants tanks.\n", "utf8");
    await writeFile(
      join(dir, "form.md"),
      "## Funder\nTank Fund\n\n## Sources\n- call text p. 2\n",
      "utf8",
    );
    await writeFile(join(dir, "unknown.md"), "## Favourite colour\nblue\n", "utf8");
    const { io: prompt, out } = io("e\nprose.md\ne\nunknown.md\ne\nform.md\n");
    const current = { funder: "x", priorities: ["tanks"] };
    const outcome = await askDecision(review(), current, RESEARCH_STAGE, prompt);
    expect(out.text()).toContain("line 1: text before the first field heading");
    expect(out.text()).toContain('line 1: "Favourite colour" is not a field of the research');
    expect(out.text()).toContain("Choose edit again to fix it (your text is kept).");
    const content =
      outcome.kind === "decision" && outcome.decision.action === "edit"
        ? outcome.decision.content
        : "";
    // The form's fields replace theirs; the priorities it leaves out are kept.
    expect(storedEdit(RESEARCH_STAGE, current, content)).toEqual({
      funder: "Tank Fund",
      priorities: ["tanks"],
      sources: ["call text p. 2"],
    });
  });
});

describe("run settings and the checkpoint store", () => {
  it("keeps each thread's settings in the store, checked when read back", async () => {
    const reviews = await openReviewStore({ sqlitePath: join(dir, "db/kept.sqlite") });
    try {
      expect(await loadRunSettings(reviews, "a")).toBeUndefined();
      await reviews.saveRunSettings("a", { model: "ollama:x", maxRevisions: 1, startedAt: "t1" });
      await reviews.saveRunSettings("b", { startedAt: "t2" });
      expect(await loadRunSettings(reviews, "a")).toEqual({
        model: "ollama:x",
        maxRevisions: 1,
        startedAt: "t1",
      });
      expect(await loadRunSettings(reviews, "b")).toEqual({ startedAt: "t2" });
      expect(await loadRunSettings(reviews, "toString")).toBeUndefined();
      await reviews.saveRunSettings("a", { maxRevisions: -1, startedAt: "t" });
      await expect(loadRunSettings(reviews, "a")).rejects.toThrow(RunSettingsFileError);
      await expect(loadRunSettings(reviews, "a")).rejects.toThrow(/maxRevisions/);
    } finally {
      await reviews.close();
    }
  });

  it("imports an earlier version's settings file once, never over settings the store has", async () => {
    const store = storeOfFlags({ db: "db/threads.sqlite" }, {}, dir);
    const path = legacyRunSettingsPath(store, dir);
    expect(path).toBe(join(dir, "db/threads.sqlite.runs.json"));
    const file = {
      threads: {
        old: { model: "ollama:old", maxRevisions: 2, startedAt: "t0" },
        kept: { model: "ollama:from-file", startedAt: "t0" },
      },
    };
    await mkdir(join(dir, "db"), { recursive: true });
    await writeFile(path, JSON.stringify(file), "utf8");
    const reviews = await openReviewStore({
      sqlitePath: store.kind === "sqlite" ? store.path : "",
    });
    const stderr = { text: "", write: (t: string) => (stderr.text += t) };
    try {
      await reviews.saveRunSettings("kept", { model: "ollama:in-store", startedAt: "t1" });
      await importLegacyRunSettings(reviews, path, stderr);
      expect(await loadRunSettings(reviews, "old")).toEqual(file.threads.old);
      expect((await loadRunSettings(reviews, "kept"))?.model).toBe("ollama:in-store");
      // Read once: the file is renamed, and a second open finds nothing to import.
      expect(existsSync(path)).toBe(false);
      expect(existsSync(`${path}.imported`)).toBe(true);
      await importLegacyRunSettings(reviews, path, stderr);
      expect(stderr.text).toBe("");
      // A broken file is reported and left as it is.
      await writeFile(path, '{"threads": {"a": {"maxRevisions": -1, "startedAt": "t"}}}', "utf8");
      await importLegacyRunSettings(reviews, path, stderr);
      expect(stderr.text).toMatch(/not imported: run settings .*threads\.a\.maxRevisions/);
      expect(existsSync(path)).toBe(true);
    } finally {
      await reviews.close();
    }
  });

  it("uses --db, else DATABASE_URL, else the orchestrator's default file", () => {
    const url = "postgres://eval:secret@db.local:5432/reviews";
    expect(storeOfFlags({}, {}, dir)).toEqual({
      kind: "sqlite",
      path: join(dir, DEFAULT_SQLITE_PATH),
    });
    const postgres = storeOfFlags({}, { DATABASE_URL: url }, dir);
    expect(postgres).toEqual({ kind: "postgres", url });
    expect(describeStore(postgres, dir)).toBe("PostgreSQL (db.local:5432/reviews)");
    expect(legacyRunSettingsPath(postgres, dir)).toBe(join(dir, ".evalgate/runs.json"));
    expect(storeOfFlags({ db: "x.sqlite" }, { DATABASE_URL: url }, dir)).toEqual({
      kind: "sqlite",
      path: join(dir, "x.sqlite"),
    });
  });
});

describe("the views", () => {
  it("shows the scores against their thresholds, the lists and the whole content, wrapped", () => {
    const long = `${"Retrofit ".repeat(30)}END-OF-LINE`;
    const content = [
      ...Array.from({ length: 20 }, (_, i) => `Line ${i + 1}`),
      "",
      long,
      "- a list item that is long enough to wrap under its own marker when the width is narrow",
    ].join("\n");
    const text = renderReview(review({ evaluation, revisions: { count: 1, max: 3 } }), content, {
      width: 70,
    });
    expect(text).toContain("Review: Budget Evaluation Review [budget]\n");
    expect(text).toContain("type evaluation_review · revisions 1 of 3\n");
    expect(text).toMatch(
      /criterion\s+score\s+threshold\s+met\n[- ]+\narithmetic Totals add up \(critical\)\s+0\.40\s+0\.70\s+no\n/,
    );
    expect(text).toContain("overall 0.55 · verdict fail · passed no\n");
    expect(text).toContain("Weaknesses\n  - Subtotals do not add up\n");
    expect(text).toContain("Suggestions\n  - Recompute the subtotals\n");
    expect(text).toContain("Warnings\n  - The budget mentions no currency\n");
    // Every line of the content, none cut: the long one wrapped at the width.
    expect(text).toContain("Content\n  Line 1\n  Line 2\n");
    expect(text).toContain("  Line 20\n");
    expect(text).not.toContain("more lines");
    expect(text).toContain("END-OF-LINE");
    const lines = text.slice(text.indexOf("Content\n")).split("\n");
    for (const line of lines) expect(Array.from(line).length, line).toBeLessThanOrEqual(70);
    expect(lines.filter((l) => l.includes("Retrofit")).length).toBeGreaterThan(3);
    const item = lines.findIndex((l) => l.startsWith("  - a list item"));
    expect(lines[item + 1]).toMatch(/^ {4}\S/);
  });

  it("shows structured content as labelled fields, lists as lists, and never prints raw JSON", () => {
    const research = {
      funder: "Dunmore Estuary Trust",
      priorities: ["salt-marsh restoration", "volunteer monitoring"],
      fundingRange: "GBP 20,000–60,000",
      notes: { checked: true },
    };
    const text = renderReview(review({ contentType: "research", contentId: "research" }), research);
    expect(text).toContain(
      [
        "Content",
        "  Funder: Dunmore Estuary Trust",
        "  Priorities:",
        "    - salt-marsh restoration",
        "    - volunteer monitoring",
        "  Funding range: GBP 20,000–60,000",
        "  Notes:",
      ].join("\n"),
    );
    expect(text).not.toContain('"funder"');
    const pairs = renderReview(
      review({ contentType: "connection_pairs", contentId: "connection_pairs" }),
      [
        {
          funderNeed: "marsh survey",
          applicantCapability: "ecologists on staff",
          strength: "strong",
        },
        { funderNeed: "schools outreach", applicantCapability: "none" },
      ],
    );
    expect(pairs).toContain(
      "  Pair 1\n    Funder need: marsh survey\n    Applicant capability: ecologists on staff\n    Strength: strong\n  Pair 2\n",
    );
  });

  it("numbers the round and shows the feedback a revised version answers", () => {
    const revised = review({
      round: {
        number: 2,
        max: 4,
        feedback: "Cite the 2024 county flood report.\nAnd name the wards.",
      },
    });
    const text = renderReview(revised, "Revised text.");
    expect(text).toContain("type evaluation_review · round 2 of at most 4\n");
    expect(text).toContain(
      "This version answers the feedback of round 1:\n  > Cite the 2024 county flood report.\n  > And name the wards.\n",
    );
    const first = renderReview(review({ round: { number: 1, max: 4 } }), "First text.");
    expect(first).toContain("round 1 of at most 4");
    expect(first).not.toContain("answers the feedback");
  });

  it("shows every strength, weakness and suggestion whole, wrapped, with its escapes", () => {
    const long = `The budget ${"omits the contingency line ".repeat(8)}LAST-WORD \u001b[2J`;
    const text = renderReview(review({ evaluation: { ...evaluation, weaknesses: [long] } }), "x", {
      width: 60,
    });
    const block = text.slice(text.indexOf("Weaknesses\n"), text.indexOf("\n\nSuggestions"));
    const lines = block.split("\n").slice(1);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines[0]?.startsWith("  - The budget omits")).toBe(true);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {4}\S/);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(60);
    expect(block).toContain("LAST-WORD \\x1b[2J");
    expect(block).not.toContain("\u001b");
  });

  it("shows control characters and bidi overrides in content as escapes, never raw", () => {
    const text = renderReview(review(), "Budget \u001b[31mRED\u001b[0m total\u202Eevil\u0007 end");
    for (const raw of ["\u001b", "\u202e", "\u0007"]) expect(text).not.toContain(raw);
    expect(text).toContain("Budget \\x1b[31mRED\\x1b[0m total\\u202eevil\\x07 end");
  });

  it("shows a failed evaluation's error, and lists paused threads with how long they waited", () => {
    const failed = review({
      type: "evaluation_error",
      actions: ["retry", "edit"],
      error: "[evaluate budget] the judge model timed out",
    });
    expect(renderReview(failed, undefined)).toContain(
      "error: [evaluate budget] the judge model timed out\n\nNo evaluation",
    );
    const now = new Date("2026-01-05T12:00:00.000Z");
    expect(waitingSince("2026-01-05T11:30:00.000Z", now)).toBe(
      "2026-01-05 11:30:00 UTC (30 minutes ago)",
    );
    expect(waitingSince("2026-01-01T12:00:00.000Z", now)).toBe(
      "2026-01-01 12:00:00 UTC (4 days ago)",
    );
    expect(waitingSince("2026-01-05T11:30:00.000Z", now, "Asia/Tokyo")).toBe(
      "2026-01-05 20:30:00 GMT+9 (30 minutes ago)",
    );
    expect(waitingSince(undefined, now)).toBe("—");
    const row = {
      threadId: "t-1",
      interruptId: "i-1",
      stage: "budget",
      title: "Budget",
      overallScore: 0.55,
      passed: false,
      actions: ["approve" as const],
      createdAt: "2026-01-05T09:00:00.000Z",
      type: "evaluation_review",
      verdict: "fail",
    };
    const failedRow = {
      ...row,
      threadId: "t-2",
      type: "evaluation_error",
      overallScore: null,
      passed: null,
      verdict: null,
    };
    const list = renderIndexList([row, failedRow], now).split("\n");
    expect(list[0]).toMatch(/^thread\s+stage\s+type\s+score\s+waiting since$/);
    expect(list[2]).toMatch(
      /^t-1\s+budget\s+evaluation_review\s+0\.55 fail\s+2026-01-05 09:00:00 UTC \(3 hours ago\)$/,
    );
    expect(list[3]).toMatch(
      /^t-2\s+budget\s+evaluation_error\s+—\s+2026-01-05 09:00:00 UTC \(3 hours ago\)$/,
    );
  });
});
