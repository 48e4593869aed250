import { describeScale, formatNumber, onScale, type PromptScale } from "./scale.js";

/** The judge's task for a `score` criterion: a value on the criterion's native scale. */
export const SCORE_TEMPLATE = `Content under evaluation:
{{content}}

{{context}}

Evaluate the content above against one criterion and score it.

Criterion: {{criterion_title}}
{{criterion_description}}

{{guidelines}}

{{answer_format}}`;

/** The five guideline bands on 0–1, best first. */
export const BAND_RANGES = [
  ["excellent", 0.9, 1.0],
  ["good", 0.7, 0.89],
  ["adequate", 0.5, 0.69],
  ["poor", 0.3, 0.49],
  ["inadequate", 0.0, 0.29],
] as const;

export type BandName = (typeof BAND_RANGES)[number][0];

/** What each band means for one criterion (the catalog's scoringGuidelines). */
export type BandGuidelines = Readonly<Record<BandName, string>>;

function isUnitScale(scale: PromptScale): boolean {
  return scale.min === 0 && scale.max === 1;
}

/**
 * The scale, and when the criterion has them the five guideline bands with their ranges converted
 * to the native scale (excellent 0.9–1.0 is 4.6–5 on 1–5).
 */
export function scoreGuidelines(scale: PromptScale, guidelines?: BandGuidelines): string {
  const lines = [
    `Scale: ${describeScale(scale)}. ${formatNumber(scale.min)} means the criterion is not met at all; ${formatNumber(scale.max)} means it is fully met with convincing evidence.`,
  ];
  if (guidelines !== undefined) {
    const where = isUnitScale(scale) ? "" : " (ranges converted to this scale)";
    lines.push(`Scoring guidelines${where}:`);
    for (const [band, low, high] of BAND_RANGES) {
      const range = `${formatNumber(onScale(low, scale))}–${formatNumber(onScale(high, scale))}`;
      lines.push(`- ${band} (${range}): ${guidelines[band]}`);
    }
  }
  if (scale.integer) {
    lines.push(
      "Answer with a whole number: take the band that fits the content and the whole number nearest to it.",
    );
  }
  return lines.join("\n");
}
