/**
 * What the latency model answers: it reads the judge prompt the way a model would have to — the
 * answer format at its end — and answers in that format. A single-criterion prompt gets one JSON
 * object (a score on the scale the prompt names, pass/fail, or one of the level ids listed); a
 * batch prompt gets the TOON table `results[K]{id,score,quotes,reasoning}:` with one row per id it lists.
 *
 * The decision is derived from the criterion's title (a hash), so a criterion gets the same decision
 * in a single prompt and in a batch; the reasoning quotes the content sentence that best matches the criterion,
 * so answers are about as long as a real judge's.
 */
import { TABLE_QUOTE_WORDS } from "../prompts/evaluation/index.js";

/** What the answer's decisive value must be. */
export type AnswerShape =
  | { kind: "scale"; min: number; max: number; integer: boolean }
  | { kind: "check" }
  | { kind: "levels"; ids: string[] };

/** A message as the model reads it. */
export interface PromptMessage {
  /** "system", "human" (or "user"), "ai". */
  role: string;
  text: string;
}

export interface ComposedAnswer {
  text: string;
  purpose: "criterion" | "batch";
  /** What was answered: the criterion ids of a batch, the criterion title of a single prompt. */
  answered: string[];
}

/** The prompt does not say in which format to answer (not a judge prompt this model knows). */
export class LatencyPromptError extends Error {
  constructor(readonly problem: string) {
    super(`latency model: cannot answer this prompt: ${problem}`);
    this.name = "LatencyPromptError";
  }
}

const SCALE_PHRASE = /(a whole number|a number) from (-?\d+(?:\.\d+)?) to (-?\d+(?:\.\d+)?)/;
const BATCH_HEADER = /results\[(\d+)\]\{id,score,(quotes,)?reasoning\}:/;
const CONTENT_BLOCK = /<<<CONTENT id=[0-9a-f]+>>>\n([\s\S]*?)\n<<<END CONTENT id=[0-9a-f]+>>>/;
const WORD = /[a-z][a-z-]{2,}/g;
const QUOTE_WORDS = 24;

/** FNV-1a: a stable 0–1 value per criterion, so answers repeat exactly. */
export function unitHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash / 0x1_0000_0000;
}

function scaleShape(match: RegExpExecArray): AnswerShape {
  return {
    kind: "scale",
    integer: match[1] === "a whole number",
    min: Number(match[2]),
    max: Number(match[3]),
  };
}

