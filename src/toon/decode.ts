import { type DecodeOptions, decode } from "@toon-format/toon";
import {
  findPrototypeKey,
  formatJsonPath,
  type JsonPath,
  prototypeKeyReason,
} from "../untrusted/prototypeKeys.js";
import { toToonError } from "./decodeErrors.js";
import { ToonError } from "./errors.js";
import { indexValueLines } from "./locate.js";
import { type NormalisedToon, normaliseToon } from "./normalise.js";

export interface DecodeToonOptions {
  readonly source?: string;
  /** Keys and columns whose unquoted values stay strings: `version` `1.0` → "1.0". */
  readonly stringFields?: readonly string[];
  readonly strict?: boolean;
  readonly indentSize?: number;
  /**
   * Refuse `__proto__` anywhere and `constructor` holding `prototype` (default false: the spec keeps
   * them as own keys, but a document copied by assignment later must refuse them).
   */
  readonly refusePrototypeKeys?: boolean;
}

export interface LocatedToon {
  readonly value: unknown;
  /** The 1-based line of the value at `path`, else of its nearest existing ancestor. */
  lineOf(path: JsonPath): number | undefined;
}

/**
 * Decodes spec TOON v4 and the criteria dialect (`[N,]` headers, unindented rows, `key{fields}:`
 * objects, `[a, b]` arrays, `#` comments); a ToonError names the original line.
 */
export function decodeToon(text: string, options: DecodeToonOptions = {}): unknown {
  const normalised = normalise(text, options);
  const value = decodeNormalised(normalised, options);
  refusePrototypeKeys(value, normalised, options);
  return value;
}

export function decodeToonWithLines(text: string, options: DecodeToonOptions = {}): LocatedToon {
  const normalised = normalise(text, options);
  const value = decodeNormalised(normalised, options);
  const lines = indexValueLines(normalised.text, decoderOptions(options));
  const lineOf = originalLines(lines, normalised);
  refusePrototypeKeys(value, normalised, options, lineOf);
  return { value, lineOf };
}

function originalLines(
  lines: ReadonlyMap<string, number>,
  normalised: NormalisedToon,
): (path: JsonPath) => number | undefined {
  return (path) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const line = lines.get(JSON.stringify(path.slice(0, depth)));
      if (line !== undefined) return normalised.originalLine(line);
    }
    return undefined;
  };
}

function refusePrototypeKeys(
  value: unknown,
  normalised: NormalisedToon,
  options: DecodeToonOptions,
  lineOf?: (path: JsonPath) => number | undefined,
): void {
  if (options.refusePrototypeKeys !== true) return;
  const found = findPrototypeKey(value);
  if (found === undefined) return;
  const locate =
    lineOf ?? originalLines(indexValueLines(normalised.text, decoderOptions(options)), normalised);
  const line = locate(found.path) ?? 1;
  const reason = `${prototypeKeyReason(found)} (at ${formatJsonPath(found.path)})`;
  throw new ToonError(reason, { line, source: options.source });
}

function normalise(text: string, options: DecodeToonOptions): NormalisedToon {
  return normaliseToon(text, {
    indentSize: options.indentSize ?? 2,
    stringFields: new Set(options.stringFields ?? []),
    source: options.source,
  });
}

function decoderOptions(options: DecodeToonOptions): DecodeOptions {
  return { strict: options.strict ?? true, indentSize: options.indentSize ?? 2 };
}

function decodeNormalised(normalised: NormalisedToon, options: DecodeToonOptions): unknown {
  try {
    return decode(normalised.text, decoderOptions(options));
  } catch (error) {
    throw toToonError(error, normalised, options.source);
  }
}
