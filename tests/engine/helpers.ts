/**
 * Shared pieces of the engine tests: the shipped catalogs, a judge built around a scripted chat
 * model (no retries, so a failing call fails once), and responders that answer by the criterion
 * named in the prompt.
 */
import { fileURLToPath } from "node:url";
import { loadCatalog } from "../../src/criteria/load.js";
import { type Catalog, type CatalogInput, CatalogSchema } from "../../src/criteria/model.js";
import {
  type ChatModelOptions,
  createChatModel,
  type JudgeModel,
} from "../../src/llm/chatModel.js";
import type { RecordedMessage, ScriptedChatModel, ScriptedResponder } from "../doubles/index.js";

const ROOT = new URL("../../", import.meta.url);

export const BUDGET_CATALOG_PATH = fileURLToPath(
  new URL("config/evaluation/criteria/budget.json", ROOT),
);
export const IFB_CATALOG_PATH = fileURLToPath(new URL("data/criteria/ifb_profi.toon", ROOT));

export function budgetCatalog(): Promise<Catalog> {
  return loadCatalog(BUDGET_CATALOG_PATH);
}

export function ifbCatalog(): Promise<Catalog> {
  return loadCatalog(IFB_CATALOG_PATH);
}

/** A catalog in evalgate's own model, defaults filled in by the real schema. */
export function catalogOf(input: CatalogInput): Catalog {
  return CatalogSchema.parse(input);
}

/** The scripted model as the judge: one attempt per call, a short timeout. */
export function judgeOf(model: ScriptedChatModel, options: ChatModelOptions = {}): JudgeModel {
  return createChatModel(model, {
    maxRetries: 0,
    retryBaseDelayMs: 1,
    timeoutMs: 5_000,
    env: {},
    ...options,
  });
}

/** The last user message of a call. */
export function userPromptOf(messages: readonly RecordedMessage[]): string {
  const user = messages.filter((m) => m.role === "user");
  return user[user.length - 1]?.content ?? "";
}

export function systemPromptOf(messages: readonly RecordedMessage[]): string {
  return messages.find((m) => m.role === "system")?.content ?? "";
}

/** The criterion title a single-criterion prompt names (`Criterion: …` / `Requirement: …`). */
export function titleIn(prompt: string): string | undefined {
  return /^(?:Criterion|Requirement): (.+)$/m.exec(prompt)?.[1]?.trim();
}

/** A criterion prompt named a title the test has no answer for. */
export class UnexpectedPromptError extends Error {
  constructor(prompt: string) {
    super(`no scripted answer for the prompt naming ${JSON.stringify(titleIn(prompt))}`);
    this.name = "UnexpectedPromptError";
  }
}

export type AnswerByTitle = Readonly<Record<string, string | Error>>;

/**
 * Answers each criterion prompt with the answer scripted for the title it names; a scripted Error
 * is thrown (as a failing model call).
 */
export function answerByTitle(answers: AnswerByTitle): ScriptedResponder {
  return (messages) => {
    const prompt = userPromptOf(messages);
    const title = titleIn(prompt);
    const answer = title === undefined ? undefined : answers[title];
    if (answer === undefined) throw new UnexpectedPromptError(prompt);
    if (answer instanceof Error) throw answer;
    return answer;
  };
}

/** An answer in the JSON judge contract. */
export function scoreAnswer(
  score: number,
  reasoning = `Scored ${score} on the evidence given.`,
  hits: string[] = [],
  misses: string[] = [],
): string {
  return JSON.stringify({ reasoning, score, hits, misses });
}

export function checkAnswer(result: "pass" | "fail", reasoning: string): string {
  return JSON.stringify({ reasoning, result });
}

export function levelAnswer(levelId: string, reasoning: string): string {
  return JSON.stringify({ reasoning, level_id: levelId });
}

/** Words, as the scripted model counts tokens. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The titles of the budget catalog's criteria (the evaluation node's `name`). */
export const BUDGET_TITLES = {
  arithmetic: "Arithmetic accuracy and internal consistency",
  compliance: "Compliance with the funder's financial rules",
  alignment: "Alignment with the methodology",
  reasonableness: "Reasonableness of costs",
  justification: "Budget justification narrative",
} as const;

export const BUDGET_CONTENT = [
  "Budget. Personnel: project lead 0.5 FTE x 12 months x 6,000 EUR = 36,000 EUR.",
  "Equipment: 4 sensors x 2,500 EUR = 10,000 EUR. Evaluation: 4,000 EUR.",
  "Total requested: 50,000 EUR, matching the amount in the summary.",
].join("\n");

/** Every budget criterion at one score. */
export function budgetAnswersAll(score: number): AnswerByTitle {
  return Object.fromEntries(
    Object.values(BUDGET_TITLES).map((title) => [title, scoreAnswer(score)]),
  );
}

/** A batch (table) answer: one row per [id, score, reasoning], no quotes. */
export function tableAnswer(
  rows: ReadonlyArray<readonly [string, string | number, string]>,
): string {
  return [
    `results[${rows.length}]{id,score,quotes,reasoning}:`,
    ...rows.map(([id, score, reasoning]) => `  ${id},${score},"",${JSON.stringify(reasoning)}`),
  ].join("\n");
}
