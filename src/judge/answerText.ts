/**
 * The part of a judge's response that is its answer: at most MAX_ANSWER_CHARS characters are
 * read, and reasoning blocks (`<think>…</think>` and the like) are dropped first, so a draft
 * answer inside them never counts.
 */

/** The longest judge response the parsers read; a longer one is a judge error naming its size. */
export const MAX_ANSWER_CHARS = 64 * 1024;

/** Tags some models put their chain of thought in, before the answer. */
const REASONING_TAGS = ["think", "thinking", "thought", "scratchpad"] as const;

/** Why a response is too long to read, or undefined when it is not. */
export function answerTooLong(text: string, maxChars = MAX_ANSWER_CHARS): string | undefined {
  if (text.length <= maxChars) return undefined;
  return `the answer is ${text.length} characters long; at most ${maxChars} are read`;
}

export interface AnswerText {
  /** The response without its reasoning blocks. */
  text: string;
  /** A reasoning block was opened and never closed: the answer never came. */
  unclosed: boolean;
}

/** Where `tag` next occurs at or after `from`, case-insensitively (-1: nowhere). */
function indexOfTag(text: string, tag: string, from: number): number {
  const pattern = new RegExp(tag, "gi");
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}

/**
 * The response with every reasoning block removed. A closing tag with no opening one (templates
 * that open the block in the prompt) drops everything before it. Linear: each tag is searched
 * for from where the last one ended.
 */
export function stripReasoningBlocks(text: string): AnswerText {
  let out = text;
  let unclosed = false;
  for (const name of REASONING_TAGS) {
    const open = `<${name}>`;
    const close = `</${name}>`;
    const firstOpen = indexOfTag(out, open, 0);
    const firstClose = indexOfTag(out, close, 0);
    if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) {
      out = out.slice(firstClose + close.length);
    }
    let kept = "";
    let pos = 0;
    for (;;) {
      const start = indexOfTag(out, open, pos);
      if (start === -1) break;
      kept += out.slice(pos, start);
      const end = indexOfTag(out, close, start + open.length);
      if (end === -1) {
        unclosed = true;
        pos = out.length;
        break;
      }
      pos = end + close.length;
    }
    out = kept + out.slice(pos);
  }
  return { text: out, unclosed };
}

/**
 * The text of every `<name>…</name>` in order, case-insensitively (linear: each search starts
 * where the last element ended); `open` when the last one is opened but never closed.
 */
export function taggedTexts(text: string, name: string): { inners: string[]; open: boolean } {
  const open = `<${name}>`;
  const close = `</${name}>`;
  const inners: string[] = [];
  let from = 0;
  for (;;) {
    const start = indexOfTag(text, open, from);
    if (start === -1) return { inners, open: false };
    const end = indexOfTag(text, close, start + open.length);
    if (end === -1) return { inners, open: true };
    inners.push(text.slice(start + open.length, end));
    from = end + close.length;
  }
}
