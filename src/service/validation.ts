/**
 * zod validation of bodies and queries through @hono/zod-validator: a failure becomes an
 * INVALID_INPUT error (400) naming the first field at fault, answered by the app's error handler.
 */
import { zValidator } from "@hono/zod-validator";
import { type ZodType, z } from "zod";
import { ServiceRequestError } from "./errors.js";

/** The first issue's path (`content`, `limit`), or undefined for a body that is not an object. */
export function issueField(error: z.ZodError): string | undefined {
  const path = error.issues[0]?.path ?? [];
  const unknownKeys = error.issues[0]?.code === "unrecognized_keys" ? error.issues[0].keys : [];
  const field = [...path, ...unknownKeys.slice(0, 1)].map(String).join(".");
  return field === "" ? undefined : field;
}

/** Throws INVALID_INPUT for a failed zod result, else returns the data. */
export function requireValid<T>(result: z.ZodSafeParseResult<T>, what: string): T {
  if (result.success) return result.data;
  const field = issueField(result.error);
  throw new ServiceRequestError(
    "INVALID_INPUT",
    `${what} is invalid: ${z.prettifyError(result.error)}`,
    field,
  );
}

function failAsInvalid(what: string) {
  return (result: { success: boolean; error?: unknown }) => {
    if (result.success || !(result.error instanceof z.ZodError)) return;
    const field = issueField(result.error);
    throw new ServiceRequestError(
      "INVALID_INPUT",
      `${what} is invalid: ${z.prettifyError(result.error)}`,
      field,
    );
  };
}

/** Validates the JSON body against a schema. */
export function jsonBody<T extends ZodType>(schema: T) {
  return zValidator("json", schema, failAsInvalid("the request body"));
}

/** Validates the query string against a schema. */
export function queryParams<T extends ZodType>(schema: T) {
  return zValidator("query", schema, failAsInvalid("the query"));
}
