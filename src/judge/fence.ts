import { createHash } from "node:crypto";

/** Tags the prompts, the judge answer formats or common chat templates give meaning to. */
const PROMPT_TAG =
  /<(\s*\/?\s*)(content|end_content|data|context|sources?|source_documents?|documents?|criterion|guidelines|answer_format|instructions?|system|user|assistant|human|key_point|reflection|coverage_extent|question|reference_answer|candidate_answer)\b([^<>]*)>/gi;

const LT = "\u2039"; // ‹
const GT = "\u203A"; // ›
const GRAVE = "\u02CB"; // ˋ
const TILDE = "\u02DC"; // ˜

/**
 * Replaces what could close or imitate a fence inside data (`<<<`, code fences, prompt and role
 * tags, chat-template tokens) by look-alikes, so no content can end its own data block.
 */
export function neutraliseData(text: string): string {
  return text
    .replace(/<{2,}/g, (run) => LT.repeat(run.length))
    .replace(/>{2,}/g, (run) => GT.repeat(run.length))
    .replace(/`{3,}/g, (run) => GRAVE.repeat(run.length))
    .replace(/~{3,}/g, (run) => TILDE.repeat(run.length))
    .replace(/<\|/g, `${LT}|`)
    .replace(/\|>/g, `|${GT}`)
    .replace(PROMPT_TAG, (_tag, slash: string, name: string, rest: string) => {
      return `${LT}${slash}${name}${rest}${GT}`;
    });
}

/** Data between `<<<LABEL id=…>>>` and `<<<END LABEL id=…>>>`, neutralised. */
export function fenceData(label: string, data: string): string {
  const body = neutraliseData(data);
  const id = createHash("sha256").update(`${label}\n`).update(body).digest("hex").slice(0, 12);
  return `<<<${label} id=${id}>>>\n${body}\n<<<END ${label} id=${id}>>>`;
}
