/**
 * The deterministic injection scan: one small engine over the named rules (injectionRuleSet), run
 * over the original text's normalised view and every decoded or rearranged view (injectionNormalise),
 * each rule only where its keywords can occur. Indices and excerpts refer to the original text,
 * except for findings in a decoded view, whose excerpt is the decoded text.
 */
import { INJECTION_RULES, KeywordHaystack, mayMatch, RULE_KEYWORDS } from "./injectionKeywords.js";
import {
  ALWAYS_HIDDEN,
  type DerivedView,
  derivedViews,
  JOINERS,
  type MainView,
  mainView,
} from "./injectionNormalise.js";
import type { InjectionKind } from "./injectionRules.js";

export type { InjectionKind };

export interface InjectionFinding {
  kind: InjectionKind;
  /** The matched text with some context, invisible characters shown as \u{…}. */
  excerpt: string;
  /** Offset of the match in the original content (UTF-16 code units). */
  index: number;
  /** Which rule matched (and in which view, for a decoded or rearranged one). */
  rule: string;
}

const SCAN = INJECTION_RULES.map((r) => ({ ...r, groups: RULE_KEYWORDS.get(r.rule) }));

type Span = InjectionFinding & { end: number };

const INVISIBLE = new RegExp(`${ALWAYS_HIDDEN.source}|[${[...JOINERS].join("")}]`, "gu");

function visible(text: string): string {
  return text
    .replace(INVISIBLE, (char) => `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`)
    .replace(/\s+/g, " ")
    .trim();
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

/** Every match of every rule that can match the text. */
function* ruleMatches(text: string) {
  const haystack = new KeywordHaystack(text);
  for (const { kind, rule, pattern, groups } of SCAN) {
    if (!mayMatch(groups, haystack)) continue;
    for (const match of text.matchAll(pattern)) yield { kind, rule, match };
  }
}

/** What a match says, for telling a decoded view's finding from one already shown. */
function matchKey(rule: string, matched: string): string {
  return `${rule}\u0000${matched.toLowerCase().replace(/\s+/g, " ").trim()}`;
}

function mainSpans(content: string, main: MainView, seen: Set<string>): Span[] {
  const spans: Span[] = [];
  const add = (kind: InjectionKind, rule: string, start: number, end: number) =>
    spans.push({ kind, rule, index: start, end, excerpt: excerptOf(content, start, end) });
  const inOriginal = (kind: InjectionKind, rule: string, match: RegExpExecArray) =>
    add(
      kind,
      rule,
      main.origin[match.index] ?? 0,
      main.origin[match.index + match[0].length] ?? content.length,
    );
  for (const [start, end] of main.hidden) add("hidden-text", "invisible characters", start, end);
  for (const [start, end] of main.mixedScript) add("obfuscation", "look-alike letters", start, end);
  for (const match of main.view.matchAll(/<!--([\s\S]*?)-->/g)) {
    if (evaluationComment(match[1] ?? "")) inOriginal("hidden-text", "hidden comment", match);
  }
  for (const { kind, rule, match } of ruleMatches(main.view)) {
    seen.add(matchKey(rule, match[0]));
    inOriginal(kind, rule, match);
  }
  return spans;
}

/** Matches in decoded or rearranged views that the main view did not already show. */
function derivedSpans(views: readonly DerivedView[], seen: ReadonlySet<string>): Span[] {
  const spans: Span[] = [];
  const reported = new Set(seen);
  for (const view of views) {
    for (const { kind, rule, match } of ruleMatches(view.text)) {
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
  return spans;
}

/** The most findings one text gives: one holds the result for review, a few show where. */
export const MAX_INJECTION_FINDINGS = 20;

/** Findings of instructions aimed at the judge, in order of position (the first 20). */
export function scanForInjection(content: string): InjectionFinding[] {
  const main = mainView(content);
  const seen = new Set<string>();
  const direct = mainSpans(content, main, seen);
  const spans = [...direct, ...derivedSpans(derivedViews(content, main), seen)];
  spans.sort((a, b) => a.index - b.index || b.end - a.end);
  const findings: InjectionFinding[] = [];
  const lastEnd = new Map<string, number>();
  for (const span of spans) {
    const group = span.rule.includes("(in ") ? `${span.kind}/${span.rule}` : span.kind;
    if (span.index < (lastEnd.get(group) ?? -1)) continue;
    lastEnd.set(group, span.end);
    findings.push({ kind: span.kind, excerpt: span.excerpt, index: span.index, rule: span.rule });
    if (findings.length === MAX_INJECTION_FINDINGS) break;
  }
  return findings;
}
