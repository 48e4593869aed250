/**
 * What stands between a prompt template and the rest of the process while it renders:
 * - every filter and every comparison measures the lists it is given before it may turn them into
 *   text (templateText.ts), so no filter, `string`/`join`/`title`/`upcase` included, builds a
 *   string larger than MAX_TEMPLATE_TEXT_CHARS; and a string a filter returns is checked again;
 * - a render's context reads only what a value offers a template: own properties, and on a drop
 *   (`loop`, `forloop`) only its own fields and getters — never what every object inherits
 *   (`hasOwnProperty`, `constructor`, `valueOf`) nor a drop's machinery (`next`, `equals`);
 *   a property name that is a list is no name (it is never turned into text to look it up).
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

/** Filters that read a list without printing it: their inputs need no measure. */
const READ_ONLY_FILTERS: ReadonlySet<string> = new Set([
  "size",
  "first",
  "last",
  "length",
  "count",
]);

/** Comparisons that may turn a list into text (JavaScript compares a list by its text). */
const TEXT_COMPARISONS = [">", "<", ">=", "<=", "contains"] as const;

function checkResult(result: unknown): unknown {
  if (typeof result === "string" && result.length > MAX_TEMPLATE_TEXT_CHARS) {
    throw new TemplateLimitError(
      `a filter built text of more than ${MAX_TEMPLATE_TEXT_CHARS.toLocaleString("en-US")} characters (MAX_TEMPLATE_TEXT_CHARS)`,
    );
  }
  return result;
}

/** The filter, its inputs measured first and its text checked after. */
function guardedHandler(name: string, handler: FilterHandler): FilterHandler {
  if (READ_ONLY_FILTERS.has(name)) return handler;
  return function* guarded(this: FilterCall, value: unknown, ...args: unknown[]) {
    checkPrintable(value);
    for (const arg of args) checkPrintable(arg);
    return checkResult(yield handler.call(this, value, ...args));
  };
}

/** Every filter of `filters` guarded (a raw filter stays raw). */
export function guardFilters(filters: Record<string, FilterImplOptions>): void {
  for (const [name, filter] of Object.entries(filters)) {
    filters[name] =
      typeof filter === "function"
        ? guardedHandler(name, filter)
        : { ...filter, handler: guardedHandler(name, filter.handler) };
  }
}

/** Liquid's operators, the comparisons measuring their operands first. */
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

/** What every object inherits, and what a drop has for Liquid rather than for a template. */
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

/** Whether a template may read `key` of `drop`: its own field, or a getter its class defines. */
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

/** A render's context: Liquid's, reading only what a value offers a template (module comment). */
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
