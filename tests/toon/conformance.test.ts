import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { encode as encodeToon } from "@toon-format/toon";
import { describe, expect, it } from "vitest";
import { decodeToon } from "../../src/toon/decode.js";
import { ToonError } from "../../src/toon/errors.js";
import { normaliseToon } from "../../src/toon/normalise.js";
import { type ToonFixtureCase, ToonFixtureFileSchema } from "./fixture-format.js";

// The spec's conformance fixtures, copied into the repository (tests/fixtures/toon-spec-v4.0).
const fixturesDir = fileURLToPath(new URL("../fixtures/toon-spec-v4.0", import.meta.url));

/** The number of cases in the spec v4.0 fixtures (decode and encode), as the fixture files list them. */
const SPEC_CASE_COUNT = 516;

/**
 * Optional non-strict leniency (tests/README.md, "Non-Strict Tests"): the spec permits a decoder
 * to reject these inputs instead, and the reference decoder we build on does. They are checked
 * to be rejected with a ToonError rather than skipped.
 */
const OPTIONAL_LENIENCY_REJECTED: Readonly<Record<string, string>> = {
  "treats extra brackets after valid array segment as literal key (non-strict)":
    "malformed header key fall-through (§6) is optional; the reference decoder rejects it",
  "treats bracket segment without a length as literal key (non-strict)":
    "malformed header key fall-through (§6) is optional; the reference decoder rejects it",
  "treats non-integer bracket content as literal key (non-strict)":
    "malformed header key fall-through (§6) is optional; the reference decoder rejects it",
  "treats text between bracket segment and colon as literal key (non-strict)":
    "malformed header key fall-through (§6) is optional; the reference decoder rejects it",
};

interface LoadedCase {
  readonly file: string;
  readonly category: "encode" | "decode";
  readonly testCase: ToonFixtureCase;
}

/** The fixture cases; missing fixtures throw, so the suite fails at collection, never skips. */
function loadCases(): LoadedCase[] {
  const cases: LoadedCase[] = [];
  for (const category of ["decode", "encode"] as const) {
    const dir = join(fixturesDir, category);
    if (!existsSync(dir)) {
      throw new MissingSpecFixturesError(dir);
    }
    for (const file of readdirSync(dir)
      .filter((name) => name.endsWith(".json"))
      .sort()) {
      const parsed = ToonFixtureFileSchema.parse(JSON.parse(readFileSync(join(dir, file), "utf8")));
      for (const testCase of parsed.tests)
        cases.push({ file: `${category}/${file}`, category, testCase });
    }
  }
  return cases;
}

function run({ category, testCase }: LoadedCase): unknown {
  const options = testCase.options ?? {};
  if (category === "encode") {
    return encodeToon(testCase.input, {
      ...(options.delimiter ? { delimiter: options.delimiter } : {}),
      ...(options.indentSize ? { indentSize: options.indentSize } : {}),
    });
  }
  if (typeof testCase.input !== "string") throw new TypeError("decode input must be a string");
  return decodeToon(testCase.input, {
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    ...(options.indentSize ? { indentSize: options.indentSize } : {}),
  });
}

/** The spec's fixtures are not where the conformance suite reads them. */
class MissingSpecFixturesError extends Error {
  constructor(readonly dir: string) {
    super(`the TOON spec v4.0 conformance fixtures are missing: ${dir} does not exist`);
    this.name = "MissingSpecFixturesError";
  }
}

{
  const cases = loadCases();

  describe("TOON spec v4 conformance (tests/fixtures/toon-spec-v4.0)", () => {
    for (const loaded of cases) {
      const { file, testCase } = loaded;
      const optional = OPTIONAL_LENIENCY_REJECTED[testCase.name];
      if (optional) {
        it(`${file} › ${testCase.name} — rejected: ${optional}`, () => {
          expect(() => run(loaded)).toThrow(ToonError);
        });
      } else if (testCase.shouldError) {
        it(`${file} › ${testCase.name} (throws)`, () => {
          expect(() => run(loaded)).toThrow(loaded.category === "decode" ? ToonError : Error);
        });
      } else {
        it(`${file} › ${testCase.name}`, () => {
          expect(run(loaded)).toEqual(testCase.expected);
        });
      }
    }

    it("leaves the text of every spec decode case unchanged in the normaliser", () => {
      const changed = cases
        .filter(
          (loaded) => loaded.category === "decode" && typeof loaded.testCase.input === "string",
        )
        .filter((loaded) => {
          const input = loaded.testCase.input as string;
          const indentSize = loaded.testCase.options?.indentSize ?? 2;
          try {
            return normaliseToon(input, { indentSize, stringFields: new Set() }).text !== input;
          } catch {
            return true;
          }
        })
        .map((loaded) => loaded.testCase.name);
      expect(changed).toEqual([]);
    });

    it("registers every case of the spec, and every optional leniency it lets us reject", () => {
      expect(cases).toHaveLength(SPEC_CASE_COUNT);
      const names = new Set(cases.map((loaded) => loaded.testCase.name));
      for (const name of Object.keys(OPTIONAL_LENIENCY_REJECTED)) expect(names).toContain(name);
    });
  });
}
