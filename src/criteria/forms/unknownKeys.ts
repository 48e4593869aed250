import { isRecord } from "../../untrusted/json.js";
import type { CatalogPath } from "../errors.js";

/**
 * The first key of `input` a schema dropped from its `output`: a key the form does not know, a
 * typo (`critcal`) that would otherwise be ignored without a word.
 */
export function firstDroppedKey(input: unknown, output: unknown): CatalogPath | undefined {
  const stack: Array<{ input: unknown; output: unknown; path: CatalogPath }> = [
    { input, output, path: [] },
  ];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (Array.isArray(next.input) && Array.isArray(next.output)) {
      for (let i = next.input.length - 1; i >= 0; i--) {
        stack.push({ input: next.input[i], output: next.output[i], path: [...next.path, i] });
      }
    } else if (isRecord(next.input) && isRecord(next.output)) {
      const keys = Object.keys(next.input);
      const dropped = keys.find((key) => !Object.hasOwn(next.output as object, key));
      if (dropped !== undefined) return [...next.path, dropped];
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({
          input: next.input[key],
          output: (next.output as Record<string, unknown>)[key],
          path: [...next.path, key],
        });
      }
    }
  }
  return undefined;
}
