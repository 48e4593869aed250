/**
 * The deterministic layers of the injection defence: one small engine over the list of named
 * rules (injectionRuleSet). First the content is normalised (see injectionNormalise: invisible
 * characters removed, NFKC, Cyrillic and Greek look-alikes folded, base64, hex, URL encoding,
 * ROT13 and pig Latin decoded, reversed and split words rejoined), then every rule's pattern is
 * run over the original and every normalised view, each only where its keywords (the prefilter of
 * injectionKeywords) say it can match. Findings force human review; the prompt
 * already tells the judge to treat such text as data and as a weakness. Indices and excerpts
 * refer to the original text, except for findings in a decoded view, whose excerpt is the
 * decoded text.
 */
import { KeywordHaystack, mayMatch } from "./injectionKeywords.js";
import {
  ALWAYS_HIDDEN,
  type DerivedView,
  derivedViews,
  JOINERS,
  type MainView,
  mainView,
} from "./injectionNormalise.js";
import { INJECTION_RULES, RULE_KEYWORDS } from "./injectionRuleSet.js";
import { INJECTION_KINDS, type InjectionKind } from "./injectionRules.js";

export { INJECTION_KINDS, INJECTION_RULES, type InjectionKind };

export interface InjectionFinding {
  kind: InjectionKind;
  /** The matched text with some context, invisible characters shown as \u{…}. */
  excerpt: string;
  /** Offset of the match in the original content (UTF-16 code units). */
  index: number;
  /** Which rule matched (and in which view, for a decoded or rearranged one). */
  rule: string;
}

/** The rules with their keyword groups, as the engine runs them. */
const SCAN = INJECTION_RULES.map((r) => ({ ...r, groups: RULE_KEYWORDS.get(r.rule) }));

type Span = InjectionFinding & { end: number };

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

/**
 * A hidden comment that speaks to the evaluation: one of the judge's words, or whoever reads it
 * (a reviewer, a model, a bot) told what to do or what the verdict is.
 */
function evaluationComment(inner: string): boolean {
  if (
    /\b(?:ignore|score|judge|evaluator|grader|rubric|instruction|approve|pass|ai)\b/i.test(inner)
  ) {
    return true;
  }
  const reader = /\b(?:reviewer|assessor|examiner|model|llm|assistant|bot)s?\b/i.test(inner);
  const directive =
    /\b(?:mark|rate|treat|give|award|assign|count|consider|skip|disregard|overlook|compliant|met|satisfied|excellent|full\s+marks|meets|fulfils|fulfills|satisfies|fulfilled|approved)\b/i;
  return reader && directive.test(inner);
}

/** Findings of instructions aimed at the judge, in order of position. */
function hiddenSpans(content: string, main: MainView): Span[] {
  const spans: Span[] = [];
  for (const [start, end] of main.hidden) {
    const excerpt = excerptOf(content, start, end);
    spans.push({ kind: "hidden-text", rule: "invisible characters", index: start, end, excerpt });
  }
  for (const [start, end] of main.mixedScript) {
    const excerpt = excerptOf(content, start, end);
    spans.push({ kind: "obfuscation", rule: "look-alike letters", index: start, end, excerpt });
  }
  for (const match of main.view.matchAll(/<!--([\s\S]*?)-->/g)) {
    const inner = match[1] ?? "";
    if (!evaluationComment(inner)) continue;
    const start = main.origin[match.index] ?? 0;
    const end = main.origin[match.index + match[0].length] ?? content.length;
    const excerpt = excerptOf(content, start, end);
    spans.push({ kind: "hidden-text", rule: "hidden comment", index: start, end, excerpt });
  }
  return spans;
}

/** What a match says, for telling a decoded view's finding from one already shown. */
function matchKey(rule: string, matched: string): string {
  return `${rule}\u0000${matched.toLowerCase().replace(/\s+/g, " ").trim()}`;
}

function ruleSpans(content: string, main: MainView, seen: Set<string>): Span[] {
  const spans: Span[] = [];
  const haystack = new KeywordHaystack(main.view);
  for (const { kind, rule, pattern, groups } of SCAN) {
    if (!mayMatch(groups, haystack)) continue;
    for (const match of main.view.matchAll(pattern)) {
      seen.add(matchKey(rule, match[0]));
      const start = main.origin[match.index] ?? 0;
      const end = main.origin[match.index + match[0].length] ?? content.length;
      spans.push({ kind, rule, index: start, end, excerpt: excerptOf(content, start, end) });
    }
  }
  return spans;
}

/** Matches in decoded or rearranged views that the main view did not already show. */
function derivedSpans(views: readonly DerivedView[], seen: ReadonlySet<string>): Span[] {
  const spans: Span[] = [];
  const reported = new Set(seen);
  for (const view of views) {
    const haystack = new KeywordHaystack(view.text);
    for (const { kind, rule, pattern, groups } of SCAN) {
      if (!mayMatch(groups, haystack)) continue;
      for (const match of view.text.matchAll(pattern)) {
        const key = matchKey(rule, match[0]);
        if (reported.has(key)) continue;
        reported.add(key);
        const excerpt = excerptOf(view.text, match.index, match.index + match[0].length);
        spans.push({
          kind,
          rule: `${rule} (in ${view.label})`,
          index: view.at,
          end: view.at + 1,
          excerpt: `${view.label}: ${excerpt}`,
        });
      }
    }
  }
  return spans;
}

/** Findings of instructions aimed at the judge, in order of position. */
export function scanForInjection(content: string): InjectionFinding[] {
  const main = mainView(content);
  const seen = new Set<string>();
  const direct = [...hiddenSpans(content, main), ...ruleSpans(content, main, seen)];
  const spans = [...direct, ...derivedSpans(derivedViews(content, main), seen)];
  spans.sort((a, b) => a.index - b.index || b.end - a.end);
  const findings: InjectionFinding[] = [];
  const lastEnd = new Map<string, number>();
  for (const span of spans) {
    const group = span.rule.includes("(in ") ? `${span.kind}/${span.rule}` : span.kind;
    if (span.index < (lastEnd.get(group) ?? -1)) continue;
    lastEnd.set(group, span.end);
    findings.push({ kind: span.kind, excerpt: span.excerpt, index: span.index, rule: span.rule });
  }
  return findings;
}
