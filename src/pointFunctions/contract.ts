import type { z } from "zod";

/**
 * The point-function contract: a check of a text. It answers with a boolean, a 0–1 fraction, or
 * `{ error }` when it could not check — it never throws. Most are deterministic and synchronous;
 * those that ask the model server (embeddings) answer asynchronously.
 */
export type PointFunctionError = { error: string };
export type PointFunctionResult = boolean | number | PointFunctionError;

/** Embeds texts on the model server: one vector per text, in order. Rejects when it cannot. */
export interface TextEmbedder {
  embed(texts: readonly string[], model?: string): Promise<number[][]>;
}

/** What an evaluation gives its point functions beyond the text and the args. */
export interface PointFunctionContext {
  /**
   * The reference answer of this evaluation (a LangSmith example's reference outputs, a blueprint
   * prompt's `ideal`), for reference-based functions whose args name no `reference`.
   */
  reference?: string;
  /** The model server's embeddings, for functions that compare meanings. */
  embedder?: TextEmbedder;
}

export type PointFunction = (
  text: string,
  args: unknown,
  context?: PointFunctionContext,
) => PointFunctionResult;

/** A point function that asks the model server; it resolves (never rejects) like the others answer. */
export type AsyncPointFunction = (
  text: string,
  args: unknown,
  context?: PointFunctionContext,
) => Promise<PointFunctionResult>;

export interface PointFunctionDefinition<Fn = PointFunction> {
  fn: Fn;
  /** Validates the args a catalog gives the function. */
  argsSchema: z.ZodType;
  description: string;
}

export type AsyncPointFunctionDefinition = PointFunctionDefinition<AsyncPointFunction>;

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
  evaluate(text: string, args: Args, context: PointFunctionContext): PointFunctionResult;
}

/** The spec of a point function that answers asynchronously (it asks the model server). */
export interface AsyncPointFunctionSpec<Args> extends Omit<PointFunctionSpec<Args>, "evaluate"> {
  evaluate(text: string, args: Args, context: PointFunctionContext): Promise<PointFunctionResult>;
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
  spec: Pick<PointFunctionSpec<Args>, "argsSchema" | "expects">,
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
  spec: Pick<PointFunctionSpec<Args>, "argsSchema" | "expects">,
  args: unknown,
  error: z.ZodError,
): string {
  const explained = error.issues.find((issue) => issue.code === "custom");
  const why = explained === undefined ? "" : ` (${explained.message})`;
  return `${name}: expected ${spec.expects}, got ${describeValue(args)}${why}`;
}

export function errorMessageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The text and args checked: the parsed args, or the error the function answers instead. */
function checkedCall<Args>(
  name: string,
  spec: Pick<PointFunctionSpec<Args>, "argsSchema" | "expects">,
  text: unknown,
  args: unknown,
): { args: Args } | PointFunctionError {
  if (typeof text !== "string") {
    return { error: `${name}: expected the text to check, got ${describeValue(text)}` };
  }
  const parsed = spec.argsSchema.safeParse(args);
  return parsed.success
    ? { args: parsed.data }
    : { error: argsMessage(name, spec, args, parsed.error) };
}

/** What the function answered, named, and negated for a `not_` variant. */
function finished(name: string, result: PointFunctionResult, negate: boolean): PointFunctionResult {
  if (isPointFunctionError(result)) return { error: `${name}: ${result.error}` };
  if (!negate) return result;
  return typeof result === "boolean" ? !result : 1 - result;
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
  return (text, args, context = {}) => {
    const call = checkedCall(name, spec, text, args);
    if (isPointFunctionError(call)) return call;
    try {
      return finished(name, spec.evaluate(text, call.args, context), negate);
    } catch (error) {
      return { error: `${name}: ${errorMessageOf(error)}` };
    }
  };
}

/** bindPointFunction for a spec that answers asynchronously: the promise never rejects. */
export function bindAsyncPointFunction<Args>(
  name: string,
  spec: AsyncPointFunctionSpec<Args>,
  negate: boolean,
): AsyncPointFunction {
  return async (text, args, context = {}) => {
    const call = checkedCall(name, spec, text, args);
    if (isPointFunctionError(call)) return call;
    try {
      return finished(name, await spec.evaluate(text, call.args, context), negate);
    } catch (error) {
      return { error: `${name}: ${errorMessageOf(error)}` };
    }
  };
}
