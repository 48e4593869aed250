/** `?evaluationId=&traceId=` of the traces routes: one evaluation's calls, or one call. */
import { z } from "zod";
import type { ThreadTraces } from "../desk/answers.js";

export const TraceFilterSchema = z.object({
  evaluationId: z.string().min(1).max(200).optional(),
  traceId: z.string().min(1).max(200).optional(),
});

/** The thread's traces narrowed to the filter (evaluations left without a trace are dropped). */
export function filterTraces(
  traces: ThreadTraces,
  filter: z.infer<typeof TraceFilterSchema>,
): ThreadTraces {
  if (filter.evaluationId === undefined && filter.traceId === undefined) return traces;
  const evaluations = traces.evaluations
    .filter((e) => filter.evaluationId === undefined || e.evaluationId === filter.evaluationId)
    .map((e) => ({
      evaluationId: e.evaluationId,
      traces: e.traces.filter((t) => filter.traceId === undefined || t.id === filter.traceId),
    }))
    .filter((e) => e.traces.length > 0);
  return { threadId: traces.threadId, evaluations };
}
