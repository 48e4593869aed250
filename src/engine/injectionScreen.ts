import {
  INJECTION_GUARD_SYSTEM,
  injectionGuardUserPrompt,
} from "../../prompts/evaluation/index.js";
import { fenceData } from "../judge/fence.js";
import { scanForInjection } from "../judge/injection.js";
import { type GuardVerdict, parseGuardResponse } from "../judge/injectionGuard.js";
import { isModelAbortedError, isModelCallError } from "../llm/errors.js";
import type { JudgeSession } from "./judgeSession.js";

/**
 * Every entry point screens what reaches the judge before judging: the deterministic layers
 * (normalisation, then patterns) over each text, then — when enabled — one guard call to the
 * judge model per block of text, asking whether it is instruction-bearing. A finding, an
 * instruction-bearing verdict or a guard that failed (model error, unreadable answer) forces
 * human review; each is a reason naming where it was found.
 */

/** A text that reaches the judge, and how a warning names it ("the content", "source document a.md"). */
export interface ScreenedText {
  where: string;
  text: string;
}

export interface InjectionScreen {
  /** Why a human must review the result: one reason per finding or guard verdict; empty: none. */
  reasons: string[];
}

/**
 * The text of structured content as the scan reads it: every string in it, each on its own lines
 * (in the JSON the judge sees, line breaks inside strings are escaped, which would hide a fake
 * system line or a score table from line-anchored patterns).
 */
export function stringsOf(value: unknown, depth = 0): string[] {
  if (typeof value === "string") return [value];
  if (depth > 64 || typeof value !== "object" || value === null) return [];
  const items = Array.isArray(value) ? value : Object.entries(value).flat();
  return items.flatMap((item) => stringsOf(item, depth + 1));
}

/** The most text one guard call classifies; longer texts are sent in blocks of this size. */
export const GUARD_BLOCK_CHARS = 16_000;

/** The deterministic layers only: findings as warnings. */
export function scanTexts(texts: readonly ScreenedText[]): InjectionScreen {
  const reasons: string[] = [];
  for (const { where, text } of texts) {
    for (const finding of scanForInjection(text)) {
      reasons.push(`possible prompt injection in ${where} (${finding.kind}): "${finding.excerpt}"`);
    }
  }
  return { reasons };
}

/** The text in blocks of at most GUARD_BLOCK_CHARS, one guard call each. */
export function blocksOf(text: string): string[] {
  const blocks: string[] = [];
  for (let at = 0; at < text.length; at += GUARD_BLOCK_CHARS) {
    blocks.push(text.slice(at, at + GUARD_BLOCK_CHARS));
  }
  return blocks;
}

/** Why the guard's verdict about `where` holds the result for review; undefined when clean. */
export function guardVerdictReason(where: string, verdict: GuardVerdict): string | undefined {
  if (!verdict.ok) {
    return `the injection guard's answer about ${where} could not be read (${verdict.error})`;
  }
  if (!verdict.instructionBearing) return undefined;
  return `the injection guard found text aimed at the judge in ${where}: ${verdict.reasoning}`;
}

/** Why a guard whose call failed holds the result for review. */
export function guardFailureReason(where: string, error: { message: string }): string {
  return `the injection guard could not check ${where} (${error.message})`;
}

/** One guard call: a warning when the block is instruction-bearing or the guard failed. */
export async function guardBlock(
  session: JudgeSession,
  where: string,
  block: string,
): Promise<string | undefined> {
  const call = {
    purpose: "guard" as const,
    criterionIds: [],
    system: INJECTION_GUARD_SYSTEM,
    user: injectionGuardUserPrompt(fenceData("DATA", block)),
  };
  // Only a clean verdict is kept: a finding or a failed guard is asked again next time.
  const clean = (text: string) => {
    const verdict = parseGuardResponse(text);
    return verdict.ok && !verdict.instructionBearing;
  };
  if ((await session.recall(call, clean)) !== undefined) return undefined;
  let raw: string;
  try {
    raw = await session.call(call);
  } catch (error) {
    if (isModelAbortedError(error) || !isModelCallError(error)) throw error;
    return guardFailureReason(where, error);
  }
  if (clean(raw)) await session.remember(call, raw);
  return guardVerdictReason(where, parseGuardResponse(raw));
}

/** The deterministic layers, then (with a session) the guard call over every non-empty text. */
export async function screenForInjection(
  texts: readonly ScreenedText[],
  guard: JudgeSession | undefined,
): Promise<InjectionScreen> {
  const screen = scanTexts(texts);
  if (guard === undefined) return screen;
  for (const { where, text } of texts) {
    if (text.trim() === "") continue;
    for (const block of blocksOf(text)) {
      const reason = await guardBlock(guard, where, block);
      if (reason !== undefined) screen.reasons.push(reason);
    }
  }
  return screen;
}
