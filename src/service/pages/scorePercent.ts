/** A 0–1 score as the pages and the HTML report show it: a whole percent, "—" when there is none. */
export function formatScore(score: number | null): string {
  return score === null ? "—" : `${Math.round(score * 100)}%`;
}
