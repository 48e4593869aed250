import {
  type AsyncPointFunctionDefinition,
  type AsyncPointFunctionSpec,
  argsProblem,
  bindAsyncPointFunction,
  bindPointFunction,
  type PointFunctionDefinition,
  type PointFunctionSpec,
} from "./contract.js";
import { EMBEDDING_POINT_FUNCTIONS } from "./embedding.js";
import { PATTERN_POINT_FUNCTIONS } from "./pattern.js";
import { REFERENCE_POINT_FUNCTIONS } from "./reference.js";
import { STRUCTURE_POINT_FUNCTIONS } from "./structure.js";
import { TEXT_POINT_FUNCTIONS } from "./text.js";

/**
 * The built-in point functions (`fn` + `fnArgs` in a points list), each with a `not_` variant that
 * negates it: a boolean is inverted, a 0–1 result r becomes 1 − r, an error stays an error.
 * POINT_FUNCTIONS answer at once; MODEL_POINT_FUNCTIONS ask the model server and answer a promise.
 */

const BASE_SPECS: Readonly<Record<string, PointFunctionSpec<unknown>>> = {
  ...TEXT_POINT_FUNCTIONS,
  ...PATTERN_POINT_FUNCTIONS,
  ...STRUCTURE_POINT_FUNCTIONS,
  ...REFERENCE_POINT_FUNCTIONS,
};

const MODEL_SPECS: Readonly<Record<string, AsyncPointFunctionSpec<unknown>>> = {
  ...EMBEDDING_POINT_FUNCTIONS,
};

type BasePointFunctionName =
  | keyof typeof TEXT_POINT_FUNCTIONS
  | keyof typeof PATTERN_POINT_FUNCTIONS
  | keyof typeof STRUCTURE_POINT_FUNCTIONS
  | keyof typeof REFERENCE_POINT_FUNCTIONS;
export type PointFunctionName = BasePointFunctionName | `not_${BasePointFunctionName}`;

type BaseModelPointFunctionName = keyof typeof EMBEDDING_POINT_FUNCTIONS;
export type ModelPointFunctionName =
  | BaseModelPointFunctionName
  | `not_${BaseModelPointFunctionName}`;

/** Every name (base and `not_`) with the spec it is built from. */
function withNegations<Spec>(specs: Readonly<Record<string, Spec>>): ReadonlyMap<string, Spec> {
  return new Map(
    Object.entries(specs).flatMap(([name, spec]) => [
      [name, spec],
      [`not_${name}`, spec],
    ]),
  );
}

const SPECS_BY_NAME = withNegations(BASE_SPECS);
const MODEL_SPECS_BY_NAME = withNegations(MODEL_SPECS);

function isNegation(name: string, specs: Readonly<Record<string, unknown>>): boolean {
  return name.startsWith("not_") && !Object.hasOwn(specs, name);
}

function definitionFor(name: string, spec: PointFunctionSpec<unknown>): PointFunctionDefinition {
  const negate = isNegation(name, BASE_SPECS);
  return {
    fn: bindPointFunction(name, spec, negate),
    argsSchema: spec.argsSchema,
    description: negate ? `Negation of: ${spec.description}` : spec.description,
  };
}

function modelDefinitionFor(
  name: string,
  spec: AsyncPointFunctionSpec<unknown>,
): AsyncPointFunctionDefinition {
  const negate = isNegation(name, MODEL_SPECS);
  return {
    fn: bindAsyncPointFunction(name, spec, negate),
    argsSchema: spec.argsSchema,
    description: negate ? `Negation of: ${spec.description}` : spec.description,
  };
}

/** name → { fn, argsSchema, description } for every built-in point function that answers at once. */
export const POINT_FUNCTIONS: Readonly<Record<PointFunctionName, PointFunctionDefinition>> =
  Object.freeze(
    Object.fromEntries(
      [...SPECS_BY_NAME].map(([name, spec]) => [name, definitionFor(name, spec)] as const),
    ) as Record<PointFunctionName, PointFunctionDefinition>,
  );

/**
 * name → { fn, argsSchema, description } for the built-in point functions that ask the model
 * server (embeddings); `fn` needs a context with an embedder, as FunctionRegistry gives it.
 */
export const MODEL_POINT_FUNCTIONS: Readonly<
  Record<ModelPointFunctionName, AsyncPointFunctionDefinition>
> = Object.freeze(
  Object.fromEntries(
    [...MODEL_SPECS_BY_NAME].map(([name, spec]) => [name, modelDefinitionFor(name, spec)] as const),
  ) as Record<ModelPointFunctionName, AsyncPointFunctionDefinition>,
);

/** Whether `name` is a built-in point function that answers at once (a key of POINT_FUNCTIONS). */
export function isPointFunctionName(name: string): name is PointFunctionName {
  return SPECS_BY_NAME.has(name);
}

/** Whether `name` is a built-in point function that asks the model server. */
export function isModelPointFunctionName(name: string): name is ModelPointFunctionName {
  return MODEL_SPECS_BY_NAME.has(name);
}

/** Whether `name` is any built-in point function. */
export function isBuiltInPointFunctionName(
  name: string,
): name is PointFunctionName | ModelPointFunctionName {
  return isPointFunctionName(name) || isModelPointFunctionName(name);
}

/**
 * Why `args` do not fit the point function `name` (the same message the function would return
 * as its error), or undefined when they fit. For catalog validation at load time.
 */
export function checkPointFunctionArgs(name: string, args: unknown): string | undefined {
  const spec = SPECS_BY_NAME.get(name) ?? MODEL_SPECS_BY_NAME.get(name);
  if (spec === undefined) {
    const known = [...SPECS_BY_NAME.keys(), ...MODEL_SPECS_BY_NAME.keys()];
    return `unknown point function '${name}'; known: ${known.join(", ")}`;
  }
  return argsProblem(name, spec, args);
}
