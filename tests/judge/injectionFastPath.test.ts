import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ALWAYS_HIDDEN,
  foldHomoglyph,
  JOINERS,
  type MainView,
  mainView,
  normalisedChar,
} from "../../src/judge/injectionNormalise.js";

/**
 * The exact fast paths of the scan's normalisation: plain ASCII is copied as it is, since NFKC and
 * the look-alike fold leave it unchanged and no ASCII character is invisible. Checked for every
 * ASCII code point, and against a character-by-character reference on the corpus and on random
 * mixed-script strings made from a fixed seed.
 */

function referenceMainView(text: string): Omit<MainView, "mixedScript"> {
  let view = "";
  const origin: number[] = [];
  const hidden: Array<[number, number]> = [];
  let index = 0;
  for (const char of text) {
    if (ALWAYS_HIDDEN.test(char) || JOINERS.has(char)) {
      const isHidden =
        (ALWAYS_HIDDEN.test(char) && !(char === "\uFEFF" && index === 0)) ||
        (JOINERS.has(char) &&
          (/[A-Za-z0-9]/.test(text[index - 1] ?? "") ||
            /[A-Za-z0-9]/.test(text[index + char.length] ?? "")));
      if (isHidden) {
        const last = hidden[hidden.length - 1];
        if (last !== undefined && last[1] === index) last[1] = index + char.length;
        else hidden.push([index, index + char.length]);
      }
    } else {
      const folded = [...char.normalize("NFKC")].map((c) => foldHomoglyph(c) ?? c).join("");
      for (let i = 0; i < folded.length; i++) origin.push(index);
      view += folded;
    }
    index += char.length;
  }
  origin.push(text.length);
  return { view, origin, hidden };
}

function referenceMixedScript(text: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const match of text.matchAll(/[\p{L}\p{M}]{2,}/gu)) {
    const chars = [...match[0]];
    const lookAlike = chars.some((c) => foldHomoglyph(c) !== undefined);
    const other = chars.some(
      (c) => /[\p{Script=Cyrillic}\p{Script=Greek}]/u.test(c) && foldHomoglyph(c) === undefined,
    );
    if (/[A-Za-z]/.test(match[0]) && lookAlike && !other) {
      found.push([match.index, match.index + match[0].length]);
    }
  }
  return found;
}

/** A small deterministic generator (a linear congruential one), so failures can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const MIXED = [
  ..."abcdefghijklmnopqrstuvwxyzABCXYZ 0123456789.,:;|<>[]#\n\t-_'\"",
  ..."аеорсухіјԁɡАВЕКМНОРСТХαεικνορτυχΑΒΕΖΗΙΚΜΝΟΡΤΥΧжшщбλπω",
  ..."\u200B\u200C\u200D\u200E\u00AD\u2060\uFEFF\u202E\u{E0041}",
  ..."ÜüéèáñßſıKÅﬁ①ＡＢｃ²½ｶ한中文😀\u0301",
];

function randomMixed(next: () => number, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += MIXED[Math.floor(next() * MIXED.length)] ?? "";
  return out;
}

function corpusTexts(): string[] {
  const read = (name: string): Array<{ text: string }> =>
    JSON.parse(readFileSync(new URL(`../fixtures/injection/${name}`, import.meta.url), "utf8"));
  return [...read("attacks.json"), ...read("clean.json")].map((entry) => entry.text);
}

describe("injection normalisation fast paths", () => {
  it("leaves every ASCII code point unchanged under NFKC and the look-alike fold", () => {
    for (let code = 0; code < 128; code++) {
      const char = String.fromCharCode(code);
      expect(char.normalize("NFKC")).toBe(char);
      expect(foldHomoglyph(char)).toBeUndefined();
      expect(normalisedChar(char)).toBe(char);
      expect(ALWAYS_HIDDEN.test(char) || JOINERS.has(char)).toBe(false);
    }
  });

  it("gives the same main view as the character-by-character reference on the corpus", () => {
    for (const text of corpusTexts()) {
      const { view, origin, hidden, mixedScript } = mainView(text);
      expect({ view, origin, hidden }).toEqual(referenceMainView(text));
      expect(mixedScript).toEqual(referenceMixedScript(text));
    }
  });

  it("gives the same main view as the reference on random mixed-script strings", () => {
    const next = seeded(20261123);
    for (let i = 0; i < 500; i++) {
      const text = randomMixed(next, 1 + Math.floor(next() * 80));
      const { view, origin, hidden, mixedScript } = mainView(text);
      expect({ view, origin, hidden }).toEqual(referenceMainView(text));
      expect(mixedScript).toEqual(referenceMixedScript(text));
    }
  });
});
