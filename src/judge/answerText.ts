/** The longest judge response the parsers read; a longer one is a judge error naming its size. */
export const MAX_ANSWER_CHARS = 64 * 1024;

const REASONING_TAGS = ["think", "thinking", "thought", "scratchpad"] as const;

export function answerTooLong(text: string, maxChars = MAX_ANSWER_CHARS): string | undefined {
  if (text.length <= maxChars) return undefined;
  return `the answer is ${text.length} characters long; at most ${maxChars} are read`;
}

export interface AnswerText {
  text: string;
  /** A reasoning block was opened and never closed: the answer never came. */
  unclosed: boolean;
}

function indexOfTag(text: string, tag: string, from: number): number {
  const pattern = new RegExp(tag, "gi");
  pattern.lastIndex = from;
  return pattern.exec(text)?.index ?? -1;
}

/**
 * The response without its reasoning blocks (`<think>…</think>`), so a draft answer in them never
 * counts. A closing tag alone (templates open the block in the prompt) drops everything before it.
 */
export function stripReasoningBlocks(text: string): AnswerText {
  let out = text;
  let unclosed = false;
  for (const name of REASONING_TAGS) {
    const close = `</${name}>`;
    const firstOpen = indexOfTag(out, `<${name}>`, 0);
    const firstClose = indexOfTag(out, close, 0);
    if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) {
      out = out.slice(firstClose + close.length);
    }
    const blocks = taggedTexts(out, name);
    out = blocks.outside;
    unclosed ||= blocks.open;
  }
  return { text: out, unclosed };
}

/** The text of every `<name>…</name>` and the text outside them; `open` when the last never closes. */
export function taggedTexts(
  text: string,
  name: string,
): { inners: string[]; outside: string; open: boolean } {
  const open = `<${name}>`;
  const close = `</${name}>`;
  const inners: string[] = [];
  let outside = "";
  let from = 0;
  for (;;) {
    const start = indexOfTag(text, open, from);
    if (start === -1) return { inners, outside: outside + text.slice(from), open: false };
    outside += text.slice(from, start);
    const end = indexOfTag(text, close, start + open.length);
    if (end === -1) return { inners, outside, open: true };
    inners.push(text.slice(start + open.length, end));
    from = end + close.length;
  }
}
