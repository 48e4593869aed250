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
  /** Keys whose blocks are the document's own data (a JSON Schema): `stringFields` stop there. */
  readonly dataFields?: readonly string[];
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
 * objects, `[a, b]` arrays, `#` comments); a ToonError names the original line. LF, CRLF and a
 * lone CR each end a line.
 */
export function decodeToon(text: string, options: DecodeToonOptions = {}): unknown {
  return decodeToonWithLines(text, options).value;
}

/** decodeToon, and the line of each value (indexed on first use). */
export function decodeToonWithLines(input: string, options: DecodeToonOptions = {}): LocatedToon {
  const normalised = normalise(withLineFeeds(input), options);
  const value = decodeNormalised(normalised, options);
  let lines: ReadonlyMap<string, number> | undefined;
  const lineOf = (path: JsonPath): number | undefined => {
    lines ??= indexValueLines(normalised.text, decoderOptions(options));
    for (let depth = path.length; depth >= 0; depth--) {
      const line = lines.get(JSON.stringify(path.slice(0, depth)));
      if (line !== undefined) return normalised.originalLine(line);
    }
    return undefined;
  };
  const found = options.refusePrototypeKeys === true ? findPrototypeKey(value) : undefined;
  if (found !== undefined) {
    const reason = `${prototypeKeyReason(found)} (at ${formatJsonPath(found.path)})`;
    throw new ToonError(reason, { line: lineOf(found.path) ?? 1, source: options.source });
  }
  return { value, lineOf };
}

/** CRLF and old Mac CR-only line endings read as lines, counted like LF. */
function withLineFeeds(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}

function normalise(text: string, options: DecodeToonOptions): NormalisedToon {
  return normaliseToon(text, {
    indentSize: options.indentSize ?? 2,
    stringFields: new Set(options.stringFields ?? []),
    dataFields: new Set(options.dataFields ?? []),
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
