/**
 * Keys a JSON object gave more than once, and their values, kept beside the lenient reader's
 * objects (which, like JSON.parse, keep only the last value).
 */
import type { LenientObject, LenientValue } from "./lenientValue.js";

/**
 * The values of keys an object gave more than once, in the order written (the object itself keeps
 * the last, as JSON.parse does). Kept beside the object so that readers can refuse an answer that
 * says two things instead of silently taking one.
 */
const REPEATED_KEYS = new WeakMap<LenientObject, Map<string, LenientValue[]>>();

/** Every value the object gave `key`, in the order written (one entry when it gave it once). */
export function valuesGiven(object: LenientObject, key: string): LenientValue[] {
  const repeated = REPEATED_KEYS.get(object)?.get(key);
  if (repeated !== undefined) return [...repeated];
  return Object.hasOwn(object, key) ? [object[key] as LenientValue] : [];
}

/** Records `value` for `key` when the object already has the key (called before it is set). */
export function noteValue(object: LenientObject, key: string, value: LenientValue): void {
  if (!Object.hasOwn(object, key)) return;
  let repeated = REPEATED_KEYS.get(object);
  if (repeated === undefined) {
    repeated = new Map();
    REPEATED_KEYS.set(object, repeated);
  }
  const values = repeated.get(key) ?? [object[key] as LenientValue];
  values.push(value);
  repeated.set(key, values);
}
