import { type CallLane, createCallLane } from "../llm/callCeiling.js";
import {
  type ChatModelOptions,
  createChatModel,
  type JudgeModel,
  withLane,
  withTimeout,
} from "../llm/chatModel.js";
import type { EvaluateContentOptions } from "./options.js";

export function isJudgeModel(model: unknown): model is JudgeModel {
  return typeof model === "object" && model !== null && "candidates" in model && "retry" in model;
}

/** The judge, its calls queued in `lane` so the process's evaluations take turns for a server. */
export function resolveJudgeModel(
  model: Exclude<EvaluateContentOptions["model"], null>,
  options: ChatModelOptions = {},
  lane: CallLane = createCallLane(),
): JudgeModel {
  if (isJudgeModel(model)) {
    const timed = options.timeoutMs === undefined ? model : withTimeout(model, options.timeoutMs);
    return withLane(timed, lane);
  }
  return withLane(createChatModel(model, options), lane);
}
