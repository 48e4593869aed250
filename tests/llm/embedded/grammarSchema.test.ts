/** The answer contract's JSON Schema in the subset the embedded runtime turns into a grammar. */
import { describe, expect, it } from "vitest";
import { toGrammarSchema } from "../../../src/llm/embedded/chatLlamaCpp.js";

describe("toGrammarSchema", () => {
  it("turns a small integer range into the enum of its values", () => {
    expect(toGrammarSchema({ type: "integer", minimum: 1, maximum: 5 })).toEqual({
      enum: [1, 2, 3, 4, 5],
    });
  });

  it("keeps a number range as a number (the parser checks the bounds)", () => {
    expect(toGrammarSchema({ type: "number", minimum: 0, maximum: 1 })).toEqual({
      type: "number",
    });
  });

  it("asks for a non-empty reasoning, closes objects and keeps enums and list bounds", () => {
    const schema = toGrammarSchema({
      type: "object",
      properties: {
        reasoning: { type: "string", description: "why" },
        result: { type: "string", enum: ["pass", "fail"] },
        hits: { type: "array", items: { type: "string" }, maxItems: 4 },
      },
      required: ["reasoning", "result", "hits"],
    });
    expect(schema).toEqual({
      type: "object",
      required: ["reasoning", "result", "hits"],
      additionalProperties: false,
      properties: {
        reasoning: { type: "string", description: "why", minLength: 1 },
        result: { type: "string", enum: ["pass", "fail"] },
        hits: { type: "array", items: { type: "string" }, maxItems: 4 },
      },
    });
  });
});
