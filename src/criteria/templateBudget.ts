/**
 * The time all the prompt templates of one evaluation (or of one catalog's check) may take
 * together. Each render is bounded on its own (RENDER_TIME_LIMIT_MS, RENDER_HARD_STOP_MS), and a
 * render blocks the process while it runs: thirty criteria that each take their whole second
 * would block it for thirty. The budget is spent by every parse and render it is given to, each
 * render may take at most what is left, and once it is spent the templates left are not rendered
 * (each is an error saying so).
 */

/** The time the templates of one evaluation may take together (parses and renders). */
export const TEMPLATE_TIME_BUDGET_MS = 3_000;

/** The time left for one evaluation's templates; spent by each parse and render given it. */
export class TemplateTimeBudget {
  #leftMs: number;

  constructor(readonly totalMs: number = TEMPLATE_TIME_BUDGET_MS) {
    this.#leftMs = totalMs;
  }

  /** Milliseconds left (0 when spent). */
  get leftMs(): number {
    return Math.max(0, this.#leftMs);
  }

  get spent(): boolean {
    return this.#leftMs <= 0;
  }

  /** Runs `work`, spending the time it takes. */
  measure<T>(work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.#leftMs -= performance.now() - started;
    }
  }

  /** Marks the budget spent: a render stopped at the time left of it has used it all. */
  exhaust(): void {
    this.#leftMs = 0;
  }

  /** Why a template was not rendered (or was stopped) once the budget is spent. */
  spentMessage(what = "this one was not rendered"): string {
    return `the prompt templates of this evaluation have used their time budget of ${this.totalMs} ms (TEMPLATE_TIME_BUDGET_MS): ${what}`;
  }
}

/** A new budget for one evaluation's (or one catalog check's) templates. */
export function createTemplateTimeBudget(totalMs = TEMPLATE_TIME_BUDGET_MS): TemplateTimeBudget {
  return new TemplateTimeBudget(totalMs);
}
