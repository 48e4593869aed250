/** The judge's task for a `point` criterion: how far one key point is covered. */
export const POINT_TEMPLATE = `Content under evaluation:
{{content}}

{{context}}

Assess how far the content above covers ONE key point, and only that point.

Criterion: {{criterion_title}}
{{criterion_description}}

{{guidelines}}

{{answer_format}}`;

/**
 * The key point and the coverage scale 0.0–1.0; with the original prompt the content answers
 * (already fenced as data) when there is one.
 */
export function pointGuidelines(keyPoint: string, originalPrompt?: string): string {
  const prompt = originalPrompt
    ? ["The content is a response to this original prompt:", originalPrompt, ""]
    : [];
  return [
    ...prompt,
    "Key point:",
    keyPoint.trim(),
    "",
    "Coverage extent, 0.0 to 1.0:",
    "- 1.0: the point is covered fully and explicitly.",
    "- 0.7–0.9: covered, with minor gaps or imprecision.",
    "- 0.4–0.6: partly covered, or only implied.",
    "- 0.1–0.3: barely touched.",
    "- 0.0: not covered at all, or contradicted.",
    "Judge this point only; other qualities of the content do not count.",
  ].join("\n");
}
