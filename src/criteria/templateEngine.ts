/**
 * LiquidJS set up for untrusted prompt templates: no function calls, own properties only, known
 * filters only, no file or other template reachable, every size, step, memory and time bounded.
 * Jinja's common forms are kept where Liquid can do them without a path to code.
 */
import {
  AssignTag,
  CaptureTag,
  Context,
  Drop,
  defaultOperators,
  type Emitter,
  type FilterImplOptions,
  Liquid,
  type Operators,
  Parser,
  type Template,
  Tokenizer,
  type TopLevelToken,
  TypeGuards,
  toValue,
} from "liquidjs";

/**
 * How much text a template's value would print as, found before it is built: a list of 1,500
 * references to one 100 kB string costs little memory but prints as gigabytes. Each list is
 * measured once, and counting stops at the bound.
 */

export const MAX_TEMPLATE_TEXT_CHARS = 1_000_000;
export const MAX_LIST_NESTING = 64;

const PRINTED_FORMS = new WeakMap<object, string>();
/** Lists never change: each is measured once. */
const MEASURED = new WeakMap<object, { length: number; depth: number }>();

const OBJECT_TEXT = "[object Object]";

/** Registers how a value of a template's scope is printed by `{{ value }}`. */
export function printAs<T extends object>(value: T, text: string): T {
  PRINTED_FORMS.set(value, text);
  return value;
}

export function printedForm(value: unknown): string | undefined {
  return typeof value === "object" && value !== null ? PRINTED_FORMS.get(value) : undefined;
}

export class TemplateLimitError extends Error {
  override readonly name = "TemplateLimitError";
}

function overBound(limit: number): Error {
  return new TemplateLimitError(
    `a value of the template would print as more than ${limit.toLocaleString("en-US")} characters (the bound on text a template builds, MAX_TEMPLATE_TEXT_CHARS)`,
  );
}

/** One more character per list item: an upper bound of Liquid's text and of JavaScript's. */
function measure(value: unknown, limit: number): { length: number; depth: number } {
  const plain = toValue(value);
  if (typeof plain === "string") return { length: plain.length, depth: 0 };
  if (plain === null || plain === undefined) return { length: 0, depth: 0 };
  if (typeof plain !== "object") return { length: String(plain).length, depth: 0 };
  if (!Array.isArray(plain)) {
    return { length: (PRINTED_FORMS.get(plain) ?? OBJECT_TEXT).length, depth: 0 };
  }
  const known = MEASURED.get(plain);
  if (known !== undefined) return known;
  let length = 0;
  let depth = 1;
  for (const item of plain) {
    const inner = measure(item, limit - length);
    length += 1 + inner.length;
    depth = Math.max(depth, inner.depth + 1);
    if (depth > MAX_LIST_NESTING) {
      throw new TemplateLimitError(`the template nests lists more than ${MAX_LIST_NESTING} deep`);
    }
    if (length > limit) return { length: Number.POSITIVE_INFINITY, depth };
  }
  const measured = { length, depth };
  MEASURED.set(plain, measured);
  return measured;
}

/** A string is its length whatever the bound: it exists already. */
export function checkedTextLength(value: unknown, limit = MAX_TEMPLATE_TEXT_CHARS): number {
  const { length } = measure(value, limit);
  if (length > limit) throw overBound(limit);
  return length;
}

export function checkPrintable(value: unknown): void {
  if (typeof value === "object" && value !== null) checkedTextLength(value);
}

export function textOf(value: unknown, limit = MAX_TEMPLATE_TEXT_CHARS): string {
  const plain = toValue(value);
  if (typeof plain === "string") return plain;
  checkedTextLength(plain, limit);
  return joinedText(plain);
}

function joinedText(plain: unknown): string {
  if (typeof plain === "string") return plain;
  if (plain === null || plain === undefined) return "";
  if (Array.isArray(plain)) return plain.map((item) => joinedText(toValue(item))).join("");
  return String(plain);
}

/** Jinja's filter names for prompt templates: Liquid's filter where it has one, else a plain function. */

