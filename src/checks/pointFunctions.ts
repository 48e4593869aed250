import { PATTERN_POINT_FUNCTIONS } from "./patternPointFunctions.js";
import {
  argsProblem,
  bindPointFunction,
  type PointFunctionDefinition,
  type PointFunctionSpec,
} from "./pointFunction.js";
import { STRUCTURE_POINT_FUNCTIONS } from "./structurePointFunctions.js";
import { TEXT_POINT_FUNCTIONS } from "./textPointFunctions.js";

/**
 * The built-in point functions (`fn` + `fnArgs` in a points list), each with a `not_` variant that
 * negates it: a boolean is inverted, a 0–1 result r becomes 1 − r, an error stays an error.
 */

const BASE_SPECS: Readonly<Record<string, PointFunctionSpec<unknown>>> = {
  ...TEXT_POINT_FUNCTIONS,
  ...PATTERN_POINT_FUNCTIONS,
  ...STRUCTURE_POINT_FUNCTIONS,
};

type BasePointFunctionName =
  | keyof typeof TEXT_POINT_FUNCTIONS
  | keyof typeof PATTERN_POINT_FUNCTIONS
  | keyof typeof STRUCTURE_POINT_FUNCTIONS;
export type PointFunctionName = BasePointFunctionName | `not_${BasePointFunctionName}`;

/** Every name (base and `not_`) with the spec it is built from. */
const SPECS_BY_NAME: ReadonlyMap<string, PointFunctionSpec<unknown>> = new Map(
  Object.entries(BASE_SPECS).flatMap(([name, spec]) => [
    [name, spec],
    [`not_${name}`, spec],
  ]),
);

function definitionFor(name: string, spec: PointFunctionSpec<unknown>): PointFunctionDefinition {
  const negate = name.startsWith("not_") && !Object.hasOwn(BASE_SPECS, name);
  return {
    fn: bindPointFunction(name, spec, negate),
    argsSchema: spec.argsSchema,
    description: negate ? `Negation of: ${spec.description}` : spec.description,
  };
}

/** name → { fn, argsSchema, description } for every built-in point function. */
export const POINT_FUNCTIONS: Readonly<Record<PointFunctionName, PointFunctionDefinition>> =
  Object.freeze(
    Object.fromEntries(
      [...SPECS_BY_NAME].map(([name, spec]) => [name, definitionFor(name, spec)] as const),
    ) as Record<PointFunctionName, PointFunctionDefinition>,
  );

export function isPointFunctionName(name: string): name is PointFunctionName {
  return SPECS_BY_NAME.has(name);
}

/**
 * Why `args` do not fit the point function `name` (the same message the function would return
 * as its error), or undefined when they fit. For catalog validation at load time.
 */
export function checkPointFunctionArgs(name: string, args: unknown): string | undefined {
  const spec = SPECS_BY_NAME.get(name);
  if (spec === undefined) {
    return `unknown point function '${name}'; known: ${[...SPECS_BY_NAME.keys()].join(", ")}`;
  }
  return argsProblem(name, spec, args);
}
