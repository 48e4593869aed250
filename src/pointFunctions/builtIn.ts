import {
  type AsyncPointFunction,
  type AsyncPointFunctionDefinition,
  type AsyncPointFunctionSpec,
  argsProblem,
  bindAsyncPointFunction,
  bindPointFunction,
  type PointFunction,
  type PointFunctionDefinition,
  type PointFunctionSpec,
} from "./contract.js";
import { EMBEDDING_POINT_FUNCTIONS } from "./embedding.js";
import { PATTERN_POINT_FUNCTIONS } from "./pattern.js";
import { REFERENCE_POINT_FUNCTIONS } from "./reference.js";
import { STRUCTURE_POINT_FUNCTIONS } from "./structure.js";
import { TEXT_POINT_FUNCTIONS } from "./text.js";

const BASE_SPECS = {
  ...TEXT_POINT_FUNCTIONS,
  ...PATTERN_POINT_FUNCTIONS,
  ...STRUCTURE_POINT_FUNCTIONS,
  ...REFERENCE_POINT_FUNCTIONS,
};
const MODEL_SPECS = EMBEDDING_POINT_FUNCTIONS;

export type PointFunctionName = keyof typeof BASE_SPECS | `not_${keyof typeof BASE_SPECS}`;
export type ModelPointFunctionName = keyof typeof MODEL_SPECS | `not_${keyof typeof MODEL_SPECS}`;

function definitionsOf<
  Spec extends PointFunctionSpec<unknown> | AsyncPointFunctionSpec<unknown>,
  Fn,
>(
  specs: Readonly<Record<string, Spec>>,
  bind: (name: string, spec: Spec, negate: boolean) => Fn,
): Readonly<Record<string, { fn: Fn; argsSchema: Spec["argsSchema"]; description: string }>> {
  const entries = Object.entries(specs).flatMap(([name, spec]) =>
    [false, true].map((negate) => {
      const [bound, description] = negate
        ? [`not_${name}`, `Negation of: ${spec.description}`]
        : [name, spec.description];
      const fn = bind(bound, spec, negate);
      return [bound, { fn, argsSchema: spec.argsSchema, description }] as const;
    }),
  );
  return Object.freeze(Object.fromEntries(entries));
}

/** The built-in point functions, each with its `not_` variant. */
export const POINT_FUNCTIONS = definitionsOf<PointFunctionSpec<unknown>, PointFunction>(
  BASE_SPECS,
  bindPointFunction,
) as Readonly<Record<PointFunctionName, PointFunctionDefinition>>;

/** The built-in point functions that ask the model server; `fn` needs a context with an embedder. */
export const MODEL_POINT_FUNCTIONS = definitionsOf<
  AsyncPointFunctionSpec<unknown>,
  AsyncPointFunction
>(MODEL_SPECS, bindAsyncPointFunction) as Readonly<
  Record<ModelPointFunctionName, AsyncPointFunctionDefinition>
>;

export function isPointFunctionName(name: string): name is PointFunctionName {
  return Object.hasOwn(POINT_FUNCTIONS, name);
}

export function isModelPointFunctionName(name: string): name is ModelPointFunctionName {
  return Object.hasOwn(MODEL_POINT_FUNCTIONS, name);
}

export function isBuiltInPointFunctionName(
  name: string,
): name is PointFunctionName | ModelPointFunctionName {
  return isPointFunctionName(name) || isModelPointFunctionName(name);
}

/** The message the function would return for these args, for catalog validation at load time. */
export function checkPointFunctionArgs(name: string, args: unknown): string | undefined {
  if (!isBuiltInPointFunctionName(name)) {
    const known = [...Object.keys(POINT_FUNCTIONS), ...Object.keys(MODEL_POINT_FUNCTIONS)];
    return `unknown point function '${name}'; known: ${known.join(", ")}`;
  }
  const specs: Record<string, PointFunctionSpec<unknown> | AsyncPointFunctionSpec<unknown>> = {
    ...BASE_SPECS,
    ...MODEL_SPECS,
  };
  return argsProblem(name, specs[name.replace(/^not_/, "")]!, args);
}
