/**
 * Every TypeScript or JavaScript block of README.md and docs/*.md is the exact text of a file in
 * docs/examples/ (which examples.test.ts and guideExamples.test.ts run), or says why it is not
 * with a `<!-- docs-test: … -->` marker right above it. A new sample that is neither fails here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { allSamples, CODE_LANGUAGES, fencedSamples } from "./docSamples.js";

const root = join(import.meta.dirname, "../..");
const examplesDir = join(root, "docs/examples");
const examples = readdirSync(examplesDir)
  .filter((name) => name.endsWith(".ts"))
  .map((name) => readFileSync(join(examplesDir, name), "utf8").trim());

describe("the block extractor", () => {
  it("reads language, line, text and the marker above a fence, and skips what is not a fence", () => {
    const markdown = [
      "Intro with ```inline``` ticks.",
      "<!-- docs-test: fragment: an options object -->",
      "```TS title=x.ts",
      "const a = 1;",
      "```",
      "",
      "    ```ts (indented: not a fence)",
      "````js",
      "```",
      "nested fence text",
      "````",
      "```",
      "no language",
      "```",
    ].join("\n");
    expect(fencedSamples("x.md", markdown)).toEqual([
      {
        doc: "x.md",
        line: 3,
        language: "ts",
        text: "const a = 1;",
        marker: "fragment: an options object",
      },
      { doc: "x.md", line: 8, language: "js", text: "```\nnested fence text" },
      { doc: "x.md", line: 12, language: "", text: "no language" },
    ]);
  });

  it("an unclosed fence runs to the end of the file", () => {
    expect(fencedSamples("y.md", "```ts\nlet b;")).toEqual([
      { doc: "y.md", line: 1, language: "ts", text: "let b;" },
    ]);
  });
});

describe("every code sample of the docs runs in the suite", () => {
  const code = allSamples(root).filter((sample) => CODE_LANGUAGES.has(sample.language));
  it("finds the documentation's code samples", () => {
    expect(code.length).toBeGreaterThan(10);
  });
  it.each(code.map((sample) => [`${sample.doc}:${sample.line}`, sample] as const))(
    "%s",
    (_place, sample) => {
      const quoted = examples.includes(sample.text.trim());
      const reason = sample.marker?.trim() ?? "";
      expect(
        quoted || reason.length >= 12,
        "neither the exact text of a docs/examples file nor marked <!-- docs-test: reason -->",
      ).toBe(true);
    },
  );
});
