import { shownScore } from "../../scoring/shownScore.js";

/** A 0–1 score as the pages and the HTML report show it: a whole percent cut down, "—" for none. */
export function formatScore(score: number | null, threshold?: number): string {
  return score === null ? "—" : shownScore(score, "percent", threshold);
}
