/**
 * A scan of content under evaluation for text aimed at the judge rather than at a human reader:
 * instructions to ignore the rules, role changes, score demands, chat-template role tags, fake
 * judge answers, claims of pre-approval and hidden characters. Findings force human review; the
 * prompt already tells the judge to treat such text as data and as a weakness.
 *
 * The patterns are anchored on phrasing addressed to an evaluator or model, so ordinary proposal
 * prose ("the team will act as coordinator", "we rate the risk as low") does not match. Text is
 * scanned after removing invisible characters and NFKC-normalising (so "ig\u200Bnore" and
 * full-width letters do not hide a phrase); indices and excerpts refer to the original text.
 */

export const INJECTION_KINDS = [
  "instruction-override",
  "role-override",
  "score-manipulation",
  "role-tag",
  "fake-answer",
  "pre-approval",
  "hidden-text",
] as const;
export type InjectionKind = (typeof INJECTION_KINDS)[number];

export interface InjectionFinding {
  kind: InjectionKind;
  /** The matched text with some context, invisible characters shown as \u{…}. */
  excerpt: string;
  /** Offset of the match in the original content (UTF-16 code units). */
  index: number;
  /** Which rule matched. */
  rule: string;
}

interface Rule {
  kind: InjectionKind;
  rule: string;
  pattern: RegExp;
}

const SUBJECT = String.raw`(?:(?:this|that|the|our|my)\s+(?:proposal|application|project|submission|content|section|applicant|answer|document|text)|this|it)`;
const HIGH = "(?:full|perfect|maximum|max|highest|top|high|best)";

