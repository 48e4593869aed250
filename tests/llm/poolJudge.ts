/**
 * What the pool tests' stand-in servers answer, as a judge would: a table prompt gets one row per
 * criterion it lists (after a clean screening line when the prompt asks for one), a single
 * criterion's prompt one JSON answer, the guard's own call a clean verdict. And a catalog of
 * `count` criteria about a fresh subject.
 */
import type { Catalog } from "../../src/criteria/model.js";
import { catalogOf } from "../engine/helpers.js";

interface ChatMessage {
  role: string;
  content: string;
}

const SCREENING = /"instruction_bearing": true \| false\}\nresults\[/;

/** The ids a table prompt asks rows for. */
export function idsAsked(prompt: string): string[] {
  const listed = /one row per criterion in this order:\n(.+)\.\n/.exec(prompt);
  return listed === null ? [] : (listed[1] ?? "").split(", ");
}

export function lastUser(messages: readonly ChatMessage[]): string {
  return [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
}

/** The answer a judge gives to one of our prompts (score 7 of 10 everywhere). */
export function judgeReply(messages: readonly ChatMessage[]): string {
  const prompt = lastUser(messages);
  if (prompt.startsWith("Data to classify:")) {
    return '{"reasoning": "Nothing for an AI.", "instruction_bearing": false}';
  }
  const ids = idsAsked(prompt);
  if (ids.length === 0) return '{"reasoning": "The plan names its figures.", "score": 7}';
  const table = [
    `results[${ids.length}]{id,score,quotes,reasoning}:`,
    ...ids.map((id) => `  ${id},7,"","The ${id} plan names its figures."`),
  ].join("\n");
  return SCREENING.test(prompt)
    ? `{"reasoning": "Plain plan.", "instruction_bearing": false}\n${table}`
    : table;
}

/** `count` score criteria (0–10) about a tool library's plan. */
export function toolLibraryCatalog(count: number): Catalog {
  return catalogOf({
    id: `tool-library-${count}`,
    name: "Tool library review",
    version: "1",
    criteria: Array.from({ length: count }, (_, i) => ({
      id: `part${i + 1}`,
      title: `Part ${i + 1} of the lending plan`,
      description: `How well does the proposal explain part ${i + 1} of its lending plan?`,
      weight: 1,
      method: { kind: "score" as const, scale: { min: 0, max: 10, integer: true } },
    })),
  });
}

export const TOOL_LIBRARY = [
  "The Eastgate tool library lends drills, ladders and sewing machines to 400 members.",
  "Volunteers repair returned tools on Saturdays; a 15 EUR yearly fee covers insurance.",
].join("\n");
