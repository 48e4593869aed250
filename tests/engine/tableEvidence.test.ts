/** Checked evidence in grouped and batch answers: the quotes column of the TOON table. */
import { afterEach, describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { parseBatchResponse, tableQuotes } from "../../src/judge/parseBatch.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import {
  type OllamaServer,
  type RecordedMessage,
  ScriptedChatModel,
  startOllamaServer,
} from "../doubles/index.js";
import { catalogOf, judgeOf, userPromptOf } from "./helpers.js";

const PROPOSAL = [
  "Our consortium of three municipalities will pilot a shared permit portal in 2026.",
  "The portal cuts the average processing time from 41 to 12 days, measured on 2,300 cases.",
  "Two councils have expressed informal interest in joining the second phase.",
].join("\n");

/** At best 2 of its 7 words ("12", "councils") share a stretch of the content: 2 / 7 = 0.286. */
const MADE_UP = "signed letters of intent with 12 councils";
const FOUND = "Two councils have expressed informal interest";
const FOUND_TOO = "cuts the average processing time from 41 to 12 days";

/** `count` check criteria p1…pN. */
function checks(count: number) {
  return catalogOf({
    id: "support",
    name: "Support",
    version: "1",
    criteria: Array.from({ length: count }, (_, i) => ({
      id: `p${i + 1}`,
      title: `Aspect p${i + 1}`,
      description: `Aspect p${i + 1} is shown.`,
      weight: 1,
      method: { kind: "check" as const },
    })),
  });
}

/** The ids a table prompt asks rows for, in order. */
function idsAsked(prompt: string): string[] {
  const listed = /one row per criterion in this order:\n(.+)\.\n/.exec(prompt);
  return listed === null ? [] : (listed[1] ?? "").split(", ");
}

/** Answers every table prompt with pass rows; `quotes` gives a row's quotes cell (else ""). */
function tableResponder(quotes: Readonly<Record<string, string>>) {
  return (messages: RecordedMessage[]): string => {
    const ids = idsAsked(userPromptOf(messages));
    const rows = ids.map(
      (id) => `  ${id},pass,${JSON.stringify(quotes[id] ?? "")},"Shown in the content."`,
    );
    return [`results[${rows.length}]{id,score,quotes,reasoning}:`, ...rows].join("\n");
  };
}

describe("the table's quotes cell", () => {
  it("splits at the separator, drops blanks and keeps at most two quotes (noted)", () => {
    expect(tableQuotes(` ${FOUND} | ${FOUND_TOO} `)).toEqual({
      quotes: [FOUND, FOUND_TOO],
      notes: [],
    });
    expect(tableQuotes(`a b | | c d | e f`)).toEqual({
      quotes: ["a b", "c d"],
      notes: ["only the first 2 of 3 quotes are checked"],
    });
  });

  it("reads an empty cell, and the ways a judge writes 'nothing', as no quotes", () => {
    for (const cell of [
      "",
      "  ",
      "null",
      "None",
      "-",
      "n/a",
      "[]",
      "…",
      "- | n/a",
      null,
      undefined,
    ]) {
      expect(tableQuotes(cell), String(cell)).toEqual({ quotes: [], notes: [] });
    }
  });

  it("reads a table without the quotes column as before, with no quotes", () => {
    const parsed = parseBatchResponse(
      'results[1]{id,score,reasoning}:\n  p1,pass,"Shown."',
      checks(1).criteria,
    );
    expect(parsed.problem).toBeUndefined();
    expect(parsed.answers.get("p1")).toMatchObject({ usable: true, native: "pass", quotes: [] });
  });

  it("gives each row its own quotes, a comma inside a quoted cell included", () => {
    const parsed = parseBatchResponse(
      [
        "results[2]{id,score,quotes,reasoning}:",
        `  p1,pass,"${FOUND_TOO}, measured on 2,300 cases","Figures given."`,
        `  p2,fail,"","Nothing on it."`,
      ].join("\n"),
      checks(2).criteria,
    );
    expect(parsed.answers.get("p1")?.quotes).toEqual([`${FOUND_TOO}, measured on 2,300 cases`]);
    expect(parsed.answers.get("p2")?.quotes).toEqual([]);
  });
});

