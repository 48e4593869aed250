/**
 * A JSON answer checked against a levels criterion's `decode_output_schema` (as
 * criteria/decodeAnswerSchema.ts completes it), compiled as when the catalog was loaded.
 */
import { formatSchemaError } from "../checks/schemaCriterion.js";
import { compileJsonSchema, type JsonSchema } from "../criteria/jsonSchema.js";

export function decodeAnswerProblem(answer: unknown, schema: JsonSchema): string | undefined {
  const made = compileJsonSchema(schema);
  if ("problem" in made) return `decode_output_schema is not a usable JSON Schema: ${made.problem}`;
  if (made.validate(answer)) return undefined;
  const problems = (made.validate.errors ?? []).slice(0, 3).map(formatSchemaError);
  return `the answer does not follow decode_output_schema (${problems.join("; ")})`;
}
