/**
 * The JSON objects in a judge's answer: each top-level brace-balanced region, mended by jsonrepair
 * only where the mend guesses nothing, read by jsonc-parser so that every value of a repeated key
 * is kept (valuesGiven) for readers that refuse an object saying two things. An object still open
 * at the end is never closed by guesswork: the text is marked truncated.
 */
import { type Node, parseTree } from "jsonc-parser";
import { jsonrepair } from "jsonrepair";

export type LenientValue = string | number | boolean | null | LenientValue[] | LenientObject;
export type LenientObject = { [key: string]: LenientValue };

const MAX_DEPTH = 64;

const DROPPED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

const REPEATED_KEYS = new WeakMap<LenientObject, Map<string, LenientValue[]>>();

/** Every value the object gave `key`, in the order written. */
export function valuesGiven(object: LenientObject, key: string): LenientValue[] {
  const repeated = REPEATED_KEYS.get(object)?.get(key);
  if (repeated !== undefined) return [...repeated];
  return Object.hasOwn(object, key) ? [object[key] as LenientValue] : [];
}

function lenientValueOf(node: Node): LenientValue {
  if (node.type === "array") return (node.children ?? []).map(lenientValueOf);
  if (node.type !== "object") return node.value as LenientValue;
  const object: LenientObject = {};
  const given = new Map<string, LenientValue[]>();
  for (const property of node.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    const key = String(keyNode?.value);
    if (valueNode === undefined || DROPPED_KEYS.has(key)) continue;
    const value = lenientValueOf(valueNode);
    given.set(key, [...(given.get(key) ?? []), value]);
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const repeated = new Map([...given].filter(([, values]) => values.length > 1));
  if (repeated.size > 0) REPEATED_KEYS.set(object, repeated);
  return object;
}

const CONSTANTS: ReadonlySet<string> = new Set(["true", "false", "null", "True", "False", "None"]);
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const KEY = /^[A-Za-z_$][\w$-]*$/;

/**
 * The region opened by the `{` at `start`: its shape (`s` per string, `v` per other value, the
 * punctuation, no trailing comma), its end, its depth; or the first stray text, where it stops.
 */
interface Walk {
  shape: string;
  depth: number;
  reached: number;
  end?: number;
  stray?: { at: number; what: string };
}

function walk(text: string, start: number): Walk {
  let shape = "";
  let [braces, nesting, depth] = [0, 0, 0];
  let i = start;
  const stop = (what: string): Walk => ({ shape, stray: { at: i, what }, depth, reached: i });
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c.trim() === "") i++;
    else if (c === "/" && (next === "/" || next === "*")) {
      const close = next === "/" ? text.indexOf("\n", i) : text.indexOf("*/", i + 2);
      i = close === -1 ? text.length : close + (next === "/" ? 1 : 2);
    } else if (c === '"' || c === "'") {
      // A single quote opens a string only where a key or value starts (not in "it's").
      if (c === "'" && !"{[,:".includes(shape.at(-1) ?? "")) return stop("'");
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      if (j >= text.length) return { shape, depth, reached: text.length };
      shape += "s";
      i = j + 1;
    } else if (c === "{" || c === "[") {
      shape += c;
      depth = Math.max(depth, ++nesting);
      if (c === "{") braces++;
      i++;
    } else if (c === "}" || c === "]") {
      shape = `${shape.endsWith(",") ? shape.slice(0, -1) : shape}${c}`;
      nesting--;
      i++;
      if (c === "}" && --braces === 0) return { end: i, shape, depth, reached: i };
    } else if (c === ":" || c === ",") {
      shape += c;
      i++;
    } else {
      const word = /^[\w$.+-]+/.exec(text.slice(i, i + 100))?.[0] ?? c;
      let after = i + word.length;
      while (text[after]?.trim() === "") after++;
      if (KEY.test(word) && text[after] === ":") shape += "s";
      else if (CONSTANTS.has(word) || NUMBER.test(word)) shape += "v";
      else return stop(word);
      i += word.length;
    }
  }
  return { shape, depth, reached: i };
}

/** The mended region must keep its shape: a repair that adds anything is a guess. */
function readRegion(region: string, shape: string): { value: LenientObject } | { error: string } {
  let repaired: string;
  try {
    repaired = jsonrepair(region);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (walk(repaired, 0).shape !== shape) return { error: "it can only be read by guessing" };
  const tree = parseTree(repaired);
  if (tree?.type !== "object") return { error: "not a JSON object" };
  return { value: lenientValueOf(tree) as LenientObject };
}

/** For every `{`, just past its matching `}`; strings count only inside braces. */
function closingBraces(text: string): Map<number, number> {
  const closes = new Map<number, number>();
  const open: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === "{") open.push(i);
    else if (c === "}") {
      const start = open.pop();
      if (start !== undefined) closes.set(start, i + 1);
    } else if (c === '"' && open.length > 0) inString = true;
  }
  return closes;
}

export interface JsonObjectScan {
  objects: Array<{ value: LenientObject; start: number; end: number }>;
  truncated: boolean;
  firstError?: string;
  /** Characters handed to the readers: at most about twice the text, whatever the text. */
  steps: number;
}

/** All top-level JSON objects in a text; an unreadable region is skipped as a whole. */
export function scanJsonObjects(text: string): JsonObjectScan {
  const scan: JsonObjectScan = { objects: [], truncated: false, steps: 0 };
  let closes: Map<number, number> | undefined;
  let pos = 0;
  for (;;) {
    const start = text.indexOf("{", pos);
    if (start === -1) {
      scan.steps += text.length - pos;
      return scan;
    }
    const { end, shape, stray, depth, reached } = walk(text, start);
    scan.steps += reached - pos;
    const error = (at: number, why: string) => {
      scan.firstError ??= `invalid JSON at offset ${at}: ${why}`;
    };
    if (stray !== undefined) {
      // Skipped as a whole, to its matching brace (or past the stray text when it has none).
      error(stray.at, `unexpected ${JSON.stringify(stray.what)}`);
      if (closes === undefined) {
        closes = closingBraces(text);
        scan.steps += text.length;
      }
      pos = Math.max(closes.get(start) ?? start + 1, stray.at + 1);
    } else if (end === undefined) {
      // Valid as far as it goes: the answer was cut off.
      scan.truncated = true;
      return scan;
    } else {
      pos = end;
      scan.steps += end - start;
      if (depth > MAX_DEPTH) error(start, `nested more than ${MAX_DEPTH} levels deep`);
      else {
        const read = readRegion(text.slice(start, end), shape);
        if ("value" in read) scan.objects.push({ value: read.value, start, end });
        else error(start, read.error);
      }
    }
  }
}