/** The shape a single-criterion answer format asks for (the text after "Answer format"). */
export function singleShape(format: string): AnswerShape | undefined {
  const levels = /"level_id": ((?:"[^"\n]*"(?: \| )?)+)/.exec(format);
  if (levels !== null) {
    const ids = [...(levels[1] ?? "").matchAll(/"([^"\n]*)"/g)].map((m) => m[1] ?? "");
    return ids.length > 0 ? { kind: "levels", ids } : undefined;
  }
  if (/"result": "pass" \| "fail"/.test(format)) return { kind: "check" };
  const scale = /"score": <([^>\n]*)>/.exec(format);
  const phrase = scale === null ? null : SCALE_PHRASE.exec(scale[1] ?? "");
  return phrase === null ? undefined : scaleShape(phrase);
}

/** The shape a batch prompt's `score cell:` hint asks for. */
export function cellShape(hint: string): AnswerShape | undefined {
  if (hint.trim() === "pass or fail") return { kind: "check" };
  const levels = /^one level id: (.+)$/.exec(hint.trim());
  if (levels !== null) return { kind: "levels", ids: (levels[1] ?? "").split(", ") };
  const phrase = SCALE_PHRASE.exec(hint);
  return phrase === null ? undefined : scaleShape(phrase);
}

export interface Decision {
  /** The cell or JSON value: a number on the scale, "pass" / "fail", a level id. */
  value: number | string;
  /** How good the judge found it, 0–1. */
  quality: number;
}

export function decide(shape: AnswerShape, key: string): Decision {
  const u = unitHash(key);
  const quality = 0.45 + 0.5 * u;
  switch (shape.kind) {
    case "scale": {
      const raw = shape.min + quality * (shape.max - shape.min);
      const value = shape.integer ? Math.round(raw) : Math.round(raw * 100) / 100;
      return { value, quality };
    }
    case "check":
      return u >= 0.2 ? { value: "pass", quality } : { value: "fail", quality: 0.2 };
    case "levels": {
      const ids = [...shape.ids].sort();
      const at = Math.min(ids.length - 1, Math.floor(u * ids.length));
      return { value: ids[at] ?? "", quality };
    }
  }
}

/** Every prompt of a benchmark carries the same content: its sentences and quotes are kept. */
let contentCache: { content: string; sentences: string[]; quotes: Map<string, string> } | undefined;

function cacheFor(content: string) {
  if (contentCache?.content !== content) {
    contentCache = { content, sentences: splitSentences(content), quotes: new Map() };
  }
  return contentCache;
}

/** The content's sentences, markdown markers, headings and tables removed. */
function splitSentences(content: string): string[] {
  const sentences = content
    .split(/\n\s*\n/)
    .filter((block) => !/^\s*[#|]/.test(block))
    .map((block) => block.replace(/[*_`]/g, "").replace(/\s+/g, " ").trim())
    .flatMap((block) => block.split(/(?<=[.!?])\s+(?=[A-Z0-9])/))
    .filter((sentence) => sentence.split(" ").length >= 6);
  return sentences;
}

/**
 * The content sentence sharing the most words with the criterion title (when none shares one, a
 * sentence picked by the title's hash), shortened.
 */
export function quoteFor(title: string, content: string): string {
  const cache = cacheFor(content);
  const known = cache.quotes.get(title);
  if (known !== undefined) return known;
  const wanted = new Set(title.toLowerCase().match(WORD) ?? []);
  const sentences = cache.sentences;
  let best = sentences[Math.floor(unitHash(title) * sentences.length)] ?? "";
  let bestScore = 0;
  for (const sentence of sentences) {
    const words = sentence.toLowerCase().match(WORD) ?? [];
    const score = words.filter((w) => wanted.has(w)).length;
    if (score > bestScore) {
      best = sentence;
      bestScore = score;
    }
  }
  const words = best.split(" ");
  const quote = words.length > QUOTE_WORDS ? `${words.slice(0, QUOTE_WORDS).join(" ")} …` : best;
  cache.quotes.set(title, quote);
  return quote;
}

export function reasoningFor(
  title: string,
  content: string,
  decision: Decision,
  quoted = false,
): string {
  const quote = quoteFor(title, content);
  const evidence =
    quote === ""
      ? "The content says little about this."
      : quoted
        ? "The quoted passage is the evidence."
        : `It states: "${quote}"`;
  const verdict =
    decision.quality >= 0.8
      ? "This is specific and backed by figures and named sources, so the criterion is met."
      : decision.quality >= 0.6
        ? "This is relevant and partly evidenced, but some parts of the criterion are not shown."
        : "This is general; the evidence the criterion asks for is largely missing.";
  return `On ${title.toLowerCase()}: ${evidence} ${verdict}`;
}

function singleJson(shape: AnswerShape, decision: Decision, reasoning: string, title: string) {
  switch (shape.kind) {
    case "check":
      return { reasoning, result: decision.value };
    case "levels":
      return { reasoning, level_id: decision.value };
    case "scale": {
      const misses = decision.quality >= 0.9 ? [] : ["Some claims are not backed by a source"];
      return {
        reasoning,
        score: decision.value,
        hits: [`Concrete evidence on ${title.toLowerCase()}`, "Figures with named sources"],
        misses,
      };
    }
  }
}

export function lastHuman(messages: readonly PromptMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role === "human" || message?.role === "user") return message.text;
  }
  return "";
}

export function contentOf(messages: readonly PromptMessage[]): string {
  for (const message of messages) {
    const found = CONTENT_BLOCK.exec(message.text);
    if (found !== null) return found[1] ?? "";
  }
  return "";
}

/** The ids a batch prompt (or its repair prompt) asks rows for. */
export function batchIds(user: string): string[] | undefined {
  const listed =
    /one row per criterion in this order:\n(.+)\.\n/.exec(user) ??
    /with exactly one row for each of: (.+)\.\s*$/m.exec(user);
  return listed === null ? undefined : (listed[1] ?? "").split(", ");
}

/** Each criterion block of a batch prompt: `N. [id] title` … `score cell: <hint>`. */
export function batchCriteria(text: string): Map<string, { title: string; shape: AnswerShape }> {
  const found = new Map<string, { title: string; shape: AnswerShape }>();
  const heads = [...text.matchAll(/^\d+\. \[([^\]\n]+)\] (.*)$/gm)];
  for (const head of heads) {
    const rest = text.slice((head.index ?? 0) + head[0].length);
    const hint = /^score cell: (.*)$/m.exec(rest);
    const shape = hint === null ? undefined : cellShape(hint[1] ?? "");
    if (shape !== undefined) found.set(head[1] ?? "", { title: head[2] ?? "", shape });
  }
  return found;
}

function batchAnswer(
  messages: readonly PromptMessage[],
  user: string,
  count: number,
  quoted: boolean,
) {
  const ids = batchIds(user);
  if (ids === undefined || ids.length !== count) {
    throw new LatencyPromptError(`the batch prompt lists no ${count} criterion ids`);
  }
  const criteria = batchCriteria(messages.map((m) => m.text).join("\n"));
  const content = contentOf(messages);
  const rows = ids.map((id) => {
    const criterion = criteria.get(id);
    if (criterion === undefined) {
      throw new LatencyPromptError(`the batch prompt has no criterion block for ${id}`);
    }
    const decision = decide(criterion.shape, criterion.title);
    const reasoning = JSON.stringify(reasoningFor(criterion.title, content, decision, quoted));
    if (!quoted) return `  ${id},${decision.value},${reasoning}`;
    // The table prompt asks for short quotes and a reasoning that does not repeat them.
    const words = quoteFor(criterion.title, content).replace(/ …$/, "").split(" ");
    const quote = JSON.stringify(words.slice(0, TABLE_QUOTE_WORDS).join(" "));
    return `  ${id},${decision.value},${quote},${reasoning}`;
  });
  const columns = quoted ? "id,score,quotes,reasoning" : "id,score,reasoning";
  return [`results[${count}]{${columns}}:`, ...rows].join("\n");
}

function singleAnswer(messages: readonly PromptMessage[], user: string): ComposedAnswer {
  const formatAt = user.lastIndexOf("Answer format");
  const shape = formatAt < 0 ? undefined : singleShape(user.slice(formatAt));
  if (shape === undefined) throw new LatencyPromptError("no answer format this model knows");
  const title = /^(?:Criterion|Requirement): (.*)$/m.exec(user)?.[1]?.trim() ?? "the criterion";
  const decision = decide(shape, title);
  const reasoning = reasoningFor(title, contentOf(messages), decision);
  return {
    text: JSON.stringify(singleJson(shape, decision, reasoning, title)),
    purpose: "criterion",
    answered: [title],
  };
}

/** The answer to a judge prompt: a batch table when it asks for one, else one JSON object. */
export function composeAnswer(messages: readonly PromptMessage[]): ComposedAnswer {
  const user = lastHuman(messages);
  const header = BATCH_HEADER.exec(user);
  if (header !== null) {
    const count = Number(header[1]);
    const text = batchAnswer(messages, user, count, header[2] !== undefined);
    return { text, purpose: "batch", answered: batchIds(user) ?? [] };
  }
  return singleAnswer(messages, user);
}
