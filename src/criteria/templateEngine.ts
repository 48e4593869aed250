/**
 * LiquidJS set up for untrusted prompt templates: no function calls, own properties only, known
 * filters only, no file or other template reachable, every size, step, memory and time bounded.
 * Jinja's common forms are kept where Liquid can do them without a path to code.
 */
import {
  AssignTag,
  CaptureTag,
  type Context,
  Drop,
  defaultOperators,
  type Emitter,
  Liquid,
  toValue,
} from "liquidjs";
import { JINJA_FILTER_ALIASES, JINJA_FILTERS, WITHHELD_FILTERS } from "./templateFilters.js";
import { guardedOperators, guardFilters } from "./templateGuards.js";
import { printedForm, TemplateLimitError, textOf } from "./templateText.js";

export { printAs } from "./templateText.js";

export const MAX_TEMPLATE_CHARS = 100_000;
/** The most characters a render (or one `capture`) may write. */
export const MAX_RENDERED_CHARS = 200_000;
/** A loop counts each pass. */
export const MAX_RENDER_STEPS = 250_000;
/** Characters of strings built plus items of lists built. */
export const TEMPLATE_MEMORY_UNITS = 5_000_000;
export const RENDER_TIME_LIMIT_MS = 1_000;

const NO_FILES = "templates cannot read other templates or files";
const REFUSED_TAGS: ReadonlyMap<string, string> = new Map([
  ...["include", "render", "layout", "import", "from", "extends"].map(
    (tag) => [tag, NO_FILES] as const,
  ),
  ["block", "a prompt template has no layout to fill"],
]);

const LOOP_FIELDS: ReadonlyMap<string, string> = new Map([
  ["index", "index"],
  ["index0", "index0"],
  ["revindex", "rindex"],
  ["revindex0", "rindex0"],
  ["first", "first"],
  ["last", "last"],
  ["length", "length"],
]);

function printedText(this: { context: Context }, value: unknown): string {
  const text = printedForm(value) ?? textOf(value);
  this.context.memoryLimit.use(text.length);
  return text;
}

export class BoundedEmitter implements Emitter {
  buffer = "";
  constructor(
    private readonly limit: number,
    private readonly memory: Pick<Context["memoryLimit"], "use">,
  ) {}

  write(value: unknown): void {
    const room = this.limit - this.buffer.length;
    const refuse = () =>
      new TemplateLimitError(`the rendered text would have more than ${this.limit} characters`);
    let text: string;
    try {
      text = textOf(value, room);
    } catch {
      throw refuse();
    }
    if (text.length > room) throw refuse();
    this.memory.use(text.length);
    this.buffer += text;
  }
}

function refusedTag(name: string, reason: string): Parameters<Liquid["registerTag"]>[1] {
  return {
    parse() {
      throw new Error(`'${name}' is not allowed in a prompt template: ${reason}`);
    },
    render() {
      throw new Error(`'${name}' is not allowed in a prompt template: ${reason}`);
    },
  };
}

class BoundedCaptureTag extends CaptureTag {
  override *render(ctx: Context): Generator<unknown, void, string> {
    const emitter = new BoundedEmitter(MAX_RENDERED_CHARS, ctx.memoryLimit);
    yield this.liquid.renderer.renderTemplates(this.templates, ctx, emitter);
    ctx.bottom()[this.variable] = emitter.buffer;
  }
}

class JinjaLoopDrop extends Drop {
  override liquidMethodMissing(key: string | number, context?: Context): unknown {
    const field = typeof key === "string" ? LOOP_FIELDS.get(key) : undefined;
    if (field === undefined || context === undefined) return undefined;
    return context.getSync(["forloop", field]);
  }
}

/** Liquid reads 'now' and 'today' as the clock's date: a prompt would change with the time. */
function refuseClockDates(liquid: Liquid): void {
  for (const name of Object.keys(liquid.filters).filter((n) => n.startsWith("date"))) {
    const filter = liquid.filters[name];
    if (typeof filter !== "function") continue;
    liquid.registerFilter(name, function (this: ThisParameterType<typeof filter>, value, ...args) {
      const plain = toValue(value);
      if (typeof plain === "string" && /^\s*(now|today)\s*$/i.test(plain)) {
        throw new Error(
          `'${plain.trim()}' | ${name} is the clock's date, which would change the prompt with the time: give the date in the content`,
        );
      }
      return filter.call(this, value, ...args);
    });
  }
}

function registerFilters(liquid: Liquid): void {
  for (const name of WITHHELD_FILTERS) liquid.unregisterFilter(name);
  refuseClockDates(liquid);
  for (const [jinja, liquidName] of JINJA_FILTER_ALIASES) {
    const filter = liquid.filters[liquidName];
    if (filter === undefined) throw new Error(`internal: Liquid has no filter ${liquidName}`);
    liquid.registerFilter(jinja, filter);
  }
  for (const [name, filter] of Object.entries(JINJA_FILTERS)) liquid.registerFilter(name, filter);
  guardFilters(liquid.filters);
}

function createEngine(): Liquid {
  const liquid = new Liquid({
    ownPropertyOnly: true,
    strictFilters: true,
    strictVariables: false,
    // Jinja's truthiness is closer to JavaScript's than to Liquid's ("" and 0 are false).
    jsTruthy: true,
    // `{% if (items | length) > 1 %}`: a filter inside a condition needs parentheses.
    groupedExpressions: true,
    templates: {},
    relativeReference: false,
    dynamicPartials: false,
    cache: false,
    parseLimit: MAX_TEMPLATE_CHARS,
    renderLimit: RENDER_TIME_LIMIT_MS,
    memoryLimit: TEMPLATE_MEMORY_UNITS,
    outputEscape: printedText,
    operators: guardedOperators(defaultOperators),
    globals: { loop: new JinjaLoopDrop() },
  });
  for (const [name, reason] of REFUSED_TAGS) liquid.registerTag(name, refusedTag(name, reason));
  liquid.registerTag("capture", BoundedCaptureTag);
  liquid.registerTag("set", AssignTag);
  registerFilters(liquid);
  return liquid;
}

export const PROMPT_TEMPLATE_ENGINE: Liquid = createEngine();
