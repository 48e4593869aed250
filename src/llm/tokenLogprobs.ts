/**
 * Token log-probabilities where the server gives them (Ollama's chunks, OpenAI-compatible
 * `response_metadata.logprobs.content`, the embedded runtime's own). Untrusted: every entry is
 * checked, and one that is not a token log-probability voids the list (positions would shift).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { z } from "zod";

export const TokenLogprobSchema = z.object({
  token: z.string().max(1024),
  logprob: z.number(),
  top_logprobs: z
    .array(z.object({ token: z.string().max(1024), logprob: z.number() }))
    .max(100)
    .optional(),
});
export type TokenLogprob = z.infer<typeof TokenLogprobSchema>;

/** The alternatives asked for at each position (Ollama and OpenAI accept at most 20). */
export const TOP_LOGPROBS = 10;
export const MAX_TOP_LOGPROBS = 20;
export function topLogprobsAsked(top: number): number {
  if (!Number.isFinite(top)) return TOP_LOGPROBS;
  return Math.min(Math.max(1, Math.round(top)), MAX_TOP_LOGPROBS);
}

/** The most tokens recorded for one answer (a judge answer is a few hundred). */
export const MAX_RECORDED_TOKENS = 16_384;

/** The key of a message's response_metadata our Ollama and embedded calls put the tokens under. */
export const TOKEN_LOGPROBS_KEY = "token_logprobs";

export class TokenLogprobRecorder {
  private readonly recorded: TokenLogprob[] = [];
  private unusable = false;

  add(field: unknown): void {
    if (field === undefined || field === null || this.unusable) return;
    const parsed = z.array(TokenLogprobSchema).safeParse(field);
    if (!parsed.success || this.recorded.length + parsed.data.length > MAX_RECORDED_TOKENS) {
      this.unusable = true;
      this.recorded.length = 0;
      return;
    }
    this.recorded.push(...parsed.data);
  }

  tokens(): TokenLogprob[] | undefined {
    return this.unusable || this.recorded.length === 0 ? undefined : [...this.recorded];
  }
}

const OpenAiLogprobsSchema = z.object({
  content: z.array(TokenLogprobSchema).max(MAX_RECORDED_TOKENS),
});

export function tokenLogprobsOf(message: BaseMessage): TokenLogprob[] | undefined {
  const metadata: Record<string, unknown> = message.response_metadata ?? {};
  const ours = z.array(TokenLogprobSchema).safeParse(metadata[TOKEN_LOGPROBS_KEY]);
  if (ours.success && ours.data.length > 0) return ours.data;
  const openAi = OpenAiLogprobsSchema.safeParse(metadata.logprobs);
  if (openAi.success && openAi.data.content.length > 0) return openAi.data.content;
  return undefined;
}

export function withLogprobsRequested<Body>(body: Body, top: number): Body | string {
  if (typeof body !== "string") return body;
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return body;
    return JSON.stringify({ ...parsed, logprobs: true, top_logprobs: top });
  } catch {
    return body;
  }
}
