import { decode } from "@toon-format/toon";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { EvaluationResult } from "../../src/scoring/result.js";
import { encodeResultsToon, resultsToonDocument } from "../../src/scoring/resultsToon.js";
import { seedEvaluation, twentyCriterionEvaluation } from "./helpers.js";

const tokens = (text: string) => encode(text).length;

function measure(result: EvaluationResult) {
  const doc = resultsToonDocument(result);
  const toonText = encodeResultsToon(result);
  // the comparison is fair only if both carry the same data
  expect(decode(toonText)).toEqual(doc);
  const toon = tokens(toonText);
  const prettyJson = tokens(JSON.stringify(doc, null, 2));
  const minifiedJson = tokens(JSON.stringify(doc));
  return { toon, prettyJson, minifiedJson, ratio: toon / prettyJson };
}

function describeMeasure(m: ReturnType<typeof measure>): string {
  const pct = (a: number, b: number) => `${((1 - a / b) * 100).toFixed(1)}%`;
  return (
    `o200k tokens — TOON ${m.toon}, pretty JSON ${m.prettyJson} (saves ${pct(m.toon, m.prettyJson)}), ` +
    `minified JSON ${m.minifiedJson} (saves ${pct(m.toon, m.minifiedJson)})`
  );
}

describe("token efficiency of TOON results (TC-CRI-04, o200k)", () => {
  it("the TOON criteria dialect's 3-row example: TOON < 60% of 2-space JSON", async ({
    annotate,
  }) => {
    const m = measure(seedEvaluation());
    await annotate(describeMeasure(m));
    expect(m.ratio).toBeLessThan(0.6);
  });

  it("a 20-criterion result: TOON < 60% of 2-space JSON", async ({ annotate }) => {
    const m = measure(twentyCriterionEvaluation());
    await annotate(describeMeasure(m));
    expect(m.ratio).toBeLessThan(0.6);
  });
});