type FilterHandler = Extract<FilterImplOptions, (...args: never[]) => unknown>;
type FilterCall = ThisParameterType<FilterHandler>;

export const JINJA_FILTER_ALIASES: ReadonlyMap<string, string> = new Map([
  ["upper", "upcase"],
  ["lower", "downcase"],
  ["length", "size"],
  ["count", "size"],
  ["trim", "strip"],
  ["unique", "uniq"],
  ["striptags", "strip_html"],
  ["tojson", "json"],
  ["e", "escape"],
  ["d", "default"],
  ["wordcount", "number_of_words"],
]);

/** `*_exp` filters parse content as template code; `sample` would make a prompt random. */
export const WITHHELD_FILTERS: readonly string[] = [
  "where_exp",
  "reject_exp",
  "group_by_exp",
  "has_exp",
  "find_exp",
  "find_index_exp",
  "sample",
];

function charged(call: FilterCall, text: string): string {
  call.context.memoryLimit.use(text.length);
  return text;
}

function numberOf(value: unknown, fallback: unknown): number {
  const plain = toValue(value);
  const parsed = typeof plain === "number" ? plain : Number.parseFloat(textOf(plain));
  if (Number.isFinite(parsed)) return parsed;
  const other = typeof fallback === "number" ? fallback : Number(fallback);
  return Number.isFinite(other) ? other : 0;
}

function numbersIn(value: unknown): number[] {
  const plain = toValue(value);
  if (!Array.isArray(plain)) return [];
  return plain.map((item) => toValue(item)).filter((n): n is number => typeof n === "number");
}

/** The number of a list that `replaces` every other (the first of equals), none for no number. */
function extreme(value: unknown, replaces: (a: number, b: number) => boolean): number | undefined {
  return numbersIn(value).reduce<number | undefined>(
    (a, b) => (a === undefined || replaces(a, b) ? b : a),
    undefined,
  );
}

export const JINJA_FILTERS: Readonly<Record<string, FilterHandler>> = {
  title(this: FilterCall, value: unknown): string {
    const text = charged(this, textOf(value));
    return text.toLowerCase().replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_, before, letter) => {
      return `${before}${letter.toUpperCase()}`;
    });
  },
  int(value: unknown, fallback: unknown = 0): number {
    return Math.trunc(numberOf(value, fallback));
  },
  float(value: unknown, fallback: unknown = 0): number {
    return numberOf(value, fallback);
  },
  string(this: FilterCall, value: unknown): string {
    return charged(this, textOf(value));
  },
  list(this: FilterCall, value: unknown): unknown[] {
    const plain = toValue(value);
    if (Array.isArray(plain)) return plain;
    if (typeof plain !== "string") return [plain];
    this.context.memoryLimit.use(plain.length);
    return Array.from(plain);
  },
  min: (value: unknown) => extreme(value, (a, b) => b < a),
  max: (value: unknown) => extreme(value, (a, b) => b > a),
  safe(value: unknown): unknown {
    return value;
  },
};

/**
 * Every filter and comparison measures the lists it is given before it may print them; a
 * render's context reads only what a value offers a template (never inherited members, nor a
 * drop's machinery).
 */

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

/**
 * Parsing a prompt template with nothing left unread: Liquid ignores what it does not understand
 * of a tag, so `{{ range(3) }}` or `{{ a if b else c }}` would silently render something else.
 */

type DelimitedToken = Extract<TopLevelToken, { contentRange: [number, number] }>;

type ArgumentReader = (tokenizer: Tokenizer) => void;

const LOOP_OPTIONS = new Set(["limit", "offset", "reversed", "cols"]);

const NOT_LIQUID =
  "a template has no function calls and no Python-style expressions (a filter is written `value | name: argument`)";

/** Values and operators must alternate: `a if b else c` or `f (x)` fails at its second value. */
const readValue: ArgumentReader = (tokenizer) => {
  let expectValue = true;
  for (const token of tokenizer.readExpressionTokens()) {
    const operator = TypeGuards.isOperatorToken(token) ? token.operator : undefined;
    if (expectValue && operator === "not") continue;
    if (expectValue === (operator !== undefined)) {
      throw tokenizer.error(
        `unexpected ${JSON.stringify(token.getText())}: ${NOT_LIQUID}`,
        token.begin,
      );
    }
    expectValue = !expectValue;
  }
  tokenizer.readFilters();
};

