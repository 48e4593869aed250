import { z } from "zod";
import { EvaluationError } from "../errors.js";

/**
 * Checks a value handed to one of the evaluation classes against its schema. A bad value is an
 * input EvaluationError whose message names what was given and every problem with where it is
 * (`z.prettifyError`).
 *
 * @example
 * const settings = parseInput(SettingsSchema, options, "CriteriaEngine options");
 */
export function parseInput<Schema extends z.ZodType>(
  schema: Schema,
  value: unknown,
  what: string,
): z.output<Schema> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new EvaluationError("input", `invalid ${what}:\n${z.prettifyError(parsed.error)}`, {
    cause: parsed.error,
  });
}
