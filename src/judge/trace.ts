import { createHash, randomUUID } from "node:crypto";
import { appendFile, mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { redactSecrets, redactSecretText } from "../redact.js";
import {
  type ScoreWeighting,
  type TokenUsage,
  type Trace,
  TraceSchema,
} from "../scoring/result.js";

export interface BuildTraceInput {
  purpose: Trace["purpose"];
  criterionIds: readonly string[];
  model: string;
  /** Temperature, timeouts, … as sent (secrets in them are replaced by `***` in the trace). */
  parameters: Readonly<Record<string, unknown>>;
  systemPrompt: string;
  userPrompt: string;
  rawResponse: string;
  /** Token counts as reported; a missing total is the sum of input and output. */
  usage?: Partial<TokenUsage>;
  latencyMs: number;
  error?: string;
  /** Probability-weighted scores: what weighting the answer's score gave. */
  scoreWeighting?: ScoreWeighting;
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export function promptHash(systemPrompt: string, userPrompt: string): string {
  return sha256(JSON.stringify([systemPrompt, userPrompt]));
}

export function responseHash(rawResponse: string): string {
  return sha256(rawResponse);
}

/** The record of one model call. Secret-named parameters and key-shaped values never enter it. */
export function buildTrace(input: BuildTraceInput): Trace {
  const inputTokens = input.usage?.inputTokens ?? 0;
  const outputTokens = input.usage?.outputTokens ?? 0;
  return TraceSchema.parse({
    id: randomUUID(),
    purpose: input.purpose,
    criterionIds: [...input.criterionIds],
    model: input.model,
    parameters: redactSecrets({ ...input.parameters }),
    systemPrompt: input.systemPrompt,
    userPrompt: input.userPrompt,
    rawResponse: input.rawResponse,
    usage: {
      inputTokens,
      outputTokens,
      totalTokens: input.usage?.totalTokens ?? inputTokens + outputTokens,
    },
    latencyMs: Math.max(0, input.latencyMs),
    promptHash: promptHash(input.systemPrompt, input.userPrompt),
    responseHash: responseHash(input.rawResponse),
    timestamp: new Date().toISOString(),
    ...(input.error === undefined ? {} : { error: redactSecretText(input.error) }),
    ...(input.scoreWeighting === undefined ? {} : { scoreWeighting: input.scoreWeighting }),
  });
}

export async function appendTraceJsonl(path: string, trace: Trace): Promise<void> {
  const line = `${JSON.stringify(TraceSchema.parse(trace))}\n`;
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, line, "utf8");
}