const readLoop: ArgumentReader = (tokenizer) => {
  tokenizer.readIdentifier();
  tokenizer.readIdentifier();
  tokenizer.readValue();
  for (const option of tokenizer.readHashes()) {
    const name = option.name.content;
    if (!LOOP_OPTIONS.has(name)) {
      throw tokenizer.error(
        `unexpected "${name}" in a for loop: a loop takes only limit, offset and reversed (no loop filter: put an {% if %} inside the loop)`,
        option.begin,
      );
    }
  }
};

const readAssignment: ArgumentReader = (tokenizer) => {
  tokenizer.readIdentifier();
  tokenizer.skipBlank();
  if (tokenizer.peek() === "=") tokenizer.advance();
  readValue(tokenizer);
};

const TAG_ARGUMENTS: ReadonlyMap<string, ArgumentReader> = new Map([
  ["if", readValue],
  ["elsif", readValue],
  ["unless", readValue],
  ["echo", readValue],
  ["for", readLoop],
  ["tablerow", readLoop],
  ["assign", readAssignment],
  ["set", readAssignment],
]);

function argumentsOf(token: DelimitedToken, liquid: Liquid): Tokenizer {
  const { operators, groupedExpressions } = liquid.options;
  const range = token.contentRange;
  const tokenizer = new Tokenizer(token.input, operators, token.file, range, groupedExpressions);
  if (TypeGuards.isTagToken(token)) tokenizer.readTagName();
  tokenizer.skipBlank();
  return tokenizer;
}

function checkNothingLeft(token: DelimitedToken, liquid: Liquid): void {
  const isTag = TypeGuards.isTagToken(token);
  const reader = isTag ? TAG_ARGUMENTS.get(token.name) : readValue;
  if (reader === undefined || !(isTag || TypeGuards.isOutputToken(token))) return;
  const tokenizer = argumentsOf(token, liquid);
  reader(tokenizer);
  tokenizer.skipBlank();
  if (tokenizer.end()) return;
  const rest = tokenizer.remaining().trim();
  throw tokenizer.error(`unexpected ${JSON.stringify(rest)}: ${NOT_LIQUID}`, tokenizer.p);
}

function checkTokens(tokens: readonly DelimitedToken[], liquid: Liquid): void {
  let inComment = false;
  for (const token of tokens) {
    const name = TypeGuards.isTagToken(token) ? token.name : undefined;
    if (name === "comment" || name === "endcomment") {
      inComment = name === "comment";
    } else if (!inComment && name === "liquid") {
      checkTokens(argumentsOf(token, liquid).readLiquidTagTokens(liquid.options), liquid);
    } else if (!inComment) {
      checkNothingLeft(token, liquid);
    }
  }
}

/** Jinja's comments, kept as their line breaks; a scan, linear however many `{#` are open. */
function withoutJinjaComments(text: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf("{#", from);
    const close = open < 0 ? -1 : text.indexOf("#}", open + 2);
    if (close < 0) return out + text.slice(from);
    out += text.slice(from, open) + text.slice(open, close).replace(/[^\n]/g, "");
    from = close + 2;
  }
}

export function parseTemplate(text: string, liquid: Liquid): Template[] {
  const { operators, groupedExpressions } = liquid.options;
  const source = withoutJinjaComments(text);
  const tokenizer = new Tokenizer(source, operators, undefined, undefined, groupedExpressions);
  const tokens = tokenizer.readTopLevelTokens(liquid.options);
  for (const token of tokens) {
    if (TypeGuards.isTagToken(token) && token.name === "elif") token.name = "elsif";
  }
  const delimited = tokens.filter((token) => !TypeGuards.isHTMLToken(token));
  const templates = new Parser(liquid).parseTokens(tokens);
  checkTokens(delimited, liquid);
  return templates;
}

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
