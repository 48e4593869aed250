/**
 * Where the trace store splits a prompt into parts it can keep once: joined, the parts are the
 * prompt again whatever it holds, and the parts that many calls share (fenced data, source
 * passages, instruction paragraphs) come out whole and alike in every prompt that has them.
 */
import { describe, expect, it } from "vitest";
import { fenceData } from "../../src/judge/fence.js";
import { promptParts } from "../../src/store/traceParts.js";

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Pieces a hostile or unlucky prompt could be made of. */
const FRAGMENTS = [
  "<<<CONTENT id=0123456789ab>>>",
  "<<<END CONTENT id=0123456789ab>>>",
  "<<<SOURCE DOCUMENTS id=aaaaaaaaaaaa>>>",
  "<<<END SOURCE DOCUMENTS id=aaaaaaaaaaaa>>>",
  "<<<END CONTENT id=ffffffffffff>>>",
  "<<<",
  ">>>",
  "\n",
  "\n\n",
  "\n\n\n",
  "\r\n",
  "[1] (rfp.md, Page 2) ",
  "[12] (",
  ") ",
  "Plain words of a criterion. ",
  "\u0000",
  "\ud800",
  "\udc00",
  "😀",
  "é",
  " ",
  "x".repeat(300),
];

function hostileText(random: () => number): string {
  const count = Math.floor(random() * 40);
  let text = "";
  for (let i = 0; i < count; i++) text += FRAGMENTS[Math.floor(random() * FRAGMENTS.length)];
  return text;
}

describe("promptParts", () => {
  it("joins back to the text, for 3,000 texts made of delimiters, breaks and odd characters", () => {
    const random = generator(20_260_101);
    for (let i = 0; i < 3_000; i++) {
      const text = hostileText(random);
      const parts = promptParts(text);
      expect(parts.join("")).toBe(text);
      expect(parts.every((p) => p.length > 0)).toBe(true);
    }
  });

  it("gives nothing for an empty text and the text itself when there is nothing to split", () => {
    expect(promptParts("")).toEqual([]);
    expect(promptParts("one line of instructions")).toEqual(["one line of instructions"]);
  });

  it("keeps a fenced block's data whole and apart from its delimiter lines", () => {
    const data = 'A proposal.\n\nWith two paragraphs, a "quote" and <<<tricks>>>.';
    const block = fenceData("CONTENT", data);
    const prompt = `Content under evaluation:\n${block}\n\nEvaluate the content above.`;
    const parts = promptParts(prompt);
    expect(parts.join("")).toBe(prompt);
    const [open, body, close] = blockLines(block);
    expect(parts).toContain(`${open}\n`);
    expect(parts).toContain(body);
    expect(parts).toContain(`\n${close}`);
    expect(parts).toContain("Evaluate the content above.");
  });

  it("the same data fenced under another label gives the same data part", () => {
    const data = "Flooding displaced 1,240 households in 2024.\nThe county report says so.";
    const asContent = promptParts(`Judge this:\n${fenceData("CONTENT", data)}\n\nScore it.`);
    const asData = promptParts(`Screen this:\n${fenceData("DATA", data)}`);
    const shared = asContent.filter((part) => asData.includes(part) && part.length > 20);
    expect(shared).toEqual([data]);
  });

  it("splits source documents into passages, each label apart from its text", () => {
    const first = "The foundation funds flood resilience in Calder County.";
    const second = "Awards range from $50,000 to $150,000 over two years.";
    const forOne = fenceData(
      "SOURCE DOCUMENTS",
      `[1] (rfp.md, Page 1) ${first}\n\n[2] (rfp.md) ${second}`,
    );
    const forOther = fenceData("SOURCE DOCUMENTS", `[1] (rfp.md) ${second}`);
    const one = promptParts(`Sources:\n${forOne}`);
    const other = promptParts(`Sources:\n${forOther}`);
    expect(one).toContain("[1] (rfp.md, Page 1) ");
    expect(one).toContain(first);
    expect(one).toContain(second);
    expect(other).toContain(second);
    expect(one.join("")).toBe(`Sources:\n${forOne}`);
  });

  it("splits instructions at blank lines and keeps the breaks as parts", () => {
    expect(promptParts("Criterion: reach.\n\n\nScale: 0 to 1.\n\nAnswer with JSON.")).toEqual([
      "Criterion: reach.",
      "\n\n\n",
      "Scale: 0 to 1.",
      "\n\n",
      "Answer with JSON.",
    ]);
  });

  it("does not take an unclosed, mismatched or indented delimiter for a block", () => {
    const texts = [
      "<<<CONTENT id=0123456789ab>>>\nno closing line",
      "<<<CONTENT id=0123456789ab>>>\nbody\n<<<END CONTENT id=ba9876543210>>>",
      "<<<CONTENT id=0123456789ab>>>\nbody\n<<<END DATA id=0123456789ab>>>",
      " <<<CONTENT id=0123456789ab>>>\nbody\n<<<END CONTENT id=0123456789ab>>>",
      "<<<END CONTENT id=0123456789ab>>>\nbody\n<<<CONTENT id=0123456789ab>>>",
      "<<<CONTENT id=0123456789ab>>>\n<<<END CONTENT id=0123456789ab>>>",
    ];
    for (const text of texts) {
      expect(promptParts(text)).toEqual([text]);
    }
  });

  it("ends a block at its first closing line, and a closing line glued to more text does not close", () => {
    const text =
      "<<<CONTENT id=0123456789ab>>>\none\n<<<END CONTENT id=0123456789ab>>>tail\ntwo\n" +
      "<<<END CONTENT id=0123456789ab>>>\nafter\n<<<END CONTENT id=0123456789ab>>>";
    const parts = promptParts(text);
    expect(parts.join("")).toBe(text);
    expect(parts[1]).toBe("one\n<<<END CONTENT id=0123456789ab>>>tail\ntwo");
    expect(parts.at(-1)).toBe("\nafter\n<<<END CONTENT id=0123456789ab>>>");
  });

  it("handles 20,000 opening lines that never close and 20,000 stray closing lines", () => {
    const opens = "<<<CONTENT id=0123456789ab>>>\n".repeat(20_000);
    const closes = "<<<END DATA id=0123456789ab>>>\n".repeat(20_000);
    for (const text of [opens, closes, opens + closes]) {
      const parts = promptParts(text);
      expect(parts.join("")).toBe(text);
      expect(parts).toHaveLength(1);
    }
  });
});

/** The opening line, the data and the closing line of a fenced block. */
function blockLines(block: string): [string, string, string] {
  const first = block.indexOf("\n");
  const last = block.lastIndexOf("\n");
  return [block.slice(0, first), block.slice(first + 1, last), block.slice(last + 1)];
}
