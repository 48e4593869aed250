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

/** The text of every `<name>…</name>`; `open` when the last one never closes. */
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
