/**
 * An in-memory ReviewDesk that follows the contract of src/orchestrator/reviewDesk.ts, for the
 * page tests that need reviews in a given shape (an injection warning, a revision limit) without
 * a graph behind them. Every decision moves the thread to its next stage's review; the last stage
 * finishes it. Errors carry the desk's codes and details.
 */
import { EvalgateError } from "../../src/errors.js";
import type {
  DecisionRequest,
  DeskErrorCode,
  PageRequest,
  ReviewDesk,
  ReviewDetail,
  Reviewer,
  ThreadEvent,
  ThreadStatus,
} from "../../src/orchestrator/reviewDesk.js";
import type { EvaluationResult } from "../../src/scoring/result.js";

class MemoryDeskError extends EvalgateError {
  readonly details: Record<string, unknown>;
  constructor(code: DeskErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(code, message);
    this.details = details;
  }
}

export interface MemoryThread {
  status: ThreadStatus;
  review?: ReviewDetail;
  events: ThreadEvent[];
}

export const STAGES = ["research", "solution", "connections"] as const;

export function sampleEvaluation(overrides: Partial<EvaluationResult> = {}): EvaluationResult {
  const criterion = (id: string, score: number, threshold: number) => ({
    id,
    title: `Criterion ${id}`,
    method: "score" as const,
    weight: 1,
    critical: false,
    knockout: false,
    required: false,
    evaluated: true,
    score,
    native: score,
    met: score >= threshold,
    threshold,
    reasoning: `Reasoning for ${id}.`,
    hits: [`hit of ${id}`],
    misses: [`miss of ${id}`],
    evidence: [],
  });
  return {
    passed: true,
    timestamp: "2026-01-05T10:00:00.000Z",
    evaluator: "test",
    overallScore: 0.8,
    scores: { a: 0.9, b: 0.5 },
    strengths: ["Clear aims"],
    weaknesses: ["Thin budget"],
    suggestions: ["Cite the county report"],
    feedback: "",
    verdict: "pass",
    criteria: [criterion("a", 0.9, 0.7), criterion("b", 0.5, 0.7)],
    notEvaluated: [],
    catalog: { id: "research", version: "1" },
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    warnings: [],
    traces: [],
    ...overrides,
  };
}

export class MemoryDesk implements ReviewDesk {
  readonly tokens = new Map<string, Reviewer>();
  readonly threads = new Map<string, MemoryThread>();
  private next = 0;
  /** When set, each decision is applied this long after it was recorded, as a job would. */
  autoAdvanceMs: number | undefined;

  private nextId(): number {
    this.next += 1;
    return this.next;
  }

  addReviewer(name: string, role: Reviewer["role"] = "reviewer"): string {
    const token = `token-${name}-${this.nextId()}`;
    this.tokens.set(token, { name, role });
    return token;
  }

  async authenticate(token: string) {
    return this.tokens.get(token);
  }

  /** Starts a thread waiting at its first review at once (no job: nothing to wait for). */
  async startProposal(input: { rfp: string; title?: string }, by: Reviewer) {
    const threadId = `thread-${this.nextId()}`;
    const title = input.title ?? input.rfp.slice(0, 40);
    const thread: MemoryThread = {
      status: {
        threadId,
        title,
        status: "queued",
        stages: [],
        reviewers: [by.name],
        decisions: [],
      },
      events: [],
    };
    this.threads.set(threadId, thread);
    this.pause(thread, 0, {});
    return { threadId };
  }

  /** Pauses the thread at STAGES[stage] with a review of this shape. */
  pause(thread: MemoryThread, stage: number, review: Partial<ReviewDetail>): void {
    const name = STAGES[stage] ?? "done";
    thread.status.status = "waiting";
    thread.review = {
      threadId: thread.status.threadId,
      interruptId: `${name}-${this.nextId()}`,
      stage: name,
      title: thread.status.title,
      type: "evaluation_review",
      content: `The ${name} text.`,
      evaluation: sampleEvaluation(),
      actions: ["approve", "revise", "edit"],
      createdAt: new Date(Date.UTC(2026, 0, 5, 10, this.next)).toISOString(),
      ...review,
    };
    thread.status.stages.push({ stage: name, status: "review", overallScore: 0.8, passed: true });
    this.emit(thread, "review_ready", name);
  }

  emit(thread: MemoryThread, type: ThreadEvent["type"], stage?: string): void {
    const seq = thread.events.length + 1;
    const at = new Date().toISOString();
    thread.events.push({ seq, threadId: thread.status.threadId, type, stage, at });
  }

