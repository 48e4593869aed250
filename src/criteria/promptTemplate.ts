/**
 * Prompt templates written by users (untrusted), compiled when a catalog is loaded and rendered
 * by the judge; neither throws for a bad template: each gives the problem with its line.
 */
import { createContext, Script } from "node:vm";
import { type Context, LiquidError, type Template, toValueSync } from "liquidjs";
import type { TemplateTimeBudget } from "./templateBudget.js";
import {
  BoundedEmitter,
  PROMPT_TEMPLATE_ENGINE as ENGINE,
  MAX_RENDER_STEPS,
  MAX_RENDERED_CHARS,
  MAX_TEMPLATE_CHARS,
  PromptTemplateContext,
  parseTemplate,
  RENDER_TIME_LIMIT_MS,
  TEMPLATE_MEMORY_UNITS,
  TemplateLimitError,
} from "./templateEngine.js";

export {
  createTemplateTimeBudget,
  TEMPLATE_TIME_BUDGET_MS,
  TemplateTimeBudget,
} from "./templateBudget.js";
export {
  MAX_RENDER_STEPS,
  MAX_RENDERED_CHARS,
  MAX_TEMPLATE_CHARS,
  MAX_TEMPLATE_TEXT_CHARS,
  printAs,
  RENDER_TIME_LIMIT_MS,
  TEMPLATE_MEMORY_UNITS,
} from "./templateEngine.js";

/** Liquid checks its own time limit only between render steps: this stops one long step too. */
export const RENDER_HARD_STOP_MS = 2_000;

/** The tags a prompt template may use (named in the error for any other). */
export const PROMPT_TEMPLATE_TAGS =
  "for, if/elif/else, unless, case/when, set/assign, capture, raw, comment, liquid, echo, " +
  "cycle, increment, decrement, tablerow, break, continue";

export interface PromptTemplateProblem {
  message: string;
  line?: number;
  column?: number;
  /** A bound on size, steps, memory or time was reached (not a mistake in the template). */
  limitReached?: true;
}

export interface CompiledPromptTemplate {
  readonly templates: Template[];
  /** The names it reads from its scope (`questions` for `{% for q in questions %}`). */
  readonly variables: ReadonlySet<string>;
}

function liquidDetail(error: LiquidError): string {
  const message = error.originalError?.message ?? error.message;
  return message.replace(/(, file:[^,]*)?, line:\d+, col:\d+$/, "");
}

function explained(message: string): string {
  const tag = /^tag "([^"]*)" not found$/.exec(message);
  if (tag !== null)
    return `unknown tag '${tag[1]}': prompt templates accept ${PROMPT_TEMPLATE_TAGS}`;
  const filter = /^undefined filter: (.*)$/.exec(message);
  if (filter !== null) return `unknown filter '${filter[1]}'`;
  if (/expected ":" after filter name/.test(message)) {
    return `${message}: a filter's arguments follow a colon (\`| default: "n/a"\`, not \`| default("n/a")\`), and a filtered value in a condition goes in parentheses (\`{% if (items | length) > 1 %}\`)`;
  }
  if (message === "memory alloc limit exceeded") {
    return `the template builds more than ${TEMPLATE_MEMORY_UNITS} characters or list items (a loop or a string too large?)`;
  }
  if (message === "template render limit exceeded") {
    return `rendering took longer than ${RENDER_TIME_LIMIT_MS} ms (a loop too large?)`;
  }
  if (/Invalid string length/.test(message)) return "a string in the template grew too large";
  if (/Maximum call stack size exceeded/.test(message)) return "the template nests too deeply";
  return message.replace(/\s+/g, " ").trim() || "the template cannot be used";
}

/** Made in the script's own realm: not an `instanceof Error` here. */
function isHardStop(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    error.code === "ERR_SCRIPT_EXECUTION_TIMEOUT"
  );
}

const LIQUID_LIMITS = new Set(["memory alloc limit exceeded", "template render limit exceeded"]);

function isTimeStop(error: unknown): boolean {
  const cause = LiquidError.is(error) ? (error.originalError ?? error) : error;
  return (
    isHardStop(error) ||
    (cause instanceof Error && cause.message === "template render limit exceeded")
  );
}

function isLimit(error: unknown): boolean {
  const cause = LiquidError.is(error) ? (error.originalError ?? error) : error;
  if (cause instanceof TemplateLimitError || cause instanceof RangeError) return true;
  return cause instanceof Error && LIQUID_LIMITS.has(cause.message);
}

