/**
 * zod validation of bodies and queries: a failure becomes an INVALID_INPUT error (400) naming the
 * first field at fault, answered by the app's error handler. JSON bodies are read by the one
 * untrusted-JSON reader (prototype keys refused, nesting bounded), not by JSON.parse's value.
 */
import { zValidator } from "@hono/zod-validator";
import { validator } from "hono/validator";
import { type ZodType, z } from "zod";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";
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
  throw invalidInput(what, result.error);
}

function invalidInput(what: string, error: z.ZodError): ServiceRequestError {
  const message = `${what} is invalid: ${z.prettifyError(error)}`;
  return new ServiceRequestError("INVALID_INPUT", message, issueField(error));
}

/**
 * Validates the JSON body against a schema. Hono reads the body's text once and keeps it: the
 * value validated is that text read by readUntrustedJson (a `__proto__` key, or `constructor`
 * holding `prototype`, anywhere is refused), not the plain JSON.parse Hono did first.
 */
export function jsonBody<T extends ZodType>(schema: T) {
  return validator("json", async (_parsed, c): Promise<z.output<T>> => {
    requireJsonType(c.req.header("content-type"));
    const read = readUntrustedJson(await c.req.text());
    if (!read.ok) {
      throw new ServiceRequestError(
        "INVALID_INPUT",
        `the request body is not usable JSON: ${describeJsonProblem(read.problem)}`,
      );
    }
    return requireValid(schema.safeParse(read.value), "the request body");
  });
}

/**
 * A JSON body must say so: `Content-Type: application/json` (a charset parameter may follow).
 * Anything else, or none, is UNSUPPORTED_MEDIA_TYPE (415): a form or text/plain body, which a
 * page of another site can send without asking, is never read as a request to this API.
 */
export function requireJsonType(contentType: string | undefined): void {
  const media = contentType?.split(";")[0]?.trim().toLowerCase();
  if (media === "application/json") return;
  throw new ServiceRequestError(
    "UNSUPPORTED_MEDIA_TYPE",
    `the request body must be JSON sent as Content-Type: application/json (not ${media || "none"})`,
  );
}

/** Validates the query string against a schema. */
export function queryParams<T extends ZodType>(schema: T) {
  return zValidator("query", schema, (result) => {
    if (!result.success && result.error instanceof z.ZodError) {
      throw invalidInput("the query", result.error);
    }
  });
}
