/**
 * `evalgate review <thread> <action>`: decides on the review a thread waits for, without prompts
 * (answering exactly that review's interrupt), and prints the next review or "completed".
 * Anything that keeps the decision from being made — no such thread, a thread that waits for no
 * review, an action the review does not offer, a decision the graph refuses — is one message.
 */
import { REVIEW_ACTIONS, type ReviewAction, type ReviewDecision } from "../../graph/model.js";
import { createChatModel } from "../../llm/chatModel.js";
import {
  ForeignThreadError,
  InvalidDecisionError,
  OrchestratorError,
  ThreadNotFoundError,
} from "../../orchestrator/errors.js";
import type { CliContext } from "../context.js";
import { CliError } from "../errors.js";
import { EXIT_OK } from "../exitCodes.js";
import { ensureModelReady, resolveModelTarget } from "../modelCheck.js";
import { renderReview, renderRunSummary, stageContent } from "../review/display.js";
import { readInputFile } from "../review/files.js";
import { reviewCommandHint } from "../review/hints.js";
import { openReviewSession, type ThreadView } from "../review/session.js";
import { loadRunSettings, type RunSettings, runSettingsPath } from "../review/settings.js";
import {
  dbHint,
  describeStore,
  quoteArg,
  resolveCheckpointStore,
  storeExists,
} from "../review/store.js";

export interface ReviewCommandOptions {
  feedback?: string;
  contentFile?: string;
  reviewer?: string;
  comment?: string;
  db?: string;
  model?: string;
  maxRevisions?: number;
}

/** The decision the arguments describe; options that belong to another action are refused. */
export async function decisionFromOptions(
  action: string,
  options: ReviewCommandOptions,
  cwd: string,
): Promise<ReviewDecision> {
  if (!(REVIEW_ACTIONS as readonly string[]).includes(action)) {
    throw new CliError(`"${action}" is not a decision: use ${REVIEW_ACTIONS.join(", ")}`);
  }
  const chosen = action as ReviewAction;
  if (options.feedback !== undefined && chosen !== "revise") {
    throw new CliError(`--feedback goes with revise, not with ${chosen}`);
  }
  if (options.contentFile !== undefined && chosen !== "edit") {
    throw new CliError(`--content-file goes with edit, not with ${chosen}`);
  }
  const who = {
    ...(options.reviewer === undefined ? {} : { reviewer: options.reviewer }),
    ...(options.comment === undefined ? {} : { comment: options.comment }),
  };
  switch (chosen) {
    case "approve":
    case "retry":
      return { action: chosen, ...who };
    case "revise": {
      const feedback = options.feedback?.trim() ?? "";
      if (feedback === "") throw new CliError("revise needs --feedback <text> for the writer");
      return { action: "revise", feedback, ...who };
    }
    case "edit": {
      if (options.contentFile === undefined) {
        throw new CliError("edit needs --content-file <file> with the new content");
      }
      const content = await readInputFile("--content-file", options.contentFile, cwd);
      return { action: "edit", content, ...who };
    }
  }
}

function notWaiting(threadId: string, view: Exclude<ThreadView, { kind: "paused" }>, db: string) {
  if (view.kind === "completed") {
    return new CliError(`thread ${threadId} is not waiting for a review: the run has completed`);
  }
  return new CliError(
    `thread ${threadId} is not waiting for a review: the run stopped before ${view.next.join(", ")}; ` +
      `go on with it with \`evalgate run --thread ${quoteArg(threadId)}${db}\``,
  );
}

export async function runReviewDecision(
  threadId: string,
  action: string,
  options: ReviewCommandOptions,
  context: CliContext,
): Promise<void> {
  const { cwd, env } = context;
  const decision = await decisionFromOptions(action, options, cwd);
  const store = resolveCheckpointStore(options.db, env, cwd);
  const where = describeStore(store, cwd);
  if (!storeExists(store)) {
    throw new CliError(`no thread "${threadId}": there is no checkpoint file at ${where}`);
  }
  let stored: RunSettings | undefined;
  try {
    stored = await loadRunSettings(runSettingsPath(store, cwd), threadId);
  } catch (error) {
    context.stderr.write(`evalgate: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  const target = resolveModelTarget(options.model ?? stored?.model, env);
  const maxRevisions = options.maxRevisions ?? stored?.maxRevisions;
  const session = await openReviewSession({
    store,
    env,
    cwd,
    model: createChatModel(target.spec, { env }),
    ...(maxRevisions === undefined ? {} : { maxRevisions }),
  });
  try {
    let view: ThreadView;
    try {
      view = await session.view(threadId);
    } catch (error) {
      if (error instanceof ThreadNotFoundError) {
        throw new CliError(
          `no thread "${threadId}" in ${where} (evalgate reviews lists the paused ones)`,
        );
      }
      if (error instanceof ForeignThreadError) throw new CliError(error.message, { cause: error });
      throw error;
    }
    if (view.kind !== "paused") throw notWaiting(threadId, view, dbHint(store, cwd));
    const { review } = view;
    if (!review.actions.includes(decision.action)) {
      throw new CliError(
        `${review.title} [${review.contentId}] (${review.type}) takes ` +
          `${review.actions.join(", ")} — not ${decision.action}`,
      );
    }
    // The decision runs the graph on: the next stage is written and judged.
    await ensureModelReady(target);
    let outcome: Awaited<ReturnType<typeof session.orchestrator.submitDecision>>;
    try {
      outcome = await session.orchestrator.submitDecision(threadId, review.interruptId, decision);
    } catch (error) {
      if (error instanceof InvalidDecisionError) {
        throw new CliError(
          `the decision was not accepted: ${error.issues.map((i) => `${i.field}: ${i.message}`).join("; ")}`,
          { cause: error },
        );
      }
      if (error instanceof OrchestratorError) {
        throw new CliError(error.message, { cause: error });
      }
      throw error;
    }
    const out = context.stdout;
    out.write(
      `decided ${decision.action} on ${review.title} [${review.contentId}], thread ${threadId}\n`,
    );
    const next = outcome.review;
    if (outcome.state === "paused" && next !== undefined) {
      const stage = session.stages.find((s) => s.id === next.contentId);
      const content = stage === undefined ? undefined : stageContent(outcome.values, stage);
      out.write(`\nnext review\n\n${renderReview(next, content)}\nDecide with:\n`);
      out.write(reviewCommandHint(next, store, cwd));
    } else {
      out.write(`completed\n\n${renderRunSummary(outcome.values, session.stages)}`);
    }
    context.exitCode = EXIT_OK;
  } finally {
    await session.close();
  }
}
