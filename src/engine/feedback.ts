import type { Catalog } from "../criteria/model.js";
import { criterionSuggestion } from "../scoring/deterministicSummary.js";
import type { CriterionResult } from "../scoring/result.js";

interface Feedback {
  strengths: string[];
  weaknesses: string[];
  suggestions: string[];
}

function unique(items: readonly string[]): string[] {
  return [...new Set(items.map((i) => i.trim()).filter((i) => i !== ""))];
}

/** Hits are strengths, misses and unmet or unevaluated criteria weaknesses. */
export function collectFeedback(catalog: Catalog, results: readonly CriterionResult[]): Feedback {
  const strengths: string[] = [];
  const weaknesses: string[] = [];
  const suggestions: string[] = [];
  const byId = new Map(catalog.criteria.map((c) => [c.id, c]));
  for (const result of results) {
    if (!result.evaluated) {
      weaknesses.push(
        `${result.title}: could not be evaluated (${result.judgeError ?? "no answer"})`,
      );
      continue;
    }
    for (const hit of result.hits) strengths.push(`${result.title}: ${hit}`);
    for (const miss of result.misses) weaknesses.push(`${result.title}: ${miss}`);
    if (
      result.met === true &&
      result.hits.length === 0 &&
      result.score !== null &&
      result.score >= 0.8
    ) {
      strengths.push(`${result.title}: ${result.reasoning}`);
    }
    if (result.met === false && result.misses.length === 0) {
      weaknesses.push(`${result.title}: ${result.reasoning || "below its threshold"}`);
    }
    const criterion = byId.get(result.id);
    const suggestion = criterion === undefined ? undefined : criterionSuggestion(criterion, result);
    if (suggestion !== undefined) suggestions.push(`${result.title}: ${suggestion}`);
  }
  return {
    strengths: unique(strengths),
    weaknesses: unique(weaknesses),
    suggestions: unique(suggestions),
  };
}
