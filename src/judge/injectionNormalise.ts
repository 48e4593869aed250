/**
 * Views of the content with disguises undone, so one set of patterns sees through them. The main
 * view maps every character back to the original; a decoded run becomes a view only when it reads
 * as text, so hashes, colour codes and commit ids decode to nothing. Every decoder is linear and
 * bounded.
 */

import { RULE_KEYWORDS } from "./injectionKeywords.js";

/** Invisible characters that have no place in proposal prose. */
export const ALWAYS_HIDDEN =
  /[\u200B\u2060-\u2064\u180E\u202A-\u202E\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/u;
/** Joiners and marks legitimate in some scripts and emoji: hidden only inside Latin text. */
export const JOINERS: ReadonlySet<string> = new Set("\u200C\u200D\u200E\u200F\u00AD");
const LATIN = /[A-Za-z0-9]/;

/** Cyrillic and Greek letters that look like Latin ones, each written before its Latin letter. */
const HOMOGLYPHS: ReadonlyMap<string, string> = pairTable(`
  аa вb еe ёe кk мm нh оo рp сc тt уy хx іi їi јj ѕs ԁd ӏl ԛq ԝw ɡg АA ВB ЕE КK МM НH ОO РP
  СC ТT ХX УY ІI ЈJ ЅS ԀD αa βb εe ιi κk νv οo ρp τt υu χx ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP
  ΤT ΥY ΧX`);

function pairTable(pairs: string): ReadonlyMap<string, string> {
  const words = pairs.split(/\s+/).filter((pair) => pair !== "");
  return new Map(words.map((pair) => [pair.slice(0, 1), pair.slice(1)]));
}

export function foldHomoglyph(char: string): string | undefined {
  return HOMOGLYPHS.get(char);
}

function isHiddenAt(text: string, index: number, char: string): boolean {
  if (ALWAYS_HIDDEN.test(char)) return !(char === "\uFEFF" && index === 0);
  if (!JOINERS.has(char)) return false;
  const before = text[index - 1] ?? "";
  const after = text[index + char.length] ?? "";
  return LATIN.test(before) || LATIN.test(after);
}

/** The main view: invisible characters removed, NFKC, look-alikes folded; offsets kept. */
export interface MainView {
  view: string;
  /** For each unit of the view, its offset in the original (one extra entry: the end). */
  origin: number[];
  hidden: Array<[number, number]>;
  mixedScript: Array<[number, number]>;
}

export function mainView(text: string): MainView {
  const parts: string[] = [];
  const origin: number[] = [];
  const hidden: Array<[number, number]> = [];
  let index = 0;
  while (index < text.length) {
    const asciiEnd = endOfAscii(text, index);
    if (asciiEnd > index) {
      // Plain ASCII is never hidden, and NFKC and the look-alike fold leave it as it is.
      parts.push(text.slice(index, asciiEnd));
      for (let i = index; i < asciiEnd; i++) origin.push(i);
      index = asciiEnd;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(index) ?? 0);
    if (ALWAYS_HIDDEN.test(char) || JOINERS.has(char)) {
      if (isHiddenAt(text, index, char)) {
        const last = hidden[hidden.length - 1];
        if (last !== undefined && last[1] === index) last[1] = index + char.length;
        else hidden.push([index, index + char.length]);
      }
    } else {
      const folded = normalisedChar(char);
      for (let i = 0; i < folded.length; i++) origin.push(index);
      parts.push(folded);
    }
    index += char.length;
  }
  origin.push(text.length);
  return { view: parts.join(""), origin, hidden, mixedScript: mixedScriptWords(text) };
}

function endOfAscii(text: string, from: number): number {
  let end = from;
  while (end < text.length && text.charCodeAt(end) < 0x80) end++;
  return end;
}

export function normalisedChar(char: string): string {
  const normal = char.normalize("NFKC");
  let folded = "";
  for (const c of normal) folded += foldHomoglyph(c) ?? c;
  return folded;
}

/** Words that mix Latin letters with look-alikes from another script ("іgnore" with a Cyrillic і). */
function mixedScriptWords(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const match of text.matchAll(/[\p{L}\p{M}]{2,256}/gu)) {
    const word = match[0];
    if (/^[A-Za-z]+$/.test(word)) continue;
    const latin = /[A-Za-z]/.test(word);
    const lookAlike = [...word].some((c) => foldHomoglyph(c) !== undefined);
    const foreignOther = [...word].some(
      (c) => /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(c) && foldHomoglyph(c) === undefined,
    );
    if (latin && lookAlike && !foreignOther) found.push([match.index, match.index + word.length]);
  }
  return found;
}

/** A decoded or rearranged view, scanned as is; findings point at `at` in the original. */
export interface DerivedView {
  label: string;
  text: string;
  at: number;
}

const BASE64_RUN = /[A-Za-z0-9+/]{16,4096}={0,2}|[A-Za-z0-9_-]{16,4096}={0,2}/g;

/** Decoded base64 runs that read as text: hidden messages. */
function base64Views(text: string): DerivedView[] {
  return viewsOf(text, BASE64_RUN, "base64", (run) => {
    // A run of letters alone with no mixed case is a word, not base64.
    if (!/[0-9+/=_-]/.test(run) && !/[a-z][A-Z]|[A-Z]{2}[a-z]/.test(run)) return undefined;
    return Buffer.from(run, /[-_]/.test(run) ? "base64url" : "base64").toString("utf8");
  });
}

