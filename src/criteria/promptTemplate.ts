/**
 * Prompt templates written by users (a rubric's decode prompts), compiled and rendered by the
 * engine in templateEngine.ts (LiquidJS for untrusted authors, with Jinja's common forms). A
 * template is untrusted input: a catalog is checked with compilePromptTemplate when it is loaded,
 * and the judge renders with renderPromptTemplate. Neither throws for a bad template: each gives
 * the problem, with its line (and column) in the template when there is one.
 */
import { createContext, Script } from "node:vm";
import { Context, LiquidError, type Template, toValueSync } from "liquidjs";
import {
  BoundedEmitter,
  PROMPT_TEMPLATE_ENGINE as ENGINE,
  MAX_RENDER_STEPS,
  MAX_RENDERED_CHARS,
  MAX_TEMPLATE_CHARS,
  RENDER_TIME_LIMIT_MS,
  TEMPLATE_MEMORY_UNITS,
} from "./templateEngine.js";
import { parseTemplate } from "./templateSyntax.js";

export {
  MAX_RENDER_STEPS,
  MAX_RENDERED_CHARS,
  MAX_TEMPLATE_CHARS,
  printAs,
  RENDER_TIME_LIMIT_MS,
  TEMPLATE_MEMORY_UNITS,
} from "./templateEngine.js";

/**
 * The longest a parse or a render may run, whatever it is doing (Liquid checks its own time limit
 * only between render steps; this stops a single long step too).
 */
export const RENDER_HARD_STOP_MS = 2_000;

/** The tags a prompt template may use (named in the error for any other). */
export const PROMPT_TEMPLATE_TAGS =
  "for, if/elif/else, unless, case/when, set/assign, capture, raw, comment, liquid, echo, " +
  "cycle, increment, decrement, tablerow, break, continue";

/** What is wrong with a template, and where in it (1-based). */
export interface PromptTemplateProblem {
  message: string;
  line?: number;
  column?: number;
}

/** A template ready to render. */
export interface CompiledPromptTemplate {
  readonly templates: Template[];
  /** The names it reads from its scope (`questions` for `{% for q in questions %}`). */
  readonly variables: ReadonlySet<string>;
}

/** Liquid's own message without its ", line:2, col:5" suffix. */
function liquidDetail(error: LiquidError): string {
  const message = error.originalError?.message ?? error.message;
  return message.replace(/(, file:[^,]*)?, line:\d+, col:\d+$/, "");
}

/** Liquid's message in the words of a prompt template's author. */
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

/** The hard stop's error (made in the script's own realm: not an `instanceof Error` here). */
function isHardStop(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    error.code === "ERR_SCRIPT_EXECUTION_TIMEOUT"
  );
}

/** The problem a thrown error stands for, with the place Liquid knows. */
function problemOf(error: unknown, phase: "parsing" | "rendering"): PromptTemplateProblem {
  if (isHardStop(error)) {
    return { message: `${phase} took longer than ${RENDER_HARD_STOP_MS} ms (a loop too large?)` };
  }
  if (LiquidError.is(error)) {
    const [line, column] = error.token.getPosition();
    return { message: explained(liquidDetail(error)), line, column };
  }
  return { message: explained(error instanceof Error ? error.message : String(error)) };
}

/** One script and one context for the hard stop, reused by every parse and render. */
const hardStop: { work?: () => void } = createContext({});
const HARD_STOP_SCRIPT = new Script("work()");

/** Runs `work`, stopped (with an error) when it runs longer than RENDER_HARD_STOP_MS. */
function withHardStop<T>(work: () => T): T {
  let result: { value: T } | undefined;
  hardStop.work = () => {
    result = { value: work() };
  };
  try {
    HARD_STOP_SCRIPT.runInContext(hardStop, { timeout: RENDER_HARD_STOP_MS });
  } finally {
    delete hardStop.work;
  }
  if (result === undefined) throw new Error("internal: the hard stop ran nothing");
  return result.value;
}

/**
 * Compiles a template: the compiled template, or the problem (a syntax error, a refused or
 * unknown tag, an unknown filter, a template over MAX_TEMPLATE_CHARS) with its line.
 */
export function compilePromptTemplate(
  text: string,
): { compiled: CompiledPromptTemplate } | { problem: PromptTemplateProblem } {
  if (text.length > MAX_TEMPLATE_CHARS) {
    return {
      problem: {
        message: `the template has ${text.length} characters; at most ${MAX_TEMPLATE_CHARS} are allowed`,
      },
    };
  }
  try {
    return {
      compiled: withHardStop(() => {
        const templates = parseTemplate(text, ENGINE);
        return { templates, variables: new Set(ENGINE.globalVariablesSync(templates)) };
      }),
    };
  } catch (error) {
    return { problem: problemOf(error, "parsing") };
  }
}

/** Counts every render step (Liquid checks its time limit once per step) against MAX_RENDER_STEPS. */
function countRenderSteps(context: Context): void {
  const timeLimit = context.renderLimit;
  const checkTime = timeLimit.check.bind(timeLimit);
  let steps = 0;
  timeLimit.check = (now: number) => {
    steps += 1;
    if (steps > MAX_RENDER_STEPS) {
      throw new Error(`rendering takes more than ${MAX_RENDER_STEPS} steps (a loop too large?)`);
    }
    checkTime(now);
  };
}

function renderBounded(templates: Template[], scope: Readonly<Record<string, unknown>>): string {
  // The template's variables, on an object without a prototype (nothing inherited to find).
  const environment: Record<string, unknown> = Object.assign(Object.create(null), scope);
  const context = new Context(environment, ENGINE.options, { sync: true }, { liquid: ENGINE });
  countRenderSteps(context);
  const emitter = new BoundedEmitter(MAX_RENDERED_CHARS);
  toValueSync(ENGINE.renderer.renderTemplates(templates, context, emitter));
  return emitter.buffer;
}

/**
 * Renders a compiled template with `scope` as its variables: the text, or the problem (a render
 * error, a limit reached: MAX_RENDER_STEPS, TEMPLATE_MEMORY_UNITS, MAX_RENDERED_CHARS,
 * RENDER_TIME_LIMIT_MS, RENDER_HARD_STOP_MS) with its line.
 */
export function renderPromptTemplate(
  compiled: CompiledPromptTemplate,
  scope: Readonly<Record<string, unknown>>,
): { text: string } | { problem: PromptTemplateProblem } {
  try {
    return { text: withHardStop(() => renderBounded(compiled.templates, scope)) };
  } catch (error) {
    return { problem: problemOf(error, "rendering") };
  }
}
