/**
 * Content that differs from thread to thread, for bench/state.ts: a request for proposals and a
 * research result of their own per thread (the shipped scripted answers with a few words drawn
 * at random in each field), so nothing a thread stores is found in another thread's rows by
 * accident — not its content in the checkpoints, nor in the trace store's blobs, nor in the judge
 * cache. The judge answers as bench:engine's model does (bench/latencyAnswers.ts): a score, quotes
 * of the content and a reasoning for each criterion, one JSON object or one TOON table row each.
 */
import { randomInt } from "node:crypto";
import { createChatModel } from "../src/llm/chatModel.js";
import { answerPrompt, isWriterPrompt } from "../tests/devserver/proposalResponder.js";
import { ScriptedChatModel } from "../tests/doubles/scriptedChatModel.js";
import { composeAnswer } from "./latencyAnswers.js";

const WORDS = [
  "flood",
  "resilience",
  "household",
  "county",
  "retrofit",
  "community",
  "drainage",
  "tenant",
  "survey",
  "coastal",
  "shelter",
  "outreach",
  "insurance",
  "volunteer",
  "warning",
  "wetland",
];

/** `count` words drawn at random (16 words: 4 bits of difference each). */
export function randomWords(count: number): string {
  return Array.from({ length: count }, () => WORDS[randomInt(WORDS.length)]).join(" ");
}

/** A request for proposals of its own: the bench's two lines and a sentence drawn at random. */
export function distinctRfp(): string {
  return [
    "Calder Bay Community Foundation — Resilient Neighbourhoods 2026.",
    `Flood resilience: ${randomWords(24)}.`,
  ].join("\n");
}

/** The research answer with a few random words in each text field and list item. */
function distinctResearch(answer: string): string {
  const research = JSON.parse(answer) as Record<string, unknown>;
  const varied = Object.fromEntries(
    Object.entries(research).map(([key, value]) => [
      key,
      typeof value === "string"
        ? `${value} (${randomWords(3)})`
        : Array.isArray(value)
          ? value.map((item) => `${String(item)} (${randomWords(3)})`)
          : value,
    ]),
  );
  return JSON.stringify(varied);
}

/** The zero-latency scripted writer and judge, writing research of its own for every thread. */
export function distinctProposalModel() {
  return createChatModel(
    new ScriptedChatModel({
      responder: (messages) => {
        if (!isWriterPrompt(messages)) {
          return composeAnswer(messages.map((m) => ({ role: m.role, text: m.content }))).text;
        }
        const answer = answerPrompt(messages, 0.85);
        const user = messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
        return user.startsWith("Analyse the request for proposals")
          ? distinctResearch(answer)
          : answer;
      },
    }),
  );
}