/** The most views one decoder adds: a text full of runs cannot multiply the scan's work. */
const MAX_VIEWS_PER_DECODER = 32;

/** Almost all printable, at least one space, no replacement character. */
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
): DerivedView[] {
  const views: DerivedView[] = [];
  for (const match of text.matchAll(pattern)) {
    if (views.length >= MAX_VIEWS_PER_DECODER) break;
    const decoded = decode(match[0])?.normalize("NFKC");
    if (decoded !== undefined && readsAsText(decoded)) {
      views.push({ label, text: decoded, at: match.index });
    }
  }
  return views;
}

export function hexViews(text: string): DerivedView[] {
  const plain = viewsOf(
    text,
    /\b(?:[0-9A-Fa-f]{2}){8,2048}\b|\b(?:[0-9A-Fa-f]{2}[ :-]){7,2048}[0-9A-Fa-f]{2}\b/g,
    "hex",
    (run) => Buffer.from(run.replace(/[ :-]/g, ""), "hex").toString("utf8"),
  );
  const escaped = viewsOf(text, /(?:\\x[0-9A-Fa-f]{2}){6,2048}/g, "hex escapes", (run) =>
    Buffer.from(run.replace(/\\x/g, ""), "hex").toString("utf8"),
  );
  return [...plain, ...escaped];
}

export function percentViews(text: string): DerivedView[] {
  return viewsOf(text, /(?:%[0-9A-Fa-f]{2}|[\w.~+-]){3,4096}/g, "URL-encoded", (run) => {
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

/** What a pig-Latin word may decode to: the scan's keywords (readings the rules match) and common words. */
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
  if (/[wy]ay$/.test(lower) && VOWEL.test(lower)) candidates.push(lower.slice(0, -3));
  const stem = lower.slice(0, -2);
  for (let k = 1; k <= 3 && k < stem.length; k++) {
    const onset = stem.slice(-k);
    const body = stem.slice(0, -k);
    if (CONSONANTS.test(onset) && VOWEL.test(body)) candidates.push(onset + body);
  }
  // A stable sort: of equally known readings, the first (the shorter move) stays first.
  return candidates.map((c) => ({ c, score: known(c) })).sort((a, b) => b.score - a.score)[0]?.c;
}

export function pigLatinViews(text: string): DerivedView[] {
  const views: DerivedView[] = [];
  for (const match of text.matchAll(/[^.!?\n]{1,4096}/g)) {
    if (views.length >= MAX_VIEWS_PER_DECODER) break;
    const words = match[0].match(/[A-Za-z]+/g) ?? [];
    const pig = words.filter((w) => /ay$/i.test(w) && w.length >= 4).length;
    if (pig < 3 || pig < words.length * 0.6) continue;
    const decoded = match[0].replace(/[A-Za-z]+/g, (w) => unPig(w) ?? w);
    views.push({ label: "pig Latin", text: decoded, at: match.index });
  }
  return views;
}

function rot13(text: string): string {
  return text.replace(/[A-Za-z]/g, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/**
 * Split words joined again: hyphens, soft breaks and line breaks inside words removed
 * ("ig-nore", "in-\nstructions"), and letter-spaced words closed up ("i g n o r e").
 */
function rejoined(view: string): string {
  return view
    .replace(/([A-Za-z])(?:[-‐‑]\s*|[_.·*]+)(?=[A-Za-z])/g, "$1")
    .replace(/\b(?:[A-Za-z] ){2,512}[A-Za-z]\b/g, (run) => run.replace(/ /g, ""));
}

/** Digits and symbols standing for letters in words ("1gn0re", "sc0re"). */
function unLeet(view: string): string {
  const map = pairTable("0o 1i 3e 4a 5s 6g 7t 8b 9g @a $s");

  return view.replace(
    /\b(?=[A-Za-z0-9@$]{0,255}[A-Za-z])(?=[A-Za-z0-9@$]{0,255}[0-9@$])[A-Za-z0-9@$]{3,256}\b/g,
    (word) => word.replace(/[013456789@$]/g, (c) => map.get(c) ?? c),
  );
}

function reversedViews(view: string): string[] {
  const words = view.replace(/[\p{L}\p{N}]+/gu, (word) => [...word].reverse().join(""));
  return [words, [...view].reverse().join("")];
}

export function derivedViews(original: string, main: MainView): DerivedView[] {
  const { view } = main;
  const [wordsReversed, textReversed] = reversedViews(view);
  const decoded = base64Views(original);
  const joined = rejoined(view);
  return [
    ...decoded,
    ...decoded.map((d) => ({ label: "base64, ROT13", text: rot13(d.text), at: d.at })),
    ...hexViews(original),
    ...percentViews(original),
    ...pigLatinViews(original),
    { label: "ROT13", text: rot13(view), at: 0 },
    { label: "reversed words", text: wordsReversed ?? "", at: 0 },
    { label: "reversed text", text: textReversed ?? "", at: 0 },
    { label: "rejoined split words", text: joined, at: 0 },
    { label: "letters for digits", text: unLeet(joined), at: 0 },
  ];
}
