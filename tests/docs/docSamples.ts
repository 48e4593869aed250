/**
 * The fenced code blocks of README.md and docs/*.md, with their language and the
 * `<!-- docs-test: … -->` marker on the line before the fence, if any (a reason the block is not
 * run as it is: a fragment, a call of an example shown above, …).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface DocSample {
  /** README.md or docs/<file>.md */
  doc: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The info string's first word, lower case ("" when none). */
  language: string;
  text: string;
  /** The text of a `<!-- docs-test: … -->` marker right above the fence. */
  marker?: string;
}

const FENCE = /^(`{3,}|~{3,})\s*([^\s`]*)/;
const MARKER = /^<!--\s*docs-test:\s*(.*?)\s*-->\s*$/;

/** The fenced blocks of one Markdown text (top-level fences; indented code is not a sample). */
export function fencedSamples(doc: string, markdown: string): DocSample[] {
  const lines = markdown.split("\n");
  const samples: DocSample[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? "");
    if (open === null) continue;
    const fence = open[1] ?? "```";
    let end = i + 1;
    while (end < lines.length && !(lines[end] ?? "").startsWith(fence)) end++;
    const marker = MARKER.exec(lines[i - 1] ?? "")?.[1];
    samples.push({
      doc,
      line: i + 1,
      language: (open[2] ?? "").toLowerCase(),
      text: lines.slice(i + 1, end).join("\n"),
      ...(marker === undefined ? {} : { marker }),
    });
    i = end;
  }
  return samples;
}

/** README.md and every docs/*.md of the repository at `root`. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}

export function allSamples(root: string): DocSample[] {
  return documentationFiles(root).flatMap((doc) =>
    fencedSamples(doc, readFileSync(join(root, doc), "utf8")),
  );
}

export const CODE_LANGUAGES = new Set(["ts", "typescript", "js", "javascript", "tsx", "mjs"]);
