/** Content types are checked (with the closest suggested): a typo must not give an empty report. */
import { CONTENT_TYPE_PROMPTS, normaliseContentType } from "../../prompts/evaluation/index.js";
import { levenshteinSimilarity } from "../pointFunctions/similarity.js";
import { CliError } from "./errors.js";

/** The content types evalgate has guidance for, in the order of the proposal graph. */
export const KNOWN_CONTENT_TYPES: readonly string[] = Object.keys(CONTENT_TYPE_PROMPTS);

/** The valid name closest to `given`, when it is close enough to be a typo of it. */
function closestName(given: string, valid: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of valid) {
    const measured = levenshteinSimilarity(given, name);
    const d = "distance" in measured ? measured.distance : Number.POSITIVE_INFINITY;
    if (best === undefined || d < best.distance) best = { name, distance: d };
  }
  return best !== undefined && best.distance <= Math.max(2, Math.floor(best.name.length / 3))
    ? best.name
    : undefined;
}

/** The refusal of a name not among `valid`, listing them and suggesting the closest. */
function unknownNameError(what: string, given: string, valid: readonly string[]): CliError {
  const shown = JSON.stringify(given.length > 64 ? `${given.slice(0, 64)}…` : given);
  const near = closestName(given, valid);
  const hint = near === undefined ? "" : ` (did you mean ${near}?)`;
  const list = valid.length === 0 ? "there are none" : `use one of ${valid.join(", ")}`;
  return new CliError(`unknown ${what} ${shown}${hint}: ${list}`);
}

/**
 * The snake_case form of a known content type (or one of `extra`), else a CliError listing them.
 */
export function checkedContentType(given: string, extra: readonly string[] = []): string {
  const normalised = normaliseContentType(given);
  const valid = [...new Set([...KNOWN_CONTENT_TYPES, ...extra])];
  if (valid.includes(normalised)) return normalised;
  if (extra.includes(given.trim())) return given.trim();
  throw unknownNameError("content type", given.trim(), valid);
}
