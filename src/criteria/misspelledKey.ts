/** A key written wrong (`tpye` for `type`): told as a typo, not as a missing value. */
import type { z } from "zod";
import type { CatalogPath } from "./errors.js";

export interface MisspelledKey {
  path: CatalogPath;
  written: string;
  meant: string;
}

/** Optimal string alignment: a swap of two neighbours is one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => rows[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      const row = rows[i];
      if (row !== undefined) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** Near enough to be a typo: at most 2 edits, and fewer than half the word's letters. */
function isTypo(written: string, meant: string): boolean {
  const distance = editDistance(written.toLowerCase(), meant.toLowerCase());
  return distance > 0 && distance <= 2 && distance * 2 < meant.length;
}

/** The value at `path`, undefined where the path leaves the objects. */
export function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]) =>
  a.length === b.length && a.every((key, i) => key === b[i]);

export function misspelledKey(
  issues: readonly z.core.$ZodIssue[],
  value: unknown,
): MisspelledKey | undefined {
  for (const issue of issues) {
    if (issue.code !== "unrecognized_keys") continue;
    const object = valueAt(value, issue.path);
    if (typeof object !== "object" || object === null) continue;
    const missing = issues.flatMap((other) => {
      const key = other.path.at(-1);
      if (typeof key !== "string" || !samePath(other.path.slice(0, -1), issue.path)) return [];
      return key in object ? [] : [key];
    });
    for (const written of issue.keys) {
      const meant = missing.find((key) => isTypo(written, key));
      if (meant !== undefined) {
        const path = issue.path.map((p) => (typeof p === "symbol" ? String(p) : p));
        return { path, written, meant };
      }
    }
  }
  return undefined;
}
