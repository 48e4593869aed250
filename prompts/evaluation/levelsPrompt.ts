/** The judge's task for a `levels` criterion: exactly one named quality level. */
export const LEVELS_TEMPLATE = `Content under evaluation:
{{content}}

{{context}}

Classify the content above into exactly one quality level for one criterion.

Criterion: {{criterion_title}}
{{criterion_description}}

{{guidelines}}

{{answer_format}}`;

export interface PromptLevel {
  id: string;
  label: string;
  description: string;
  score: number;
  indicators: readonly string[];
}

/** Every level, lowest score first, with its id, label, description and indicators. */
export function levelsGuidelines(levels: readonly PromptLevel[]): string {
  const ordered = [...levels].sort((a, b) => a.score - b.score);
  const lines = ["Levels, from lowest to highest:"];
  for (const level of ordered) {
    const description = level.description.trim();
    lines.push(`- id "${level.id}" — ${level.label}${description ? `: ${description}` : ""}`);
    const indicators = level.indicators.map((i) => i.trim()).filter((i) => i.length > 0);
    if (indicators.length > 0) lines.push(`  Indicators: ${indicators.join("; ")}`);
  }
  lines.push("Pick the level whose description and indicators fit the content best.");
  return lines.join("\n");
}
