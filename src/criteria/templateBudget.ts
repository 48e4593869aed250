/**
 * The time all the prompt templates of one evaluation may take together: a render blocks the
 * process, and thirty criteria taking their whole second each would block it for thirty.
 */

export const TEMPLATE_TIME_BUDGET_MS = 3_000;

export class TemplateTimeBudget {
  #leftMs: number;

  constructor(readonly totalMs: number = TEMPLATE_TIME_BUDGET_MS) {
    this.#leftMs = totalMs;
  }

  get leftMs(): number {
    return Math.max(0, this.#leftMs);
  }

  get spent(): boolean {
    return this.#leftMs <= 0;
  }

  measure<T>(work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.#leftMs -= performance.now() - started;
    }
  }

  exhaust(): void {
    this.#leftMs = 0;
  }

  spentMessage(what = "this one was not rendered"): string {
    return `the prompt templates of this evaluation have used their time budget of ${this.totalMs} ms (TEMPLATE_TIME_BUDGET_MS): ${what}`;
  }
}

export function createTemplateTimeBudget(totalMs = TEMPLATE_TIME_BUDGET_MS): TemplateTimeBudget {
  return new TemplateTimeBudget(totalMs);
}
