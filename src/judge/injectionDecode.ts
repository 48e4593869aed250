/**
 * More disguises undone for the injection scan, each a derived view scanned like the others:
 * hexadecimal runs and `\x41` escapes, percent-encoding (URL encoding) and pig Latin. A decoded
 * run becomes a view only when it reads as text (printable, with spaces), so hashes, colour codes
 * and commit ids decode to nothing. Every decoder is linear in the text and bounded.
 */
import { RULE_KEYWORDS } from "./injectionKeywords.js";

/** A decoded view (the scan's DecodedView): its text, and where in the original it came from. */
export interface DecodedView {
  label: string;
  text: string;
  at: number;
}

/** The most views one decoder adds: a text full of runs cannot multiply the scan's work. */
const MAX_VIEWS_PER_DECODER = 32;

/** Text that reads as words: almost all printable, at least one space, no replacement character. */
function readsAsText(decoded: string): boolean {
  if (decoded.length < 6 || !/\s/.test(decoded) || /\uFFFD/.test(decoded)) return false;
  const printable = decoded.replace(/[^\x20-\x7E\n\r\t\u00A0-\uFFFF]/g, "");
  return printable.length >= decoded.length * 0.95 && /[A-Za-z]{2}/.test(decoded);
}

function viewsOf(
  text: string,
  pattern: RegExp,
  label: string,
  decode: (run: string) => string | undefined,
): DecodedView[] {
  const views: DecodedView[] = [];
  for (const match of text.matchAll(pattern)) {
    if (views.length >= MAX_VIEWS_PER_DECODER) break;
    const decoded = decode(match[0])?.normalize("NFKC");
    if (decoded !== undefined && readsAsText(decoded)) {
      views.push({ label, text: decoded, at: match.index });
    }
  }
  return views;
}

/** Runs of hexadecimal digit pairs (at least 8 bytes, joined or spaced), and `\xNN` escapes. */
export function hexViews(text: string): DecodedView[] {
  const plain = viewsOf(
    text,
    /\b(?:[0-9A-Fa-f]{2}){8,}\b|\b(?:[0-9A-Fa-f]{2}[ :-]){7,}[0-9A-Fa-f]{2}\b/g,
    "hex",
    (run) => Buffer.from(run.replace(/[ :-]/g, ""), "hex").toString("utf8"),
  );
  const escaped = viewsOf(text, /(?:\\x[0-9A-Fa-f]{2}){6,}/g, "hex escapes", (run) =>
    Buffer.from(run.replace(/\\x/g, ""), "hex").toString("utf8"),
  );
  return [...plain, ...escaped];
}

/** Runs holding at least three `%NN` escapes, decoded as a URL component (`+` as a space). */
export function percentViews(text: string): DecodedView[] {
  return viewsOf(text, /(?:%[0-9A-Fa-f]{2}|[\w.~+-]){3,}/g, "URL-encoded", (run) => {
    if ((run.match(/%[0-9A-Fa-f]{2}/g) ?? []).length < 3) return undefined;
    try {
      return decodeURIComponent(run.replace(/\+/g, " "));
    } catch {
      return undefined;
    }
  });
}

const VOWEL = /^[aeiou]/;
const CONSONANTS = /^[b-df-hj-np-tv-z]+$/;

/**
 * Words a decoded pig-Latin word is checked against: the scan's own keywords (whole words and
 * stems), so a word decodes to the reading the patterns could match, and common short words.
 */
const KNOWN = new Set(
  [
    ...[...RULE_KEYWORDS.values()].flat().flat(),
    ..."the this that these all and as to of for with it is are be me my your you give rate score mark treat highest top full marks criteria criterion met pass proposal previous instructions ignore rubric evaluator reviewer judge model every each section".split(
      " ",
    ),
  ].filter((word) => /^[a-z]{2,}$/.test(word)),
);

function known(word: string): number {
  if (KNOWN.has(word)) return 2;
  for (let end = word.length - 1; end >= 4; end--) if (KNOWN.has(word.slice(0, end))) return 1;
  return 0;
}

/**
 * One pig-Latin word read back: `…way` after a vowel-initial word ("ignoreway" → ignore), else
 * the one to three consonants before `ay` moved to the front ("orescay" → score), choosing the
 * reading the known words favour (the shorter move on a tie).
 */
function unPig(word: string): string | undefined {
  const lower = word.toLowerCase();
  if (!lower.endsWith("ay") || lower.length < 4) return undefined;
  const candidates: string[] = [];
  if (lower.endsWith("way") && VOWEL.test(lower)) candidates.push(lower.slice(0, -3));
  if (lower.endsWith("yay") && VOWEL.test(lower)) candidates.push(lower.slice(0, -3));
  const stem = lower.slice(0, -2);
  for (let k = 1; k <= 3 && k < stem.length; k++) {
    const onset = stem.slice(-k);
    const body = stem.slice(0, -k);
    if (CONSONANTS.test(onset) && VOWEL.test(body)) candidates.push(onset + body);
  }
  let best: string | undefined;
  let bestScore = -1;
  for (const candidate of candidates) {
    const score = known(candidate);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return best;
}

/** Stretches of text where most words end in `ay`, read back from pig Latin. */
export function pigLatinViews(text: string): DecodedView[] {
  const views: DecodedView[] = [];
  for (const match of text.matchAll(/[^.!?\n]+/g)) {
    if (views.length >= MAX_VIEWS_PER_DECODER) break;
    const words = match[0].match(/[A-Za-z]+/g) ?? [];
    const pig = words.filter((w) => /ay$/i.test(w) && w.length >= 4).length;
    if (pig < 3 || pig < words.length * 0.6) continue;
    const decoded = match[0].replace(/[A-Za-z]+/g, (w) => unPig(w) ?? w);
    views.push({ label: "pig Latin", text: decoded, at: match.index });
  }
  return views;
}