describe("checked evidence in batch mode", () => {
  it("the batch prompt asks for the quotes column", async () => {
    const model = new ScriptedChatModel({ responder: tableResponder({}) });
    await evaluateContent({
      content: PROPOSAL,
      catalog: checks(2),
      model: judgeOf(model),
      mode: "batch",
    });
    const prompt = userPromptOf(model.calls[0]?.messages ?? []);
    expect(prompt).toContain("results[2]{id,score,quotes,reasoning}:");
    expect(prompt).toContain("at most 2 passages of the content");
  });

  it("a row met on a made-up quote is flagged and held for a reviewer", async () => {
    const model = new ScriptedChatModel({
      responder: tableResponder({ p1: MADE_UP, p2: FOUND }),
    });
    const result = await evaluateContent({
      content: PROPOSAL,
      catalog: checks(2),
      model: judgeOf(model),
      mode: "batch",
    });
    expect(model.calls).toHaveLength(1);
    const [p1, p2] = result.criteria;
    expect(p1?.met).toBe(true);
    expect(p1?.quotes).toEqual([{ text: MADE_UP, verified: false, similarity: 0.286 }]);
    expect(p2?.quotes).toEqual([{ text: FOUND, verified: true, similarity: 1 }]);
    expect(result.passed).toBe(false);
    expect(result.humanReviewRequired).toBe(true);
    expect(result.humanReviewReasons).toEqual([
      `criterion p1 was met on quotes the content does not contain ("${MADE_UP}")`,
    ]);
    expect(result.warnings).toContain(
      `p1: the judge quoted "${MADE_UP}", which the content does not contain`,
    );
    expect(result.evidence).toEqual({ quotes: 2, verified: 1, unverified: 1 });
  });

  it("verified quotes of every row support the pass: no reviewer needed", async () => {
    const model = new ScriptedChatModel({
      responder: tableResponder({ p1: `${FOUND} | ${FOUND_TOO}`, p2: FOUND_TOO }),
    });
    const result = await evaluateContent({
      content: PROPOSAL,
      catalog: checks(2),
      model: judgeOf(model),
      mode: "batch",
    });
    expect(result.passed).toBe(true);
    expect(result.humanReviewRequired).toBe(false);
    expect(result.criteria[0]?.quotes?.map((q) => q.text)).toEqual([FOUND, FOUND_TOO]);
    expect(result.evidence).toEqual({ quotes: 3, verified: 3, unverified: 0 });
  });
});

describe("checked evidence in grouped mode, as auto picks it", () => {
  it("eight criteria on four slots: one group's made-up quote holds the result for a reviewer", async () => {
    const model = new ScriptedChatModel({ responder: tableResponder({ p6: MADE_UP }) });
    const result = await evaluateContent({
      content: PROPOSAL,
      catalog: checks(8),
      model: judgeOf(model),
      concurrency: 4,
    });
    expect(result.judgeMode).toEqual({ mode: "grouped", groups: 4 });
    expect(model.calls).toHaveLength(4);
    expect(result.criteria.find((c) => c.id === "p6")?.quotes).toEqual([
      { text: MADE_UP, verified: false, similarity: 0.286 },
    ]);
    expect(result.humanReviewRequired).toBe(true);
    expect(result.humanReviewReasons).toEqual([
      `criterion p6 was met on quotes the content does not contain ("${MADE_UP}")`,
    ]);
    expect(result.passed).toBe(false);
    expect(result.evidence).toEqual({ quotes: 1, verified: 0, unverified: 1 });
  });
});

describe("checked evidence in a table answered over the Ollama protocol", () => {
  let server: OllamaServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("reads the quotes column of the served table and checks each quote", async () => {
    server = await startOllamaServer({
      models: ["judge:1b"],
      responder: () =>
        [
          "results[2]{id,score,quotes,reasoning}:",
          `  p1,pass,"${FOUND} | ${MADE_UP}","Interest is stated."`,
          `  p2,pass,"${MADE_UP}","Commitment is claimed."`,
        ].join("\n"),
    });
    const result = await evaluateContent({
      content: PROPOSAL,
      catalog: checks(2),
      model: createChatModel("ollama:judge:1b", { baseUrl: server.url, env: {}, maxRetries: 0 }),
      mode: "batch",
    });
    expect(server.chatRequests()).toHaveLength(1);
    expect(result.criteria[0]?.quotes?.map((q) => q.verified)).toEqual([true, false]);
    expect(result.criteria[1]?.quotes?.map((q) => q.verified)).toEqual([false]);
    expect(result.evidence).toEqual({ quotes: 3, verified: 1, unverified: 2 });
    // p1 keeps one verified quote; p2 was met on a missing quote only.
    expect(result.humanReviewReasons).toEqual([
      `criterion p2 was met on quotes the content does not contain ("${MADE_UP}")`,
    ]);
    expect(result.passed).toBe(false);
  });
});
