import { ANSWER_LIST_LIMIT } from "../../prompts/evaluation/index.js";
import { decodeAnswerSchema, REASONING as reasoning } from "../criteria/decodeAnswerSchema.js";
import { type Criterion, nativeScaleOf } from "../criteria/model.js";
import { MAX_QUOTE_CHARS, MAX_QUOTES } from "./answer.js";

export type AnswerJsonSchema = Record<string, unknown>;

const list = { type: "array", items: { type: "string" }, maxItems: ANSWER_LIST_LIMIT };
const quotes = {
  type: "array",
  description: "exact passages copied from the content that support the verdict",
  items: { type: "string", maxLength: MAX_QUOTE_CHARS },
  maxItems: MAX_QUOTES,
};

/** The answer contract as a structured-output schema; the parser still checks every answer. */
export function answerJsonSchema(
  criterion: Criterion,
  options: { lists?: boolean } = {},
): AnswerJsonSchema | undefined {
  const method = criterion.method;
  switch (method.kind) {
    case "score":
    case "point": {
      const scale = nativeScaleOf(method);
      const score = {
        type: scale.integer ? "integer" : "number",
        minimum: scale.min,
        maximum: scale.max,
      };
      const lists = options.lists === false ? {} : { hits: list, misses: list };
      return {
        type: "object",
        properties: { reasoning, quotes, score, ...lists },
        required: ["reasoning", "quotes", "score", ...Object.keys(lists)],
      };
    }
    case "check":
      return {
        type: "object",
        properties: { reasoning, quotes, result: { type: "string", enum: ["pass", "fail"] } },
        required: ["reasoning", "quotes", "result"],
      };
    case "levels":
      return (
        decodeAnswerSchema(method) ?? {
          type: "object",
          properties: {
            reasoning,
            quotes,
            level_id: { type: "string", enum: method.levels.map((l) => l.id) },
          },
          required: ["reasoning", "quotes", "level_id"],
        }
      );
    default:
      return undefined;
  }
}
