/**
 * The product speaks its users' words: the TOON criteria dialect, the JSON judge contract, the
 * points format, the rubric format, the evaluation node — never the planning documents they came
 * from. Files are read whole and their whitespace and comment markers folded to single spaces, so
 * a phrase split over two lines of a comment is found as well as one on a line. ("seed" as the
 * sampling seed — EVALGATE_SEED, --seed — is a product word and is not looked for.)
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");

/** This file holds the phrases it looks for only as the pattern below and as split examples. */
const THIS_FILE = "tests/productWords.test.ts";

/** Planning words, looked for in folded text (case-insensitive). */
const PLANNING_WORDS =
  /\bseed\s*0\d\d\b|\bseed[\s-]*(?:dialect|apis?|documents?|forms?)|\bseed-facing\b|\bthe seeds\b|\bseed's\b/i;

/** Text files of the product and its tests: what is scanned. */
const TEXT_FILE = /\.(?:ts|tsx|mts|mjs|js|json|md|toon|txt|liquid|html|css)$/;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === "node_modules" ? [] : filesUnder(path);
      return TEXT_FILE.test(name) ? [path] : [];
    });
}

/**
 * The text with every line break, and the comment markers that open the next line (`//`, `*`,
 * `#`), folded to one space: `seed⏎ * 002` reads `seed 002`.
 */
function foldedText(text: string): string {
  return text.replace(/\s*\r?\n\s*(?:\/\/+|\*+(?!\/)|#+)?\s*/g, " ").replace(/[ \t]+/g, " ");
}

/** The planning words in a text, each with a little of what surrounds it. */
function planningWordsIn(text: string): string[] {
  const folded = foldedText(text);
  const global = new RegExp(PLANNING_WORDS.source, "gi");
  return [...folded.matchAll(global)].map((match) =>
    folded.slice(Math.max(0, match.index - 30), match.index + match[0].length + 30),
  );
}

const toPosix = (path: string): string => relative(ROOT, path).split(sep).join("/");

/** The compiled declarations, when dist/ is built (the test setup builds it). */
const declarations = (): string[] =>
  filesUnder(join(ROOT, "dist")).filter((path) => path.endsWith(".d.ts"));

describe("words for users", () => {
  it("finds a phrase split across comment lines, and leaves the sampling seed alone", () => {
    const split = ["/**", " * for 0–1 contracts seed", " * 002's XML is one too", " */"];
    expect(planningWordsIn(split.join("\n"))).toHaveLength(1);
    expect(planningWordsIn(["// the seed", "// dialect's header"].join("\n"))).toHaveLength(1);
    expect(planningWordsIn(["# read the", "# seeds first"].join("\n"))).toHaveLength(1);
    expect(planningWordsIn(["see the", "seeds"].join(" \n "))).toHaveLength(1);
    expect(planningWordsIn(["tests/", "seedApis/x.test.ts"].join(""))).toHaveLength(1);
    for (const product of [
      "EVALGATE_SEED=7 sets the sampling seed",
      "--seed <n>: the seed of every call (default 42)",
      "seedPendingThreads(desk, 1000); whileSeeding(work)",
      "seed: settings.seed ?? null",
      "400 seeded texts; Seeds the review desk for the bench",
    ]) {
      expect({ product, found: planningWordsIn(product) }).toEqual({ product, found: [] });
    }
  });

  it("has no planning words in src/, prompts/, docs/, README.md, bench/, tests/ or the compiled types", () => {
    const scanned = [
      ...["src", "prompts", "docs", "bench", "tests", "examples"].flatMap((dir) =>
        filesUnder(join(ROOT, dir)),
      ),
      join(ROOT, "README.md"),
      ...declarations(),
    ].filter((path) => toPosix(path) !== THIS_FILE);
    expect(scanned.length).toBeGreaterThan(100);
    const found = scanned.flatMap((path) =>
      planningWordsIn(readFileSync(path, "utf8")).map((near) => `${toPosix(path)}: …${near}…`),
    );
    expect(found).toEqual([]);
  });

  it("names test folders and files for what they test", () => {
    const paths = filesUnder(join(ROOT, "tests")).map(toPosix);
    expect(paths.filter((path) => /seed(?:apis|forms|-dialect|\d)/i.test(path))).toEqual([]);
  });

  it("points README.md only at files the repository has", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const linked = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)|`(\.\.\/[^`]+)`/g)]
      .map((match) => match[1] ?? match[2] ?? "")
      .filter((target) => !/^[a-z]+:/i.test(target));
    expect(linked.length).toBeGreaterThan(5);
    expect(linked.filter((target) => !existsSync(join(ROOT, target)))).toEqual([]);
  });
});