function problemOf(
  error: unknown,
  phase: "parsing" | "rendering",
  stopMs: number,
): PromptTemplateProblem {
  if (isHardStop(error)) {
    return {
      message: `${phase} took longer than ${stopMs} ms (a loop too large?)`,
      limitReached: true,
    };
  }
  const limit = isLimit(error) ? { limitReached: true as const } : {};
  if (LiquidError.is(error)) {
    const [line, column] = error.token.getPosition();
    return { message: explained(liquidDetail(error)), line, column, ...limit };
  }
  return { message: explained(error instanceof Error ? error.message : String(error)), ...limit };
}

/** One script and one context for the hard stop, reused by every parse and render. */
const hardStop: { work?: () => void } = createContext({});
const HARD_STOP_SCRIPT = new Script("work()");

function withHardStop<T>(work: () => T, stopMs: number): T {
  let result: { value: T } | undefined;
  hardStop.work = () => {
    result = { value: work() };
  };
  try {
    HARD_STOP_SCRIPT.runInContext(hardStop, { timeout: Math.max(1, Math.ceil(stopMs)) });
  } finally {
    delete hardStop.work;
  }
  if (result === undefined) throw new Error("internal: the hard stop ran nothing");
  return result.value;
}

export function compilePromptTemplate(
  text: string,
  budget?: TemplateTimeBudget,
): { compiled: CompiledPromptTemplate } | { problem: PromptTemplateProblem } {
  if (text.length > MAX_TEMPLATE_CHARS) {
    return {
      problem: {
        message: `the template has ${text.length} characters; at most ${MAX_TEMPLATE_CHARS} are allowed`,
      },
    };
  }
  if (budget?.spent === true)
    return { problem: { message: budget.spentMessage(), limitReached: true } };
  const stopMs = stopOf(budget);
  const parse = () =>
    withHardStop(() => {
      const templates = parseTemplate(text, ENGINE);
      return { templates, variables: new Set(ENGINE.globalVariablesSync(templates)) };
    }, stopMs);
  try {
    return { compiled: budget === undefined ? parse() : budget.measure(parse) };
  } catch (error) {
    return { problem: problemOf(error, "parsing", stopMs) };
  }
}

function stopOf(budget: TemplateTimeBudget | undefined): number {
  return budget === undefined ? RENDER_HARD_STOP_MS : Math.min(RENDER_HARD_STOP_MS, budget.leftMs);
}

/** Liquid checks its time limit once per step: each check counts against MAX_RENDER_STEPS. */
function countRenderSteps(context: Context): void {
  const timeLimit = context.renderLimit;
  const checkTime = timeLimit.check.bind(timeLimit);
  let steps = 0;
  timeLimit.check = (now: number) => {
    steps += 1;
    if (steps > MAX_RENDER_STEPS) {
      throw new TemplateLimitError(
        `rendering takes more than ${MAX_RENDER_STEPS} steps (a loop too large?)`,
      );
    }
    checkTime(now);
  };
}

function renderBounded(
  templates: Template[],
  scope: Readonly<Record<string, unknown>>,
  timeLimitMs: number,
): string {
  // No prototype: nothing inherited to find.
  const environment: Record<string, unknown> = Object.assign(Object.create(null), scope);
  const context = new PromptTemplateContext(
    environment,
    ENGINE.options,
    { sync: true, renderLimit: timeLimitMs },
    { liquid: ENGINE },
  );
  countRenderSteps(context);
  const emitter = new BoundedEmitter(MAX_RENDERED_CHARS, context.memoryLimit);
  toValueSync(ENGINE.renderer.renderTemplates(templates, context, emitter));
  return emitter.buffer;
}

export function renderPromptTemplate(
  compiled: CompiledPromptTemplate,
  scope: Readonly<Record<string, unknown>>,
  budget?: TemplateTimeBudget,
): { text: string } | { problem: PromptTemplateProblem } {
  if (budget?.spent === true)
    return { problem: { message: budget.spentMessage(), limitReached: true } };
  const stopMs = stopOf(budget);
  const timeLimitMs = Math.min(RENDER_TIME_LIMIT_MS, stopMs);
  const render = () =>
    withHardStop(() => renderBounded(compiled.templates, scope, timeLimitMs), stopMs);
  try {
    return { text: budget === undefined ? render() : budget.measure(render) };
  } catch (error) {
    const problem = problemOf(error, "rendering", stopMs);
    // A render stopped at the time left of the budget has spent it, whatever the clocks measured.
    if (budget !== undefined && timeLimitMs < RENDER_TIME_LIMIT_MS && isTimeStop(error)) {
      budget.exhaust();
    }
    if (problem.limitReached !== true || budget === undefined || budget.leftMs > 0) {
      return { problem };
    }
    return { problem: { ...problem, message: budget.spentMessage("this one was stopped") } };
  }
}
