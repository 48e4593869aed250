import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { decodeToon } from "../../src/toon/decode.js";
import { ToonError } from "../../src/toon/errors.js";
import { ToonFixtureFileSchema } from "./fixture-format.js";

const fixturePath = fileURLToPath(
  new URL("../fixtures/toon/criteria-dialect.json", import.meta.url),
);
const fixture = ToonFixtureFileSchema.parse(JSON.parse(readFileSync(fixturePath, "utf8")));

function decodeCase(input: unknown, options: (typeof fixture.tests)[number]["options"]): unknown {
  if (typeof input !== "string") throw new TypeError("decode fixture input must be a string");
  return decodeToon(input, options ?? {});
}

describe("TOON criteria dialect fixtures", () => {
  it("has at least 25 cases, errors among them with their expected line", () => {
    expect(fixture.category).toBe("decode");
    expect(fixture.tests.length).toBeGreaterThanOrEqual(25);
    const errors = fixture.tests.filter((testCase) => testCase.shouldError);
    expect(errors.length).toBeGreaterThan(0);
    for (const testCase of errors) expect(testCase.errorLine, testCase.name).toBeDefined();
  });

  for (const testCase of fixture.tests) {
    if (testCase.shouldError) {
      it(testCase.name, () => {
        let caught: unknown;
        try {
          decodeCase(testCase.input, testCase.options);
        } catch (error) {
          caught = error;
        }
        expect(caught).toBeInstanceOf(ToonError);
        const error = caught as ToonError;
        expect(error.line).toBe(testCase.errorLine);
        if (testCase.errorMessage) expect(error.message).toContain(testCase.errorMessage);
        const source = testCase.options?.source;
        const where = source ? `${source}:${testCase.errorLine}: ` : `line ${testCase.errorLine}: `;
        expect(error.message.startsWith(where)).toBe(true);
      });
    } else {
      it(testCase.name, () => {
        expect(decodeCase(testCase.input, testCase.options)).toEqual(testCase.expected);
      });
    }
  }
});
