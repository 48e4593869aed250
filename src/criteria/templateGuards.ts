/**
 * Every filter and comparison measures the lists it is given before it may print them; a
 * render's context reads only what a value offers a template (never inherited members, nor a
 * drop's machinery).
 */
import {
  Context,
  Drop,
  type defaultOperators,
  type FilterImplOptions,
  type Operators,
  toValue,
} from "liquidjs";
import { checkPrintable, MAX_TEMPLATE_TEXT_CHARS, TemplateLimitError } from "./templateText.js";

type FilterHandler = Extract<FilterImplOptions, (...args: never[]) => unknown>;
type FilterCall = ThisParameterType<FilterHandler>;

const READ_ONLY_FILTERS: ReadonlySet<string> = new Set([
  "size",
  "first",
  "last",
  "length",
  "count",
]);

/** JavaScript compares a list by its text. */
const TEXT_COMPARISONS = [">", "<", ">=", "<=", "contains"] as const;

function checkResult(result: unknown): unknown {
  if (typeof result === "string" && result.length > MAX_TEMPLATE_TEXT_CHARS) {
    throw new TemplateLimitError(
      `a filter built text of more than ${MAX_TEMPLATE_TEXT_CHARS.toLocaleString("en-US")} characters (MAX_TEMPLATE_TEXT_CHARS)`,
    );
  }
  return result;
}

function guardedHandler(name: string, handler: FilterHandler): FilterHandler {
  if (READ_ONLY_FILTERS.has(name)) return handler;
  return function* guarded(this: FilterCall, value: unknown, ...args: unknown[]) {
    checkPrintable(value);
    for (const arg of args) checkPrintable(arg);
    return checkResult(yield handler.call(this, value, ...args));
  };
}

export function guardFilters(filters: Record<string, FilterImplOptions>): void {
  for (const [name, filter] of Object.entries(filters)) {
    filters[name] =
      typeof filter === "function"
        ? guardedHandler(name, filter)
        : { ...filter, handler: guardedHandler(name, filter.handler) };
  }
}

export function guardedOperators(operators: typeof defaultOperators): Operators {
  const guarded: Operators = { ...operators };
  for (const name of TEXT_COMPARISONS) {
    const compare = operators[name];
    if (compare === undefined) continue;
    guarded[name] = (lhs: unknown, rhs: unknown, ctx: Context) => {
      checkPrintable(toValue(lhs));
      checkPrintable(toValue(rhs));
      return compare(lhs, rhs, ctx);
    };
  }
  return guarded;
}

const DROP_MACHINERY: ReadonlySet<string> = new Set([
  "constructor",
  "liquidMethodMissing",
  "toLiquid",
  "valueOf",
  "toString",
  "next",
  "equals",
  "gt",
  "geq",
  "lt",
  "leq",
]);

function dropOffers(drop: Drop, key: string | number): boolean {
  if (Object.hasOwn(drop, key)) return true;
  if (typeof key !== "string" || DROP_MACHINERY.has(key)) return false;
  for (
    let proto: unknown = Object.getPrototypeOf(drop);
    proto !== null && proto !== Drop.prototype && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    if (Object.hasOwn(proto as object, key)) return true;
  }
  return false;
}

export class PromptTemplateContext extends Context {
  override readProperty(obj: Parameters<Context["readProperty"]>[0], key: unknown): unknown {
    const name = toValue(key);
    if (typeof name !== "string" && typeof name !== "number") return undefined;
    if (obj instanceof Drop && !dropOffers(obj, name)) {
      return obj.liquidMethodMissing(name, this);
    }
    return super.readProperty(obj, name);
  }

  override spawn(scope: object = {}): Context {
    return new PromptTemplateContext(
      scope,
      this.opts,
      {
        sync: this.sync,
        globals: this.globals,
        strictVariables: this.strictVariables,
        ownPropertyOnly: this.ownPropertyOnly,
      },
      { renderLimit: this.renderLimit, memoryLimit: this.memoryLimit, liquid: this.liquid },
    );
  }
}
