import type { Level } from "../criteria/model.js";

/** The highest-scoring level (the first of equals). */
export function highestLevel(levels: readonly Level[]): Level | undefined {
  return levels.reduce<Level | undefined>(
    (best, level) => (best === undefined || level.score > best.score ? level : best),
    undefined,
  );
}

/** The lowest-scoring level (the first of equals). */
export function lowestLevel(levels: readonly Level[]): Level | undefined {
  return levels.reduce<Level | undefined>(
    (worst, level) => (worst === undefined || level.score < worst.score ? level : worst),
    undefined,
  );
}
