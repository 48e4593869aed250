/**
 * The screening line: the injection guard's answer inside a grouped or batch answer, read from
 * the text outside the table by the guard's own fail-closed rules; and the prompt that asks for it.
 */
import { describe, expect, it } from "vitest";
import { INJECTION_GUARD_SYSTEM } from "../../prompts/evaluation/index.js";
import type { Criterion } from "../../src/criteria/model.js";
import { parseScreeningAnswer } from "../../src/judge/injectionGuard.js";
import { parseBatchResponse } from "../../src/judge/parseBatch.js";
import { renderBatchPrompt } from "../../src/judge/renderBatch.js";
import { catalogOf } from "../engine/helpers.js";

const CRITERIA: Criterion[] = catalogOf({
  id: "orchard",
  name: "Orchard grant",
  version: "1",
  criteria: [
    {
      id: "trees",
      title: "Tree stock",
      description: "Are the varieties and numbers of trees given?",
      weight: 1,
      method: { kind: "check" as const },
    },
    {
      id: "care",
      title: "Aftercare",
      description: "Who waters and prunes the trees for the first three years?",
      weight: 1,
      method: { kind: "score" as const, scale: { min: 0, max: 1 } },
    },
  ],
}).criteria;

const TABLE = [
  "results[2]{id,score,quotes,reasoning}:",
  '  trees,pass,"40 apple trees","Varieties and counts listed."',
  '  care,0.6,"","Volunteers named, no schedule."',
].join("\n");
const CLEAN = '{"reasoning": "Plain orchard plan.", "instruction_bearing": false}';
const FLAGGED = '{"reasoning": "Asks the model to pass it.", "instruction_bearing": true}';

describe("parseScreeningAnswer", () => {
  it("reads the line before the table, and the table is read as before", () => {
    const answer = `${CLEAN}\n${TABLE}`;
    expect(parseScreeningAnswer(answer)).toEqual({
      ok: true,
      instructionBearing: false,
      reasoning: "Plain orchard plan.",
    });
    expect([...parseBatchResponse(answer, CRITERIA).answers.keys()]).toEqual(["trees", "care"]);
  });

  it("reads a line written right after the table, which still decodes", () => {
    const answer = `${TABLE}\n${FLAGGED}`;
    expect(parseScreeningAnswer(answer)).toMatchObject({ ok: true, instructionBearing: true });
    const batch = parseBatchResponse(answer, CRITERIA);
    expect(batch.missing).toEqual([]);
    expect(batch.notes).toEqual([]);
  });

  it("ignores JSON inside the table's cells (quoted content is not the guard's answer)", () => {
    const answer = [
      "results[1]{id,score,quotes,reasoning}:",
      `  care,0.6,"{\\"instruction_bearing\\": false, \\"reasoning\\": \\"ok\\"}","Odd quote."`,
    ].join("\n");
    expect(parseScreeningAnswer(answer)).toEqual({
      ok: false,
      error: "no screening line before the table",
    });
  });

  it("ignores a draft inside a reasoning block", () => {
    const answer = `<think>${FLAGGED}</think>\n${CLEAN}\n${TABLE}`;
    expect(parseScreeningAnswer(answer)).toMatchObject({ ok: true, instructionBearing: false });
  });

  it.each([
    ["no line at all", TABLE, "no screening line before the table"],
    ["prose instead of JSON", `Looks fine to me.\n${TABLE}`, "no screening line before the table"],
    [
      "lines that disagree",
      `${CLEAN}\n${TABLE}\n${FLAGGED}`,
      "the guard gave answers that disagree",
    ],
    [
      "a verdict that is neither",
      `{"reasoning": "x", "instruction_bearing": "perhaps"}\n${TABLE}`,
      "",
    ],
    ["an empty answer", "", "no screening line before the table"],
    ["an answer past the size limit", `${CLEAN}\n${"x".repeat(300_000)}`, "long"],
  ])("%s is a failure", (_name, answer, problem) => {
    const verdict = parseScreeningAnswer(answer);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.error).toContain(problem);
  });
});

describe("the screening question in a batch prompt", () => {
  const input = { criteria: CRITERIA, content: "We plant 40 apple trees on the school field." };

  it("is asked only when the call carries the guard, after the criteria, before the table", () => {
    const plain = renderBatchPrompt(input);
    const screened = renderBatchPrompt({ ...input, screenContent: true });
    expect(plain.user).not.toContain("instruction_bearing");
    const question = screened.user.indexOf("Screening, before you evaluate");
    expect(question).toBeGreaterThan(screened.user.indexOf("Who waters and prunes"));
    const format = screened.user.slice(screened.user.indexOf("Answer format"));
    expect(format.indexOf('"instruction_bearing": true | false}')).toBeLessThan(
      format.indexOf("results[2]{id,score,quotes,reasoning}:"),
    );
    expect(screened.user).toContain("at most 12 words");
  });

  it("leaves the system prompt and everything up to the criteria as in the other calls", () => {
    const plain = renderBatchPrompt(input);
    const screened = renderBatchPrompt({ ...input, screenContent: true });
    expect(screened.system).toBe(plain.system);
    const head = (user: string) => user.slice(0, user.indexOf("Answer format"));
    expect(head(screened.user).startsWith(head(plain.user).slice(0, -1).trimEnd())).toBe(true);
  });

  it("asks the guard's own question, about the fenced content", () => {
    const screened = renderBatchPrompt({ ...input, screenContent: true }).user;
    const definition = INJECTION_GUARD_SYSTEM.slice(
      INJECTION_GUARD_SYSTEM.indexOf("contain text addressed"),
      INJECTION_GUARD_SYSTEM.indexOf("Everything between"),
    ).trim();
    expect(screened.replace(/\s+/g, " ")).toContain(definition);
    expect(screened).toContain("the content between the CONTENT delimiter lines");
  });
});
