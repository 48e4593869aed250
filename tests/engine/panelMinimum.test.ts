/**
 * An agreement just under --min-agreement holds the result, though it rounds to the minimum at
 * three decimals: the exact value is compared, and the shown one is cut down, never rounded up.
 */
import { describe, expect, it } from "vitest";
import { evaluateContent } from "../../src/engine/evaluateContent.js";
import { jsonAnswer, ScriptedChatModel } from "../doubles/index.js";
import { answerByTitle, catalogOf, judgeOf } from "./helpers.js";

const CONTENT = "The consortium pilots a permit portal with two councils; the budget is itemised.";
/** Krippendorff's lowest figure for tentative conclusions; 2/3 rounds to it, but is under it. */
const MIN_AGREEMENT = 0.667;

function scoredOn1to5(titles: readonly string[]) {
  return catalogOf({
    id: "panel-minimum",
    name: "Panel minimum",
    version: "1",
    passingThreshold: 0.5,
    criteria: titles.map((title) => ({
      id: title.toLowerCase(),
      title,
      description: `${title} is shown.`,
      weight: 1,
      method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
    })),
  });
}

const score = (value: number) =>
  jsonAnswer({ reasoning: `Scored ${value}.`, score: value, hits: [], misses: [] });

/** One judge per entry: its score for each title. */
function judges(byJudge: ReadonlyArray<Record<string, number>>) {
  return byJudge.map((scores, i) => {
    const answers = Object.fromEntries(Object.entries(scores).map(([t, v]) => [t, score(v)]));
    return new ScriptedChatModel({ model: `j${i + 1}`, responder: answerByTitle(answers) });
  });
}

async function evaluate(titles: readonly string[], models: ScriptedChatModel[]) {
  return evaluateContent({
    content: CONTENT,
    catalog: scoredOn1to5(titles),
    judges: models.map((m) => judgeOf(m)),
    mode: "per-criterion",
    panel: { minAgreement: MIN_AGREEMENT },
  });
}

describe("an agreement just under the minimum", () => {
  it("one criterion at 2/3 against 0.667 is held for review, shown as 0.666", async () => {
    // Four judges give 5, 4, 4, 3 on 1–5. Unordered pairs: 5–4 twice (1 each), 5–3 (4), 4–4 (0),
    // 4–3 twice (1 each): 8, so D_o = 2·8 / (4·3) = 4/3. D_e of 1–5 is Σ(i−j)² over the 25
    // ordered picks / 25 = 2·(4·1 + 3·4 + 2·9 + 1·16) / 25 = 4. Agreement 1 − (4/3)/4 = 2/3 =
    // 0.6667, which rounds to 0.667 but is under it.
    const result = await evaluate(
      ["Feasibility"],
      judges([{ Feasibility: 5 }, { Feasibility: 4 }, { Feasibility: 4 }, { Feasibility: 3 }]),
    );
    expect(result.humanReviewRequired).toBe(true);
    expect(result.criteria[0]?.panel?.agreement).toBeCloseTo(2 / 3, 10);
    expect(result.panel?.agreement).toBeNull(); // one criterion: alpha is undefined
    expect(result.humanReviewReasons).toEqual([
      "criterion feasibility: the judges disagree (agreement 0.666 < 0.667: scripted:j1 5, scripted:j2 4, scripted:j3 4, scripted:j4 3)",
    ]);
  });

  it("Krippendorff's alpha of 2/3 over the criteria against 0.667 is held for review", async () => {
    // Judges j1, j2, j3 give (1, 1, 2) on Clarity, (2, 2, 3) on Impact, (3, 3, 4) on Budget.
    // Per criterion: D_o = 2·1 / 3 = 2/3 (one pair in three differs by 1), D_e = 4, agreement
    // 1 − 1/6 = 5/6, over the minimum. Alpha (interval, unchanged by the 0–1 rescaling) over the
    // nine values 1 ×2, 2 ×3, 3 ×3, 4 ×1: each unit adds 4 ordered pairs at δ² 1 with weight
    // 1/(3 − 1), so Σ o·δ² = 3·2 = 6; Σ n·n·δ² = 2·(9·Σv² − (Σv)²) = 2·(9·57 − 21²) = 144;
    // α = 1 − (9 − 1)·6 / 144 = 2/3 = 0.6667, which rounds to 0.667 but is under it.
    const result = await evaluate(
      ["Clarity", "Impact", "Budget"],
      judges([
        { Clarity: 1, Impact: 2, Budget: 3 },
        { Clarity: 1, Impact: 2, Budget: 3 },
        { Clarity: 2, Impact: 3, Budget: 4 },
      ]),
    );
    expect(result.humanReviewRequired).toBe(true);
    for (const c of result.criteria) expect(c.panel?.agreement).toBeCloseTo(5 / 6, 10);
    expect(result.panel?.agreement).toBeCloseTo(2 / 3, 10);
    expect(result.humanReviewReasons).toEqual([
      "the judges disagree across the criteria (Krippendorff's alpha 0.666 < 0.667)",
    ]);
  });
});
