/**
 * The README is for a user's first ten minutes: what evalgate is, the two commands, the main job,
 * embedding, serving — at most 200 lines. Everything longer lives in docs/, and every page of
 * docs/ is reachable from the README or from a page it links.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** The README's sections, in the order a user needs them. */
const SECTIONS = [
  "## On a fresh machine",
  "### What the main job needs",
  "### What you see",
  "## The command",
  "## Embedding it in your code",
  "## Serving reviews",
];

/** The docs/ pages a Markdown text links to (as `docs/x.md` from the README, `x.md` within docs/). */
function linkedPages(markdown: string, prefix: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)#\s]+\.md)(?:#[^)]*)?\)/g)].map((m) => m[1] ?? "");
  return links
    .filter((target) => target.startsWith(prefix) && !target.slice(prefix.length).includes("/"))
    .map((target) => target.slice(prefix.length));
}

describe("the README", () => {
  it("is at most 200 lines", () => {
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(200);
  });

  it("has its sections in the order a user needs them", () => {
    const at = SECTIONS.map((heading) => readme.split("\n").indexOf(heading));
    expect(at.filter((line) => line < 0)).toEqual([]);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  it("leads to every page of docs/, directly or through the pages it links", () => {
    const pages = readdirSync(join(root, "docs")).filter((name) => name.endsWith(".md"));
    const reached = new Set(linkedPages(readme, "docs/"));
    let grew = true;
    while (grew) {
      const before = reached.size;
      for (const page of [...reached]) {
        const text = readFileSync(join(root, "docs", page), "utf8");
        for (const next of linkedPages(text, "")) reached.add(next);
      }
      grew = reached.size > before;
    }
    expect(pages.filter((page) => !reached.has(page))).toEqual([]);
  });
});
