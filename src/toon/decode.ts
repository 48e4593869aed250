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
  /** File name used in error messages (`criteria.toon:7: ...`). */
  readonly source?: string;
  /** Keys and table columns whose unquoted values stay strings: `version` `1.0` → "1.0". */
  readonly stringFields?: readonly string[];
  /** Spec strict mode (counts, widths, indentation, blank lines); default true. */
  readonly strict?: boolean;
  /** Spaces per indentation level; default 2. */
  readonly indentSize?: number;
  /**
   * Refuse a key that could reach a prototype (`__proto__` anywhere, `constructor` holding
   * `prototype`) with a ToonError naming its line and path. Default false: as the spec asks, such
   * keys are kept as ordinary own keys (the decoder never sets a prototype), but a document that
   * is copied by assignment later (catalogs, data files) should refuse them.
   */
  readonly refusePrototypeKeys?: boolean;
}

/** A decoded value that can say on which original line any of its parts was written. */
export interface LocatedToon {
  readonly value: unknown;
  /**
   * The 1-based original line of the value at `path` (e.g. `["criteria", 2, "weight"]`); for a
   * path that does not exist, the line of its nearest existing ancestor; undefined only for an
   * empty document.
   */
  lineOf(path: JsonPath): number | undefined;
}

/**
 * Decodes TOON: spec TOON v4 as the reference decoder reads it, and the criteria dialect (`[N,]`
 * headers, unindented rows, `key{fields}:` objects, `[a, b]` arrays, `#` comments).
 * Throws ToonError with the original line when the text cannot be decoded (and, with
 * `refusePrototypeKeys`, when it holds a `__proto__` or `constructor.prototype` key).
 */
export function decodeToon(text: string, options: DecodeToonOptions = {}): unknown {
  const normalised = normalise(text, options);
  const value = decodeNormalised(normalised, options);
  refusePrototypeKeys(value, normalised, options);
  return value;
}

/** Like decodeToon, and also maps paths of the decoded value to original line numbers. */
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

/**
 * The decoder keeps a `__proto__` key as an own property, but whoever copies the value by
 * assignment would set a prototype with it: such keys are refused, naming their line.
 */
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