  private visible(threadId: string, by: Reviewer): MemoryThread {
    const thread = this.threads.get(threadId);
    if (thread === undefined)
      throw new MemoryDeskError("THREAD_NOT_FOUND", `no thread ${threadId}`);
    if (by.role !== "admin" && !thread.status.reviewers.includes(by.name)) {
      throw new MemoryDeskError("NOT_ASSIGNED", `${by.name} is not assigned to ${threadId}`);
    }
    return thread;
  }

  async assignReviewer(threadId: string, name: string, by: Reviewer) {
    if (by.role !== "admin") throw new MemoryDeskError("FORBIDDEN", `${by.name} is no admin`);
    const thread = this.visible(threadId, by);
    if (!thread.status.reviewers.includes(name)) thread.status.reviewers.push(name);
  }

  async listReviews(by: Reviewer, page: PageRequest) {
    const items = [...this.threads.values()]
      .filter((t) => t.review !== undefined && t.status.status === "waiting")
      .filter((t) => by.role === "admin" || t.status.reviewers.includes(by.name))
      .map((t) => t.review!)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const start = page.cursor === undefined ? 0 : Number(page.cursor);
    const slice = items.slice(start, start + page.limit);
    const more = start + page.limit < items.length;
    return {
      items: slice.map((r) => ({
        threadId: r.threadId,
        interruptId: r.interruptId,
        stage: r.stage,
        title: r.title,
        overallScore: r.evaluation?.overallScore ?? null,
        passed: r.evaluation?.passed ?? null,
        createdAt: r.createdAt,
      })),
      nextCursor: more ? String(start + page.limit) : null,
    };
  }

  async getReview(threadId: string, by: Reviewer) {
    const thread = this.visible(threadId, by);
    if (thread.review === undefined || thread.status.status !== "waiting") {
      throw new MemoryDeskError("REVIEW_NOT_PENDING", `${threadId} waits for no review`);
    }
    return thread.review;
  }

  async decide(threadId: string, request: DecisionRequest, by: Reviewer) {
    const thread = this.visible(threadId, by);
    const earlier = thread.status.decisions.find((d) => d.interruptId === request.interruptId);
    if (earlier !== undefined) {
      const { reviewer, decidedAt } = earlier;
      throw new MemoryDeskError("ALREADY_DECIDED", `decided by ${reviewer} at ${decidedAt}`, {
        by: reviewer,
        at: decidedAt,
      });
    }
    const review = thread.review;
    if (review === undefined || review.interruptId !== request.interruptId) {
      throw new MemoryDeskError("REVIEW_NOT_PENDING", `not waiting for ${request.interruptId}`);
    }
    if (!review.actions.includes(request.action)) {
      throw new MemoryDeskError("ACTION_NOT_OFFERED", `${request.action} is not offered`);
    }
    if (request.action === "edit" && request.content === undefined) {
      throw new MemoryDeskError("INVALID_INPUT", "content: an edit needs the content", {
        field: "content",
      });
    }
    const decisionId = `decision-${this.nextId()}`;
    thread.status.decisions.push({
      decisionId,
      interruptId: request.interruptId,
      stage: review.stage,
      reviewer: by.name,
      action: request.action,
      feedback: request.feedback,
      decidedAt: new Date().toISOString(),
    });
    thread.status.status = "queued";
    thread.review = undefined;
    this.emit(thread, "queued", review.stage);
    if (this.autoAdvanceMs !== undefined) {
      const delay = this.autoAdvanceMs;
      setTimeout(() => {
        this.emit(thread, "running", review.stage);
        setTimeout(() => this.advance(threadId), delay);
      }, delay);
    }
    return { decisionId };
  }

  /** What the job would do: apply the last decision and pause at the next stage (or finish). */
  advance(threadId: string, review: Partial<ReviewDetail> = {}): void {
    const thread = this.threads.get(threadId)!;
    const last = thread.status.decisions.at(-1)!;
    last.appliedAt = new Date().toISOString();
    const stage = STAGES.indexOf(last.stage as (typeof STAGES)[number]);
    const nextStage = last.action === "revise" ? stage : stage + 1;
    if (nextStage >= STAGES.length) {
      thread.status.status = "finished";
      this.emit(thread, "finished");
      return;
    }
    this.pause(thread, nextStage, review);
  }

  async threadStatus(threadId: string, by: Reviewer) {
    return this.visible(threadId, by).status;
  }

  async events(threadId: string, by: Reviewer, afterSeq: number) {
    return this.visible(threadId, by).events.filter((e) => e.seq > afterSeq);
  }

  async ready() {
    return true;
  }

  async close() {}
}
