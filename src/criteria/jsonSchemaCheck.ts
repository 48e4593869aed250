/**
 * The meta-rubric's check of the JSON Schemas a catalog carries: a `schema` criterion's inline
 * schema and a levels criterion's `decode_output_schema` (as the judge completes it) compile as
 * they will when the criterion runs — found at load, not reported "not evaluated" mid-run.
 */
import { decodeAnswerSchema } from "./decodeAnswerSchema.js";
import { compileJsonSchema, type JsonSchema } from "./jsonSchema.js";
import type { Catalog, Criterion } from "./model.js";
import { criterionPath, type ValidationFinding } from "./validationFinding.js";

interface CarriedSchema {
  field: "schema" | "decodeOutputSchema";
  label: string;
  schema: JsonSchema;
}

function carriedSchema(c: Criterion): CarriedSchema | undefined {
  const method = c.method;
  if (method.kind === "schema" && method.schema !== undefined) {
    return { field: "schema", label: "its JSON Schema", schema: method.schema };
  }
  if (method.kind === "levels") {
    const schema = decodeAnswerSchema(method);
    if (schema === undefined) return undefined;
    return { field: "decodeOutputSchema", label: "its decode_output_schema", schema };
  }
  return undefined;
}

/** `criterion "shape": its JSON Schema cannot be used: unknown keyword: "minItem"`. */
export function jsonSchemaProblemMessage(criterionId: string, label: string, problem: string) {
  return `criterion ${JSON.stringify(criterionId)}: ${label} cannot be used: ${problem}`;
}

export function checkJsonSchemas(catalog: Catalog): ValidationFinding[] {
  return catalog.criteria.flatMap((c): ValidationFinding[] => {
    const carried = carriedSchema(c);
    if (carried === undefined) return [];
    const made = compileJsonSchema(carried.schema);
    if (!("problem" in made)) return [];
    return [
      {
        severity: "error",
        check: "json_schema",
        message: jsonSchemaProblemMessage(c.id, carried.label, made.problem),
        path: criterionPath(catalog, c, "method", carried.field),
      },
    ];
  });
}
