import { ANSWER_LIST_LIMIT } from "../../prompts/evaluation/index.js";
import { REASONING as reasoning } from "../criteria/decodeAnswerSchema.js";
import type { Criterion } from "../criteria/model.js";
import { MAX_QUOTE_CHARS, MAX_QUOTES } from "./answer.js";
import { answerContractOf } from "./answerContract.js";

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
  const kind = criterion.method.kind;
  if (kind === "function" || kind === "schema") return undefined;
  const contract = answerContractOf(criterion);
  if (contract.kind === "levels" && contract.outputSchema !== undefined) {
    return contract.outputSchema;
  }
  const decisive =
    contract.kind === "numeric"
      ? {
          type: contract.scale.integer ? "integer" : "number",
          minimum: contract.scale.min,
          maximum: contract.scale.max,
        }
      : {
          type: "string",
          enum: contract.kind === "check" ? ["pass", "fail"] : contract.levels.map((l) => l.id),
        };
  const lists =
    contract.kind === "numeric" && options.lists !== false ? { hits: list, misses: list } : {};
  return {
    type: "object",
    properties: { reasoning, quotes, [contract.field]: decisive, ...lists },
    required: ["reasoning", "quotes", contract.field, ...Object.keys(lists)],
  };
}