const RULES: readonly Rule[] = [
  {
    kind: "instruction-override",
    rule: "ignore previous instructions",
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:(?:all|any|the|your|these|those|of|every)\s+)*(?:previous|prior|above|earlier|preceding|foregoing|original|system|existing|other)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|messages|context|commands?)\b/gi,
  },
  {
    kind: "instruction-override",
    rule: "ignore all instructions",
    pattern:
      /\b(?:ignore|disregard|forget)\s+(?:all|any|every)\s+(?:of\s+)?(?:(?:your|the|my)\s+)?(?:instructions|rules)\b/gi,
  },
  {
    kind: "instruction-override",
    rule: "disregard the rubric",
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|this|of)\s+)*(?:rubric|rubrics|scoring\s+(?:rules|criteria|guidelines|rubric)|evaluation\s+(?:criteria|rubric|rules|guidelines)|grading\s+(?:criteria|rubric|rules|guidelines)|judging\s+criteria)\b/gi,
  },
  {
    kind: "instruction-override",
    rule: "new instructions",
    pattern:
      /\b(?:new|updated|revised)\s+(?:system\s+)?instructions\s*(?::|for\s+the\s+(?:ai|judge|evaluator|model|grader))/gi,
  },
  {
    kind: "role-override",
    rule: "you are now",
    pattern:
      /\byou\s+are\s+now\s+(?:a|an|the|my|acting|in|no\s+longer|free|going\s+to|playing|operating|DAN)\b/gi,
  },
  {
    kind: "role-override",
    rule: "pretend to be",
    pattern: /\bpretend\s+(?:to\s+be|that\s+you\s+are|you\s+are)\b/gi,
  },
  {
    kind: "role-override",
    rule: "from now on you",
    pattern:
      /\bfrom\s+now\s+on,?\s+(?:you|the\s+(?:judge|evaluator|reviewer|model|assistant|grader))\b/gi,
  },
  {
    kind: "role-override",
    rule: "you must act as",
    pattern:
      /\byou\s+(?:must|should|will|shall)\s+(?:now\s+)?(?:act|behave|respond|pretend)\s+as\b/gi,
  },
  {
    kind: "role-override",
    rule: "addressing the AI judge",
    pattern:
      /\b(?:(?:note|message|instruction)s?\s+(?:to|for)\s+(?:the\s+)?|dear\s+|attention\s*,?\s+|hey\s+)(?:ai|llm|gpt|language\s+model|ai\s+(?:judge|evaluator|reviewer|grader|assistant)|judge\s+model|automated\s+(?:judge|evaluator|grader))\b/gi,
  },
  {
    kind: "role-override",
    rule: "as the AI judge, you",
    pattern:
      /\bas\s+(?:an?\s+|the\s+)?(?:ai|llm|language\s+model|judge|evaluator|grader)\s*,\s*you\s+(?:must|should|will|are\s+to)\b/gi,
  },
  {
    kind: "score-manipulation",
    rule: "give this a score",
    pattern: new RegExp(
      String.raw`\b(?:give|assign|award|grant)\s+${SUBJECT}\s+(?:an?\s+|the\s+)?(?:${HIGH}\s+)?(?:score|rating|grade|marks?|points)\b(?:\s+of\s+\d+(?:\.\d+)?)?`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "give this N",
    pattern: new RegExp(
      String.raw`\b(?:give|assign|award)\s+${SUBJECT}\s+(?:an?\s+)?\d+(?:\.\d+)?(?:\s*\/\s*\d+|\s+out\s+of\s+\d+|\s+points|\s+stars)?`,
      "gi",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "rate this 5/5",
    pattern: new RegExp(
      String.raw`\b(?:rate|score|grade|mark)\s+${SUBJECT}\s+(?:(?:as|with|a|an)\s+)*(?:\d+(?:\.\d+)?\s*(?:\/|out\s+of)\s*\d+|\d+(?:\.\d+)?\s*(?:points|stars)?(?=\s*[.,;!]|\s*$)|excellent|perfect|outstanding|${HIGH}\s+(?:marks|score|rating)|pass(?:ed|ing)?)`,
      "gim",
    ),
  },
  {
    kind: "score-manipulation",
    rule: "output pass",
    pattern:
      /\b(?:output|return|respond\s+with|reply\s+with|answer\s+with|print|emit|just\s+say)\s*:?\s*["'`]?(?:pass|passed|approved|fundable|excellent)\b(?!\s+(?:rate|rates|through|the\s+test))/gi,
  },
  {
    kind: "score-manipulation",
    rule: "must receive the highest score",
    pattern: new RegExp(
      String.raw`\b(?:must|should|shall|deserves?\s+to|has\s+to|needs\s+to)\s+(?:be\s+)?(?:receive|get|given|awarded|rated|scored|pass)\s+(?:a\s+|the\s+)?(?:${HIGH}\s+(?:score|marks|rating|grade|points)|this\s+(?:check|evaluation|criterion|assessment|review))`,
      "gi",
    ),
  },
  {
    kind: "role-tag",
    rule: "role tag",
    pattern: /<\s*\/?\s*(?:system|assistant|user|instructions?|sys|system_prompt)\s*>/gi,
  },
  { kind: "role-tag", rule: "[INST] tag", pattern: /\[\/?INST\]|<<\/?SYS>>/gi },
  { kind: "role-tag", rule: "chat-template token", pattern: /<\|[a-z_]{2,40}\|>/gi },
  {
    kind: "role-tag",
    rule: "### System: header",
    pattern: /^[ \t]*#{1,6}[ \t]*(?:system|assistant|user)(?:[ \t]+prompt)?[ \t]*:/gim,
  },
  {
    kind: "fake-answer",
    rule: "JSON score field",
    pattern: /["']\s*(?:score|coverage_extent)\s*["']\s*:\s*["']?[-+]?\.?\d/gi,
  },
  {
    kind: "fake-answer",
    rule: "JSON result field",
    pattern: /["']\s*(?:result|verdict)\s*["']\s*:\s*["']\s*(?:pass|passed|fail|failed)\b/gi,
  },
  { kind: "fake-answer", rule: "JSON level_id field", pattern: /["']\s*level_id\s*["']\s*:/gi },
  {
    kind: "fake-answer",
    rule: "XML coverage answer",
    pattern: /<\s*(?:coverage_extent|reflection)\s*>/gi,
  },
  {
    kind: "fake-answer",
    rule: "TOON results table",
    pattern: /\bresults\[\d+,?\]\{[^}\n]*\b(?:score|result)\b[^}\n]*\}:/gi,
  },
  {
    kind: "pre-approval",
    rule: "pre-approved",
    pattern: new RegExp(
      String.raw`\b${SUBJECT}\s+(?:has\s+(?:already\s+)?been\s+|(?:is|was)\s+(?:already\s+)?)(?:pre-?\s?approved|pre-?\s?authori[sz]ed|approved\s+in\s+advance|already\s+approved|guaranteed\s+(?:approval|funding))`,
      "gi",
    ),
  },
  {
    kind: "pre-approval",
    rule: "no evaluation needed",
    pattern: new RegExp(
      String.raw`\bno\s+(?:further\s+)?(?:evaluation|scoring|assessment)\s+(?:is\s+)?(?:needed|required|necessary)\b|\b${SUBJECT}\s+(?:does\s+not|doesn't|need\s+not)\s+(?:need\s+to\s+|have\s+to\s+)?(?:be\s+)?(?:evaluated|scored|assessed)`,
      "gi",
    ),
  },
  {
    kind: "hidden-text",
    rule: "hidden style",
    pattern:
      /style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|pt|em)?\s*[;"']|color\s*:\s*(?:white|#fff(?:fff)?)\b)/gi,
  },
];

/** Invisible characters that have no place in proposal prose. */
const ALWAYS_HIDDEN =
  /[\u200B\u2060-\u2064\u180E\u202A-\u202E\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/u;
/** Joiners and marks legitimate in some scripts and emoji: hidden only inside Latin text. */
const JOINERS: ReadonlySet<string> = new Set(["\u200C", "\u200D", "\u200E", "\u200F", "\u00AD"]);
const LATIN = /[A-Za-z0-9]/;

function isHiddenAt(text: string, index: number, char: string): boolean {
  if (ALWAYS_HIDDEN.test(char)) return !(char === "\uFEFF" && index === 0);
  if (!JOINERS.has(char)) return false;
  const before = text[index - 1] ?? "";
  const after = text[index + char.length] ?? "";
  return LATIN.test(before) || LATIN.test(after);
}

/** The text as scanned (invisible characters removed, NFKC) and where each unit came from. */
function scanView(text: string): {
  view: string;
  origin: number[];
  hidden: Array<[number, number]>;
} {
  let view = "";
  const origin: number[] = [];
  const hidden: Array<[number, number]> = [];
  let index = 0;
  for (const char of text) {
    if (ALWAYS_HIDDEN.test(char) || JOINERS.has(char)) {
      if (isHiddenAt(text, index, char)) {
        const last = hidden[hidden.length - 1];
        if (last !== undefined && last[1] === index) last[1] = index + char.length;
        else hidden.push([index, index + char.length]);
      }
    } else {
      const normal = char.normalize("NFKC");
      for (let i = 0; i < normal.length; i++) origin.push(index);
      view += normal;
    }
    index += char.length;
  }
  origin.push(text.length);
  return { view, origin, hidden };
}

function visible(text: string): string {
  let out = "";
  for (const char of text) {
    if (ALWAYS_HIDDEN.test(char) || JOINERS.has(char)) {
      out += `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
    } else {
      out += char;
    }
  }
  return out.replace(/\s+/g, " ").trim();
}

const EXCERPT_CONTEXT = 30;

function excerptOf(text: string, start: number, end: number): string {
  const from = Math.max(0, start - EXCERPT_CONTEXT);
  const to = Math.min(text.length, Math.max(end, start + 1) + EXCERPT_CONTEXT);
  return `${from > 0 ? "…" : ""}${visible(text.slice(from, to))}${to < text.length ? "…" : ""}`;
}

/** Findings of instructions aimed at the judge, in order of position. */
export function scanForInjection(content: string): InjectionFinding[] {
  const { view, origin, hidden } = scanView(content);
  const spans: Array<InjectionFinding & { end: number }> = [];

  for (const [start, end] of hidden) {
    spans.push({
      kind: "hidden-text",
      rule: "invisible characters",
      index: start,
      end,
      excerpt: excerptOf(content, start, end),
    });
  }
  const hiddenComment = /<!--([\s\S]*?)-->/g;
  for (const match of view.matchAll(hiddenComment)) {
    const inner = match[1] ?? "";
    if (
      !/\b(?:ignore|score|judge|evaluator|grader|rubric|instruction|approve|pass|ai)\b/i.test(inner)
    ) {
      continue;
    }
    const start = origin[match.index] ?? 0;
    const end = origin[match.index + match[0].length] ?? content.length;
    spans.push({
      kind: "hidden-text",
      rule: "hidden comment",
      index: start,
      end,
      excerpt: excerptOf(content, start, end),
    });
  }
  for (const { kind, rule, pattern } of RULES) {
    for (const match of view.matchAll(pattern)) {
      const start = origin[match.index] ?? 0;
      const end = origin[match.index + match[0].length] ?? content.length;
      spans.push({ kind, rule, index: start, end, excerpt: excerptOf(content, start, end) });
    }
  }

  spans.sort((a, b) => a.index - b.index || b.end - a.end);
  const findings: InjectionFinding[] = [];
  const lastEnd = new Map<InjectionKind, number>();
  for (const span of spans) {
    if (span.index < (lastEnd.get(span.kind) ?? -1)) continue;
    lastEnd.set(span.kind, span.end);
    findings.push({ kind: span.kind, excerpt: span.excerpt, index: span.index, rule: span.rule });
  }
  return findings;
}
