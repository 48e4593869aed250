/**
 * An answer for every prompt evalgate sends a model — for the Ollama-protocol test server
 * (tests/doubles/ollamaServer.ts) and for ScriptedChatModel alike: judge prompts get an answer in
 * the JSON judge contract (prompts/evaluation/answerFormats.ts) — a score placed on the scale the prompt asks for, a
 * check "pass", a level, rubric checks — and writer prompts (prompts/generation/) get content
 * of the shape each generator parses: research and solution objects, connection pairs, section
 * text. The answer is chosen from what the prompt asks for, never from its position in a run.
 */
import { WRITER_SYSTEM } from "../../prompts/generation/index.js";
import type { OllamaResponder, ScriptedResponder } from "../doubles/index.js";

/** A chat message as both doubles record it (role "system" / "user"). */
export interface PromptMessage {
  role: string;
  content: string;
}

/** The prompt asked for something this responder cannot answer. */
export class UnansweredPromptError extends Error {
  override readonly name = "UnansweredPromptError";
}

const REASONING = "The content states the problem, its scope and its source for this criterion.";

function userText(messages: readonly PromptMessage[]): string {
  return messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
}

/** Whether the messages are a writer's (generation) prompt rather than a judge's. */
export function isWriterPrompt(messages: readonly PromptMessage[]): boolean {
  return messages.some((m) => m.role === "system" && m.content === WRITER_SYSTEM);
}

/** `"score": <a number from 0.0 to 1.0>` or `<a whole number from 1 to 5>` → the native value. */
function scoreOnScale(prompt: string, unit: number): number | undefined {
  const match = /"score": <a (whole )?number from (-?[\d.]+) to (-?[\d.]+)>/.exec(prompt);
  if (match === null) return undefined;
  const min = Number(match[2]);
  const max = Number(match[3]);
  const value = min + unit * (max - min);
  return match[1] === undefined ? Math.round(value * 100) / 100 : Math.round(value);
}

function judgeAnswer(prompt: string, unit: number): string {
  if (prompt.includes('"checks": [')) {
    const ids = /in this order: ([^\n]+)\./.exec(prompt)?.[1]?.split(", ") ?? [];
    return JSON.stringify({
      reasoning: REASONING,
      checks: ids.map((id) => ({ id, reasoning: REASONING, result: "pass" })),
    });
  }
  if (prompt.includes('"result": "pass" | "fail"')) {
    return JSON.stringify({ reasoning: REASONING, result: "pass" });
  }
  const level = /"level_id": "([^"]+)"/.exec(prompt);
  if (level?.[1] !== undefined) return JSON.stringify({ reasoning: REASONING, level_id: level[1] });
  const score = scoreOnScale(prompt, unit);
  if (score !== undefined) {
    return JSON.stringify({ reasoning: REASONING, score, hits: ["clear scope"], misses: [] });
  }
  throw new UnansweredPromptError(`no answer format recognised in: ${prompt.slice(0, 200)}`);
}

const RESEARCH = {
  funder: "Calder Bay Community Foundation",
  mission: "resilient coastal neighbourhoods",
  applicant: "Harbor Neighbors Alliance",
  project: "Cool and Dry Homes",
  priorities: ["flood resilience", "low-income households"],
  eligibility: ["registered non-profit in Calder County"],
  evaluationCriteria: ["need (30%)", "approach (40%)", "capacity (30%)"],
  fundingRange: "USD 50,000–150,000 over two years",
  requiredSections: ["problem_statement", "methodology", "budget"],
  deadlinesAndRules: ["apply by 1 March 2026"],
  sources: ["RFP p. 1–3"],
};

const SOLUTION = {
  problem: "Repeated flooding displaces low-income households in Calder Bay",
  desiredOutcomes: ["fewer displaced households"],
  preferredApproaches: ["community-led retrofits"],
  excludedApproaches: ["private property purchases"],
};

const PAIRS = {
  pairs: [
    {
      funderNeed: "fewer displaced households",
      applicantCapability: "retrofitted 120 homes since 2021",
      evidence: "applicant annual report 2024",
      strength: "strong",
    },
  ],
};

function writerAnswer(prompt: string): string {
  if (prompt.startsWith("Analyse the request for proposals")) return JSON.stringify(RESEARCH);
  if (prompt.startsWith("From the research on the funder")) return JSON.stringify(SOLUTION);
  if (prompt.startsWith("Match what the applicant brings")) return JSON.stringify(PAIRS);
  const section = /^Write the "([^"]+)" section/.exec(prompt);
  if (section?.[1] !== undefined) {
    return `Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4). This ${section[1]} section explains the need, the approach and the evidence.`;
  }
  throw new UnansweredPromptError(`no writer task recognised in: ${prompt.slice(0, 200)}`);
}

/**
 * The answer to a judge or writer prompt. `unit` is the judge's 0–1 score, placed on each
 * prompt's scale (0.85 → 0.85 on 0–1, 4.4 on 1–5 decimals, 4 on whole 1–5).
 */
export function answerPrompt(messages: readonly PromptMessage[], unit = 0.85): string {
  const prompt = userText(messages);
  return isWriterPrompt(messages) ? writerAnswer(prompt) : judgeAnswer(prompt, unit);
}

/** answerPrompt for the Ollama-protocol server. */
export function ollamaProposalResponder(unit = 0.85): OllamaResponder {
  return (request) => answerPrompt(request.messages, unit);
}

/** answerPrompt for ScriptedChatModel. */
export function scriptedProposalResponder(unit = 0.85): ScriptedResponder {
  return (messages) => answerPrompt(messages, unit);
}
