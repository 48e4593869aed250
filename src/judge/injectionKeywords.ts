/**
 * A cheap, exact prefilter for the injection patterns. Each rule may name groups of literal
 * keywords (its `keywords`) such that every match of its pattern contains at least one keyword of
 * every group (taken from the pattern's own required alternatives). A view whose folded text lacks
 * a group cannot match, so the pattern is not run over it. Folding lower-cases the view and maps
 * the few characters that case-insensitive patterns equate with an ASCII letter but lower-casing
 * does not (dotless ı, long ſ, the Kelvin sign), so a keyword is found wherever the pattern could
 * match.
 *
 * Format: groups separated by " & ", alternatives by spaces; the keyword N/N stands for a number,
 * a slash and a number ("10/10", "5 / 5"), digits, spaces and slashes having no case.
 */
/** A rule's keyword groups, from its `keywords` (groups joined by " & ", words by spaces). */
export function keywordGroups(spec: string): string[][] {
  return spec.split(" & ").map((group) => group.split(" ").filter((word) => word !== ""));
}

/** Characters that case-insensitive patterns equate with an ASCII letter, lower-casing not. */
const CASE_FOLD_EXTRAS: Readonly<Record<string, string>> = {
  ı: "i",
  ſ: "s",
  "\u212A": "k",
};

const TRIGRAM_SLOTS = 1 << 16;

/** A hash of three UTF-16 code units, to a slot of the trigram table. */
function trigramSlot(a: number, b: number, c: number): number {
  const h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b) ^ Math.imul(c, 0xc2b2ae35);
  return (h ^ (h >>> 16)) & (TRIGRAM_SLOTS - 1);
}

/**
 * What the keywords are looked for in: the text lower-cased, with the case-fold extras mapped.
 * A table of the text's three-unit sequences (hashed) rules most absent keywords out without a
 * search: a keyword with a sequence not in the table is not in the text. Otherwise the text is
 * searched, once per keyword (the rules share many of them).
 */
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

/** False only when a rule with these keyword groups cannot match the text of this haystack. */
export function mayMatch(
  groups: ReadonlyArray<readonly string[]> | undefined,
  haystack: KeywordHaystack,
): boolean {
  if (groups === undefined) return true;
  return groups.every((group) => group.some((word) => haystack.has(word)));
}
