/**
 * The judge calls behind each evaluation of a thread, collapsed: purpose, criteria, model, tokens,
 * latency, the exact prompts and raw answer (long texts cut, linked whole as JSON).
 */
import type { ThreadStatus, ThreadTraces } from "../../desk/answers.js";
import type { Trace } from "../../scoring/result.js";
import { stageName } from "../statusWords.js";
import { type Columns, DataTable, utcText } from "./layout.js";

/** The most characters of a prompt or an answer shown inline. */
export const TRACE_PREVIEW_CHARS = 2_000;

type EvaluationTraces = ThreadTraces["evaluations"][number];

function BoundedText(props: { text: string; href: string; label: string }) {
  const cut = props.text.length > TRACE_PREVIEW_CHARS;
  return (
    <>
      <pre class="content trace-text" data-part={props.label}>
        {cut ? `${props.text.slice(0, TRACE_PREVIEW_CHARS)}…` : props.text}
      </pre>
      {cut ? (
        <p class="muted">
          {(props.text.length - TRACE_PREVIEW_CHARS).toLocaleString("en-US")} more characters ·{" "}
          <a href={props.href}>show all</a>
        </p>
      ) : null}
    </>
  );
}

const PURPOSE_WORDS: Readonly<Record<Trace["purpose"], string>> = {
  criterion: "Judging one criterion",
  batch: "Judging the criteria in one call",
  repair: "Repairing an answer that could not be read",
  summary: "Writing the summary",
  guard: "Checking the content for prompt injection",
};

export function callLabel(trace: Trace, index: number): string {
  const criteria = trace.criterionIds.length === 0 ? "" : ` (${trace.criterionIds.join(", ")})`;
  return `Call ${index + 1}: ${PURPOSE_WORDS[trace.purpose]}${criteria}`;
}

const CALL_COLUMNS: Columns<Trace> = {
  Purpose: (trace) => PURPOSE_WORDS[trace.purpose],
  Criteria: (trace) => (trace.criterionIds.length === 0 ? "—" : trace.criterionIds.join(", ")),
  Model: (trace) => trace.model,
  Tokens: (trace) => `${trace.usage.inputTokens} in / ${trace.usage.outputTokens} out`,
  Latency: (trace) => `${(trace.latencyMs / 1000).toFixed(1)} s`,
  Error: (trace) => trace.error ?? "",
};

function CallDetail(props: { threadId: string; trace: Trace; index: number }) {
  const { trace } = props;
  // The whole call as JSON, under the page session.
  const href = `/threads/${encodeURIComponent(props.threadId)}/traces?traceId=${encodeURIComponent(trace.id)}`;
  return (
    <details class="trace-call" id={`trace-${trace.id}`}>
      <summary>{callLabel(trace, props.index)}</summary>
      <p class="muted">Parameters: {JSON.stringify(trace.parameters)}</p>
      <h4>System prompt</h4>
      <BoundedText text={trace.systemPrompt} href={href} label="system prompt" />
      <h4>User prompt</h4>
      <BoundedText text={trace.userPrompt} href={href} label="user prompt" />
      <h4>Raw answer</h4>
      <BoundedText text={trace.rawResponse} href={href} label="raw answer" />
    </details>
  );
}

function evaluationTitle(evaluation: EvaluationTraces, stages: ThreadStatus["stages"]): string {
  const stage = stages.find((s) => s.evaluationId === evaluation.evaluationId)?.stage;
  const first = evaluation.traces[0]?.timestamp;
  const at = first === undefined ? "" : ` at ${utcText(first, true)}`;
  return `${stage === undefined ? "Evaluation" : `Evaluation of ${stageName(stage)}`}${at}`;
}

function EvaluationCalls(props: {
  threadId: string;
  evaluation: EvaluationTraces;
  stages: ThreadStatus["stages"];
}) {
  const { evaluation } = props;
  const tokens = evaluation.traces.reduce((sum, t) => sum + t.usage.totalTokens, 0);
  return (
    <details class="trace-evaluation" data-evaluation-id={evaluation.evaluationId}>
      <summary>
        {evaluationTitle(evaluation, props.stages)} · {evaluation.traces.length} judge call
        {evaluation.traces.length === 1 ? "" : "s"} · {tokens} tokens
      </summary>
      <DataTable items={evaluation.traces} columns={CALL_COLUMNS} />
      {evaluation.traces.map((trace, index) => (
        <CallDetail threadId={props.threadId} trace={trace} index={index} />
      ))}
    </details>
  );
}

export function TraceSection(props: { traces: ThreadTraces; stages?: ThreadStatus["stages"] }) {
  const { traces } = props;
  if (traces.evaluations.length === 0) return null;
  return (
    <section id="traces">
      <h2>Judge calls</h2>
      {traces.evaluations.map((evaluation) => (
        <EvaluationCalls
          threadId={traces.threadId}
          evaluation={evaluation}
          stages={props.stages ?? []}
        />
      ))}
    </section>
  );
}
