import { createHash } from "node:crypto";

/**
 * Content under evaluation is data. It is put between two delimiter lines
 * (`<<<CONTENT id=…>>>` … `<<<END CONTENT id=…>>>`) after everything in it that could close or
 * imitate a delimiter, a code fence, a prompt tag or a chat-template token has been neutralised,
 * so no content can end its own data block.
 */

/** Tags the prompts, the judge answer formats or common chat templates give meaning to. */
const PROMPT_TAG =
  /<(\s*\/?\s*)(content|end_content|data|context|sources?|source_documents?|documents?|criterion|guidelines|answer_format|instructions?|system|user|assistant|human|key_point|reflection|coverage_extent|question|reference_answer|candidate_answer)\b([^<>]*)>/gi;

/** The visible stand-ins used for neutralised characters. */
const LT = "\u2039"; // ‹
const GT = "\u203A"; // ›
const GRAVE = "\u02CB"; // ˋ
const TILDE = "\u02DC"; // ˜

/**
 * Neutralises what could close or imitate a fence inside data: runs of two or more `<` or `>`
 * (our delimiters start with `<<<`; `<<SYS>>`), ``` and ~~~ code fences, prompt and role tags
 * (`</content>`, `<system>`), and chat-template tokens (`<|im_start|>`). Each is replaced by a
 * look-alike that reads the same but no longer has the meaning. Everything else is kept as is.
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

/** A short id derived from the block: stable for the same input, different for different data. */
function fenceId(label: string, body: string): string {
  return createHash("sha256").update(label).update("\n").update(body).digest("hex").slice(0, 12);
}

/** The opening and closing delimiter lines of a data block. */
function fenceLines(label: string, id: string): { open: string; close: string } {
  return { open: `<<<${label} id=${id}>>>`, close: `<<<END ${label} id=${id}>>>` };
}

/**
 * Puts data between delimiter lines, neutralised. `label` is an upper-case name such as
 * `CONTENT` or `SOURCE DOCUMENTS`.
 */
export function fenceData(label: string, data: string): string {
  const body = neutraliseData(data);
  const { open, close } = fenceLines(label, fenceId(label, body));
  return `${open}\n${body}\n${close}`;
}
