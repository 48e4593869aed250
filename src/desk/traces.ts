/** A thread's judge calls, secrets replaced by `***` again on the way out, whatever wrote the rows. */

import { sinksOfSaver } from "../graph/runSinks.js";
import { redactSecrets, redactSecretText } from "../redact.js";
import type { Trace } from "../scoring/result.js";
import type { Reviewer } from "../store/reviewers.js";
import { accessThread, type DeskContext } from "./actions.js";
import type { ThreadTraces } from "./answers.js";

function redactedTrace(trace: Trace): Trace {
  return {
    ...trace,
    parameters: redactSecrets(trace.parameters) as Trace["parameters"],
    systemPrompt: redactSecretText(trace.systemPrompt),
    userPrompt: redactSecretText(trace.userPrompt),
    rawResponse: redactSecretText(trace.rawResponse),
    ...(trace.error === undefined ? {} : { error: redactSecretText(trace.error) }),
  };
}

export async function threadTraces(
  ctx: DeskContext,
  threadId: string,
  by: Reviewer,
): Promise<ThreadTraces> {
  await accessThread(ctx, threadId, by);
  const store = sinksOfSaver(ctx.checkpointer.saver).traces;
  const evaluations = store === undefined ? [] : await store.getThreadEvaluations(threadId);
  return {
    threadId,
    evaluations: evaluations.map(({ evaluationId, traces }) => ({
      evaluationId,
      traces: traces.map(redactedTrace),
    })),
  };
}
