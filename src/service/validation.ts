/** zod validation of bodies, queries and params: a failure is INVALID_INPUT naming the first field. */
import { zValidator } from "@hono/zod-validator";
import type { Context, MiddlewareHandler } from "hono";
import { type ZodType, z } from "zod";
import { ThreadIdSchema } from "../graph/reviewInput.js";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";
import type { ServiceEnv } from "./env.js";
import { ServiceRequestError } from "./errors.js";

function issueField(error: z.ZodError): string | undefined {
  const path = error.issues[0]?.path ?? [];
  const unknownKeys = error.issues[0]?.code === "unrecognized_keys" ? error.issues[0].keys : [];
  const field = [...path, ...unknownKeys.slice(0, 1)].map(String).join(".");
  return field === "" ? undefined : field;
}

export function requireValid<T>(result: z.ZodSafeParseResult<T>, what: string): T {
  if (result.success) return result.data;
  throw invalidInput(what, result.error);
}

function invalidInput(what: string, error: z.ZodError): ServiceRequestError {
  const message = `${what} is invalid: ${z.prettifyError(error)}`;
  return new ServiceRequestError("INVALID_INPUT", message, issueField(error));
}

/** The route's `:threadId`, checked. */
export function threadIdParam(c: Context): string {
  return requireValid(ThreadIdSchema.safeParse(c.req.param("threadId")), "the thread id");
}

/**
 * The JSON body read once, by readUntrustedJson (prototype keys refused, a syntax error placed by
 * line and column) — not by Hono's json validator, which runs JSON.parse on it first.
 */
export function jsonBody<T extends ZodType>(
  schema: T,
): MiddlewareHandler<ServiceEnv, string, { in: { json: z.input<T> }; out: { json: z.output<T> } }> {
  return async (c, next) => {
    // A form or text/plain body, which another site's page can send unasked, is never read as JSON.
    const media = c.req.header("content-type")?.split(";")[0]?.trim().toLowerCase();
    if (media !== "application/json") {
      throw new ServiceRequestError(
        "UNSUPPORTED_MEDIA_TYPE",
        `the request body must be JSON sent as Content-Type: application/json (not ${media || "none"})`,
      );
    }
    const read = readUntrustedJson(await c.req.text());
    if (!read.ok) {
      throw new ServiceRequestError(
        "INVALID_INPUT",
        `the request body is not usable JSON: ${describeJsonProblem(read.problem)}`,
      );
    }
    const body: z.output<T> = requireValid(schema.safeParse(read.value), "the request body");
    c.req.addValidatedData("json", body as object);
    await next();
  };
}

export function queryParams<T extends ZodType>(schema: T) {
  return zValidator("query", schema, (result) => {
    if (!result.success && result.error instanceof z.ZodError) {
      throw invalidInput("the query", result.error);
    }
  });
}
