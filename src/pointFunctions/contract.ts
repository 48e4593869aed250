import type { z } from "zod";

/** A point function answers a boolean, a 0–1 fraction, or `{ error }`: it never throws. */
export type PointFunctionError = { error: string };
export type PointFunctionResult = boolean | number | PointFunctionError;

export interface TextEmbedder {
  embed(texts: readonly string[], model?: string): Promise<number[][]>;
}

export interface PointFunctionContext {
  /** A LangSmith example's reference outputs, a blueprint prompt's `ideal`. */
  reference?: string;
  embedder?: TextEmbedder;
}

export type PointFunction<Result = PointFunctionResult> = (
  text: string,
  args: unknown,
  context?: PointFunctionContext,
) => Result;

/** Resolves, never rejects. */
export type AsyncPointFunction = PointFunction<Promise<PointFunctionResult>>;

export interface PointFunctionDefinition<Fn = PointFunction> {
  fn: Fn;
  argsSchema: z.ZodType;
  description: string;
}

export type AsyncPointFunctionDefinition = PointFunctionDefinition<AsyncPointFunction>;

export interface PointFunctionSpec<Args, Result = PointFunctionResult> {
  argsSchema: z.ZodType<Args>;
  expects: string;
  description: string;
  /** A method, so specs with different args types can be listed together. */
  evaluate(text: string, args: Args, context: PointFunctionContext): Result;
}

export type AsyncPointFunctionSpec<Args> = PointFunctionSpec<Args, Promise<PointFunctionResult>>;

export function isPointFunctionError(value: unknown): value is PointFunctionError {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { error?: unknown }).error === "string"
  );
}

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

export function argsProblem<Args>(
  name: string,
  spec: Pick<PointFunctionSpec<Args>, "argsSchema" | "expects">,
  args: unknown,
): string | undefined {
  const call = checkedCall(name, spec, "", args);
  return isPointFunctionError(call) ? call.error : undefined;
}

/** "item 3", "item 2 of item 2", `"word"`: where in the args a part sits, innermost first. */
function partName(path: readonly PropertyKey[]): string {
  return path
    .map((key) => (typeof key === "number" ? `item ${key + 1}` : JSON.stringify(String(key))))
    .reverse()
    .join(" of ");
}

function partAt(args: unknown, path: readonly PropertyKey[]): unknown {
  let value = args;
  for (const key of path) {
    if (typeof value !== "object" || value === null || typeof key === "symbol") return undefined;
    value = Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
  }
  return value;
}

/** The schema's own explanation, else which item (or key) of the args is wrong, and how. */
function argsReason(args: unknown, error: z.ZodError): string | undefined {
  const explained = error.issues.find((issue) => issue.code === "custom");
  const issue = explained ?? error.issues[0];
  if (issue === undefined) return undefined;
  const where = issue.path.length === 0 ? undefined : partName(issue.path);
  if (explained !== undefined) {
    return where === undefined ? explained.message : `${where}: ${explained.message}`;
  }
  if (where === undefined) return undefined;
  const part = partAt(args, issue.path);
  if (part === undefined) return `${where} is missing`;
  if (part === "") return `${where} is empty`;
  return `${where} is ${describeValue(part)}${outOfRange(issue)}`;
}

/** ", more than 1" for a number over its bound; "" for other issues. */
function outOfRange(issue: z.core.$ZodIssue): string {
  if (issue.code === "too_big" && issue.origin === "number") {
    return `, ${issue.inclusive === false ? "not less than" : "more than"} ${String(issue.maximum)}`;
  }
  if (issue.code === "too_small" && issue.origin === "number") {
    return `, ${issue.inclusive === false ? "not more than" : "less than"} ${String(issue.minimum)}`;
  }
  return "";
}

export function errorMessageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

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
  if (parsed.success) return { args: parsed.data };
  // "name: expected …, got …", then which part is wrong when the schema tells it.
  const reason = argsReason(args, parsed.error);
  const why = reason === undefined ? "" : ` (${reason})`;
  return { error: `${name}: expected ${spec.expects}, got ${describeValue(args)}${why}` };
}

function finished(name: string, result: PointFunctionResult, negate: boolean): PointFunctionResult {
  if (isPointFunctionError(result)) return { error: `${name}: ${result.error}` };
  if (!negate) return result;
  return typeof result === "boolean" ? !result : 1 - result;
}

/** Binds a spec to a name: args validated, anything thrown an `{ error }`; `negate` inverts. */
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
