/**
 * `run --trace <file.jsonl>`: the thread's judge calls, the file replaced whole so each call is
 * written once.
 */
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { ReviewDesk } from "../../desk/reviewDesk.js";
import type { Reviewer } from "../../store/reviewers.js";
import type { CliContext } from "../context.js";
import { displayPath } from "../displayPath.js";
import { writeFileAtomically } from "../outputFile.js";

/** Writes the thread's traces to `file` (relative to the working folder, folders made); returns how many. */
export async function exportThreadTraces(
  desk: ReviewDesk,
  threadId: string,
  reviewer: Reviewer,
  file: string,
  context: Pick<CliContext, "cwd" | "stderr">,
): Promise<number> {
  const { evaluations } = await desk.threadTraces(threadId, reviewer);
  const lines = evaluations.flatMap(({ evaluationId, traces }) =>
    traces.map((trace) => `${JSON.stringify({ ...trace, evaluationId, threadId })}\n`),
  );
  const path = resolve(context.cwd, file);
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomically(path, lines.join(""));
  const calls = `${lines.length} judge call${lines.length === 1 ? "" : "s"}`;
  context.stderr.write(`traces: ${calls} written to ${displayPath(path, context.cwd)}\n`);
  return lines.length;
}
