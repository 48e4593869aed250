import type { z } from "zod";

/**
 * The point-function contract: a deterministic check of a text. It answers with a
 * boolean, a 0–1 fraction, or `{ error }` when it could not check — it never throws.
 */
export type PointFunctionError = { error: string };
export type PointFunctionResult = boolean | number | PointFunctionError;
export type PointFunction = (text: string, args: unknown) => PointFunctionResult;

export interface PointFunctionDefinition {
  fn: PointFunction;
  /** Validates the args a catalog gives the function. */
  argsSchema: z.ZodType;
  description: string;
}

/** How a built-in point function is specified before its name and its `not_` variant are bound. */
export interface PointFunctionSpec<Args> {
  argsSchema: z.ZodType<Args>;
  /** What the args must look like, for error messages: "a non-empty string". */
  expects: string;
  description: string;
  /**
   * Receives the args as parsed by `argsSchema`; may return `{ error }` (e.g. an invalid regex).
   * Declared as a method so specs with different args types can be listed together: each is
   * only ever called with its own schema's output.
   */
  evaluate(text: string, args: Args): PointFunctionResult;
}

export function isPointFunctionError(value: unknown): value is PointFunctionError {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { error?: unknown }).error === "string"
  );
}

/** A short description of a value for "expected …, got …" messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return `the ${typeof value} ${String(value)}`;
  }
  if (Array.isArray(value)) {
    return value.length === 1 ? "an array of 1 item" : `an array of ${value.length} items`;
  }
  if (typeof value === "function") return "a function";
  return "an object";
}

/** The message a point function gives when its args do not fit its schema, or undefined. */
export function argsProblem<Args>(
  name: string,
  spec: PointFunctionSpec<Args>,
  args: unknown,
): string | undefined {
  const parsed = spec.argsSchema.safeParse(args);
  return parsed.success ? undefined : argsMessage(name, spec, args, parsed.error);
}

/**
 * "name: expected …, got …", with the schema's own explanation when it gave one (why a pattern
 * cannot be used: "backreference \"\\1\" is not supported: …").
 */
function argsMessage<Args>(
  name: string,
  spec: PointFunctionSpec<Args>,
  args: unknown,
  error: z.ZodError,
): string {
  const explained = error.issues.find((issue) => issue.code === "custom");
  const why = explained === undefined ? "" : ` (${explained.message})`;
  return `${name}: expected ${spec.expects}, got ${describeValue(args)}${why}`;
}

function errorMessageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Binds a spec to a name: the resulting function validates its args and turns anything thrown
 * into `{ error }`, so a point function never throws. With `negate`, a boolean is inverted, a
 * number r becomes 1 − r, and an error stays an error.
 */
export function bindPointFunction<Args>(
  name: string,
  spec: PointFunctionSpec<Args>,
  negate: boolean,
): PointFunction {
  return (text, args) => {
    if (typeof text !== "string") {
      return { error: `${name}: expected the text to check, got ${describeValue(text)}` };
    }
    const parsed = spec.argsSchema.safeParse(args);
    if (!parsed.success) return { error: argsMessage(name, spec, args, parsed.error) };
    let result: PointFunctionResult;
    try {
      result = spec.evaluate(text, parsed.data);
    } catch (error) {
      return { error: `${name}: ${errorMessageOf(error)}` };
    }
    if (isPointFunctionError(result)) return { error: `${name}: ${result.error}` };
    if (!negate) return result;
    return typeof result === "boolean" ? !result : 1 - result;
  };
}
