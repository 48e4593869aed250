/**
 * Token log-probabilities of an answer, where the model server gives them: asked of Ollama with
 * `logprobs: true, top_logprobs: N` (its answer carries `logprobs: [{ token, logprob,
 * top_logprobs }]` on each streamed chunk), and of OpenAI-compatible servers with `logprobs` /
 * `top_logprobs` (ChatOpenAI puts them in `response_metadata.logprobs.content`); the embedded
 * runtime computes them after the answer (embedded/answerLogprobs.ts). What a server
 * sends is untrusted: each entry is checked, at most MAX_RECORDED_TOKENS are kept, and one entry
 * that is not a token log-probability makes the whole list unusable (the positions would shift).
 */
import type { BaseMessage } from "@langchain/core/messages";
import { z } from "zod";

/** One generated token, its log-probability and the most likely alternatives at its position. */
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
/** The alternatives a call may ask for: a whole number from 1 to MAX_TOP_LOGPROBS. */
export function topLogprobsAsked(top: number): number {
  if (!Number.isFinite(top)) return TOP_LOGPROBS;
  return Math.min(Math.max(1, Math.round(top)), MAX_TOP_LOGPROBS);
}

/** The most tokens recorded for one answer (a judge answer is a few hundred). */
export const MAX_RECORDED_TOKENS = 16_384;

/** The key of a message's response_metadata our Ollama and embedded calls put the tokens under. */
export const TOKEN_LOGPROBS_KEY = "token_logprobs";

/** Collects the log-probabilities of one answer's streamed chunks, in order. */
export class TokenLogprobRecorder {
  private readonly recorded: TokenLogprob[] = [];
  private unusable = false;

  /** Adds one chunk's `logprobs` field (absent: nothing to add). */
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

  /** The tokens recorded; undefined when none came or one chunk's were unusable. */
  tokens(): TokenLogprob[] | undefined {
    return this.unusable || this.recorded.length === 0 ? undefined : [...this.recorded];
  }
}

const OpenAiLogprobsSchema = z.object({
  content: z.array(TokenLogprobSchema).max(MAX_RECORDED_TOKENS),
});

/**
 * The token log-probabilities an answer carries: ours from an Ollama call, or an
 * OpenAI-compatible server's; undefined when it carries none usable.
 */
export function tokenLogprobsOf(message: BaseMessage): TokenLogprob[] | undefined {
  const metadata: Record<string, unknown> = message.response_metadata ?? {};
  const ours = z.array(TokenLogprobSchema).safeParse(metadata[TOKEN_LOGPROBS_KEY]);
  if (ours.success && ours.data.length > 0) return ours.data;
  const openAi = OpenAiLogprobsSchema.safeParse(metadata.logprobs);
  if (openAi.success && openAi.data.content.length > 0) return openAi.data.content;
  return undefined;
}

/** The request body with log-probabilities asked for (a body that is not a JSON object: as is). */
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
