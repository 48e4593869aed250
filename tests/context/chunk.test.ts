import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunkDocuments } from "../../src/context/chunk.js";
import { loadDocuments } from "../../src/context/load.js";
import { DOCUMENTS } from "./documents.js";

function words(count: number, prefix: string): string {
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`).join(" ");
}

describe("chunkDocuments", () => {
  const chunks = chunkDocuments(DOCUMENTS);

  it("keeps each chunk's source and section", () => {
    const summary = chunks.map((chunk) => [chunk.source, chunk.section ?? null]);
    expect(summary).toEqual([
      ["company-profile.md", "Page 1"],
      ["company-profile.md", "Page 2"],
      ["company-profile.md", "Page 3"],
      ["project.md", "Project summary"],
      ["project.md", "Innovation"],
      ["project.md", "Market"],
      ["notes.txt", "Page 1"],
      ["notes.txt", "Page 2"],
    ]);
    const address = chunks.find((chunk) => chunk.text.includes("Überseeallee"));
    expect(address?.section).toBe("Page 2");
    expect(address?.text).toContain("Registered office");
  });

  it("gives unique ids and leaves headings and page markers out of the text", () => {
    expect(new Set(chunks.map((chunk) => chunk.id)).size).toBe(chunks.length);
    expect(chunks[0]!.id).toBe("company-profile.md#1");
    for (const chunk of chunks) {
      expect(chunk.text).not.toMatch(/^#/);
      expect(chunk.text).not.toMatch(/^Page \d/);
      expect(chunk.wordCount).toBe(chunk.text.split(" ").length);
    }
  });

  it("has no section when a document has neither headings nor pages", () => {
    const [chunk] = chunkDocuments([{ name: "plain.txt", text: "Just a sentence." }]);
    expect(chunk).toEqual({
      id: "plain.txt#1",
      source: "plain.txt",
      text: "Just a sentence.",
      wordCount: 3,
    });
  });

  it("packs paragraphs whole up to the size and overlaps consecutive chunks", () => {
    const text = [words(40, "a"), words(40, "b"), words(40, "c"), words(40, "d")].join("\n\n");
    const result = chunkDocuments([{ name: "doc.md", text }], { chunkWords: 90, overlapWords: 10 });
    expect(result).toHaveLength(2);
    // First chunk: paragraphs a and b (80 words); c would exceed 90.
    expect(result[0]!.text.startsWith("a1 ")).toBe(true);
    expect(result[0]!.text.endsWith(" b40")).toBe(true);
    // Second: the last 10 words of the first, then c and d.
    expect(result[1]!.text.startsWith("b31 b32")).toBe(true);
    expect(result[1]!.text.endsWith(" d40")).toBe(true);
    expect(result[1]!.wordCount).toBe(90);
  });

  it("cuts a paragraph longer than the size into overlapping windows", () => {
    const result = chunkDocuments([{ name: "long.txt", text: words(500, "w") }]);
    // Windows w1–w180, w151–w330, w301–w480, w451–w500: each repeats the last 30 words.
    expect(result.map((chunk) => chunk.wordCount)).toEqual([180, 180, 180, 50]);
    expect(result[1]!.text.startsWith("w151 ")).toBe(true);
    expect(result[3]!.text.startsWith("w451 ")).toBe(true);
    expect(result.at(-1)!.text.endsWith("w500")).toBe(true);
    const covered = new Set(result.flatMap((chunk) => chunk.text.split(" ")));
    expect(covered.size).toBe(500);
  });

  it("cuts a document of the size limit written as one paragraph (5,000,000 words) in one pass", () => {
    const text = "ab ".repeat(5_000_000);
    const result = chunkDocuments([{ name: "dump.txt", text }]);
    // 180 words, then 150 new ones per window: 1 + ceil((5,000,000 - 180) / 150) windows.
    expect(result).toHaveLength(1 + Math.ceil((5_000_000 - 180) / 150));
    expect(result.reduce((sum, chunk) => sum + chunk.wordCount, 0)).toBe(
      5_000_000 + 30 * (result.length - 1),
    );
  });

  it("does not overlap across sections", () => {
    const text = `# One\n\n${words(20, "x")}\n\n# Two\n\n${words(20, "y")}`;
    const [one, two] = chunkDocuments([{ name: "s.md", text }]);
    expect(one!.text).not.toContain("y1");
    expect(two!.text.startsWith("y1 ")).toBe(true);
    expect(two!.section).toBe("Two");
  });

  it("keeps ids unique when two documents share a name", () => {
    const result = chunkDocuments([
      { name: "a.md", text: "first" },
      { name: "a.md", text: "second" },
    ]);
    expect(result.map((chunk) => chunk.id)).toEqual(["a.md#1", "a.md~2#1"]);
  });
});

describe("loadDocuments", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "evalgate-docs-"));
    await mkdir(join(dir, "annex"));
    await writeFile(join(dir, "b-profile.md"), "# Profile\n\nBased in Hamburg.");
    await writeFile(join(dir, "a-notes.txt"), "Notes.");
    await writeFile(join(dir, "annex", "budget.json"), '{"total": 1200000}');
    await writeFile(join(dir, "scan.pdf"), "%PDF-1.7");
    await writeFile(join(dir, "README"), "no extension");
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("reads .md, .txt and .json files recursively, sorted by relative path", async () => {
    const docs = await loadDocuments(dir);
    expect(docs).toEqual([
      { name: "a-notes.txt", text: "Notes." },
      { name: "annex/budget.json", text: '{"total": 1200000}' },
      { name: "b-profile.md", text: "# Profile\n\nBased in Hamburg." },
    ]);
  });

  it("throws DOCUMENTS_UNREADABLE naming a missing folder", async () => {
    const missing = join(dir, "absent");
    await expect(loadDocuments(missing)).rejects.toMatchObject({ code: "DOCUMENTS_UNREADABLE" });
    await expect(loadDocuments(missing)).rejects.toThrow(missing);
  });
});
