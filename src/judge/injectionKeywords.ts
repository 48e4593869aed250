import { ENGLISH_RULES, type InjectionRule } from "./injectionRules.js";
import { DIRECTIVE_RULES } from "./injectionRulesDirectives.js";
import { FOREIGN_RULES } from "./injectionRulesForeign.js";
import { FORGED_RULES } from "./injectionRulesForged.js";
import { STRUCTURAL_RULES } from "./injectionRulesStructural.js";

/**
 * An exact prefilter for the injection patterns: every match of a rule's pattern holds one keyword
 * of each of its groups, so a view lacking a group is not scanned. Folding maps what
 * case-insensitive patterns equate with an ASCII letter but lower-casing does not (ı, ſ, K).
 * Format: groups joined by " & ", words by spaces; N/N stands for "10/10", "5 / 5".
 */
export function keywordGroups(spec: string): string[][] {
  return spec.split(" & ").map((group) => group.split(" ").filter((word) => word !== ""));
}

/** All injection rules, in the order the scan runs them. */
export const INJECTION_RULES: readonly InjectionRule[] = [
  ...ENGLISH_RULES,
  ...FORGED_RULES,
  ...FOREIGN_RULES,
  ...STRUCTURAL_RULES,
  ...DIRECTIVE_RULES,
];

export const RULE_KEYWORDS: ReadonlyMap<string, ReadonlyArray<readonly string[]>> = new Map(
  INJECTION_RULES.flatMap((r) =>
    r.keywords === undefined ? [] : [[r.rule, keywordGroups(r.keywords)]],
  ),
);

const CASE_FOLD_EXTRAS: Readonly<Record<string, string>> = {
  ı: "i",
  ſ: "s",
  "\u212A": "k",
};

const TRIGRAM_SLOTS = 1 << 16;

function trigramSlot(a: number, b: number, c: number): number {
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35);
  return (h ^ (h >>> 16)) & (TRIGRAM_SLOTS - 1);
}

/** A hashed table of the folded text's trigrams rules most absent keywords out without a search. */
export class KeywordHaystack {
  private readonly folded: string;
  private readonly slashedNumbers: boolean;
  private readonly trigrams = new Uint32Array(TRIGRAM_SLOTS / 32);
  private readonly seen = new Map<string, boolean>();

  constructor(text: string) {
    const folded = text.toLowerCase().replace(/[ıſ\u212A]/g, (c) => CASE_FOLD_EXTRAS[c] ?? c);
    this.folded = folded;
    this.slashedNumbers = /\d\s*\/\s*\d/.test(text);
    let a = folded.charCodeAt(0);
    let b = folded.charCodeAt(1);
    for (let i = 2; i < folded.length; i++) {
      const c = folded.charCodeAt(i);
      const slot = trigramSlot(a, b, c);
      this.trigrams[slot >>> 5] = (this.trigrams[slot >>> 5] ?? 0) | (1 << (slot & 31));
      a = b;
      b = c;
    }
  }

  has(word: string): boolean {
    if (word === "N/N") return this.slashedNumbers;
    let present = this.seen.get(word);
    if (present === undefined) {
      present = this.mayContain(word) && this.folded.includes(word);
      this.seen.set(word, present);
    }
    return present;
  }

  private mayContain(word: string): boolean {
    for (let i = 0; i + 2 < word.length; i++) {
      const slot = trigramSlot(word.charCodeAt(i), word.charCodeAt(i + 1), word.charCodeAt(i + 2));
      if (((this.trigrams[slot >>> 5] ?? 0) & (1 << (slot & 31))) === 0) return false;
    }
    return true;
  }
}

export function mayMatch(
  groups: ReadonlyArray<readonly string[]> | undefined,
  haystack: KeywordHaystack,
): boolean {
  if (groups === undefined) return true;
  return groups.every((group) => group.some((word) => haystack.has(word)));
}
