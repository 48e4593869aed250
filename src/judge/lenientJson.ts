/**
 * A forgiving reader for the JSON objects judges write. On top of JSON it accepts trailing commas,
 * single-quoted strings, unquoted identifier keys, raw line breaks inside strings, `//` and
 * `/* *\/` comments and Python's True / False / None. It never guesses: anything else is an error,
 * and running out of text before the object closes is reported as truncation. A key given twice
 * keeps its last value, as JSON.parse does, and every value given is recorded (see valuesGiven),
 * so that a reader can refuse an object that says two things.
 */

import { EvalgateError } from "../errors.js";
import type { LenientObject, LenientValue } from "./lenientValue.js";
import { noteValue } from "./repeatedKeys.js";

export type { LenientObject, LenientValue } from "./lenientValue.js";
export { valuesGiven } from "./repeatedKeys.js";

export type LenientParse =
  | { ok: true; value: LenientObject; end: number }
  | { ok: false; truncated: boolean; message: string; at: number };

const MAX_DEPTH = 64;

/** Keys that could reach an object's prototype: read, then dropped, so they never matter. */
const DROPPED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/** Thrown inside the reader only: parseLenientObject turns it into `{ ok: false }`. */
class LenientSyntaxError extends EvalgateError {
  override readonly name = "LenientSyntaxError";

  constructor(
    message: string,
    readonly at: number,
    readonly truncated: boolean,
  ) {
    super("LENIENT_JSON_INVALID", message);
  }
}

class Reader {
  pos: number;
  /** Characters looked at, for the work count of a scan. */
  visits = 0;

  constructor(
    private readonly text: string,
    start: number,
  ) {
    this.pos = start;
  }

  private fail(message: string): never {
    throw new LenientSyntaxError(message, this.pos, this.pos >= this.text.length);
  }

  private peek(): string {
    this.visits++;
    return this.text[this.pos] ?? "";
  }

  skipSpace(): void {
    for (;;) {
      const c = this.peek();
      if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\uFEFF") {
        this.pos++;
      } else if (c === "/" && this.text[this.pos + 1] === "/") {
        const end = this.text.indexOf("\n", this.pos);
        this.pos = end === -1 ? this.text.length : end + 1;
      } else if (c === "/" && this.text[this.pos + 1] === "*") {
        const end = this.text.indexOf("*/", this.pos + 2);
        if (end === -1) {
          this.pos = this.text.length;
          this.fail("unterminated comment");
        }
        this.pos = end + 2;
      } else {
        return;
      }
    }
  }

  value(depth: number): LenientValue {
    if (depth > MAX_DEPTH) this.fail("nested too deeply");
    this.skipSpace();
    const c = this.peek();
    if (c === "") this.fail("unexpected end of text");
    if (c === "{") return this.object(depth + 1);
    if (c === "[") return this.array(depth + 1);
    if (c === '"' || c === "'") return this.string();
    if (c === "-" || c === "+" || c === "." || (c >= "0" && c <= "9")) return this.number();
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(this.text.slice(this.pos, this.pos + 16))?.[0];
    switch (word) {
      case "true":
      case "True":
        this.pos += word.length;
        return true;
      case "false":
      case "False":
        this.pos += word.length;
        return false;
      case "null":
      case "None":
        this.pos += word.length;
        return null;
      default:
        this.fail(`unexpected ${word === undefined ? `'${c}'` : `word '${word}'`}`);
    }
  }

  object(depth: number): LenientObject {
    const result: LenientObject = {};
    this.pos++; // {
    for (;;) {
      this.skipSpace();
      if (this.peek() === "}") {
        this.pos++;
        return result;
      }
      const key = this.key();
      this.skipSpace();
      if (this.peek() !== ":") this.fail(`expected ':' after key "${key}"`);
      this.pos++;
      const value = this.value(depth);
      if (!DROPPED_KEYS.has(key)) {
        noteValue(result, key, value);
        Object.defineProperty(result, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      this.skipSpace();
      const next = this.peek();
      if (next === ",") {
        this.pos++;
      } else if (next !== "}") {
        this.fail(
          next === "" ? "unexpected end of text" : `expected ',' or '}' but found '${next}'`,
        );
      }
    }
  }

  array(depth: number): LenientValue[] {
    const result: LenientValue[] = [];
    this.pos++; // [
    for (;;) {
      this.skipSpace();
      if (this.peek() === "]") {
        this.pos++;
        return result;
      }
      result.push(this.value(depth));
      this.skipSpace();
      const next = this.peek();
      if (next === ",") {
        this.pos++;
      } else if (next !== "]") {
        this.fail(
          next === "" ? "unexpected end of text" : `expected ',' or ']' but found '${next}'`,
        );
      }
    }
  }

  key(): string {
    const c = this.peek();
    if (c === '"' || c === "'") return this.string();
    const word = /^[A-Za-z_$][A-Za-z0-9_$-]*/.exec(this.text.slice(this.pos, this.pos + 200))?.[0];
    if (word === undefined)
      this.fail(c === "" ? "unexpected end of text" : `expected a key but found '${c}'`);
    this.pos += word.length;
    return word;
  }

  string(): string {
    const quote = this.peek();
    this.pos++;
    let out = "";
    for (;;) {
      const c = this.peek();
      if (c === "") this.fail("unterminated string");
      this.pos++;
      if (c === quote) return out;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const e = this.peek();
      this.pos++;
      switch (e) {
        case '"':
        case "'":
        case "\\":
        case "/":
          out += e;
          break;
        case "b":
          out += "\b";
          break;
        case "f":
          out += "\f";
          break;
        case "n":
          out += "\n";
          break;
        case "r":
          out += "\r";
          break;
        case "t":
          out += "\t";
          break;
        case "\n":
          break;
        case "u": {
          const hex = this.text.slice(this.pos, this.pos + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            if (this.pos + 4 > this.text.length) this.fail("unterminated string");
            this.fail(`bad unicode escape '\\u${hex}'`);
          }
          out += String.fromCharCode(Number.parseInt(hex, 16));
          this.pos += 4;
          break;
        }
        case "":
          this.fail("unterminated string");
          break;
        default:
          this.pos--;
          this.fail(`bad escape '\\${e}'`);
      }
    }
  }

  number(): number {
    const match = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(
      this.text.slice(this.pos, this.pos + 64),
    );
    if (match === null) this.fail(`bad number starting with '${this.peek()}'`);
    this.pos += match[0].length;
    const value = Number(match[0]);
    if (!Number.isFinite(value)) this.fail(`number ${match[0]} is out of range`);
    return value;
  }
}

/** Reads the object that starts with the `{` at `start`. */
export function parseLenientObject(text: string, start: number): LenientParse {
  return readObject(text, start).parse;
}

/** Reads the object at `start`, also counting the characters the reader visited. */
export function readObject(text: string, start: number): { parse: LenientParse; visits: number } {
  if (text[start] !== "{") {
    return {
      parse: { ok: false, truncated: false, message: "expected '{'", at: start },
      visits: 0,
    };
  }
  const reader = new Reader(text, start);
  try {
    const value = reader.object(1);
    return { parse: { ok: true, value, end: reader.pos }, visits: reader.visits };
  } catch (error) {
    if (error instanceof LenientSyntaxError) {
      const parse = { ok: false as const, truncated: error.truncated, message: error.message };
      return { parse: { ...parse, at: error.at }, visits: reader.visits };
    }
    throw error;
  }
}
