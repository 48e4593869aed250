import { createCallLane } from "../llm/callCeiling.js";
import type { JudgeModel } from "../llm/chatModel.js";
import { parseInput } from "./errors.js";
import { judgeCallCacheFor } from "./judgeCache.js";
import { isJudgeModel, resolveJudgeModel } from "./judgeModel.js";
import { JudgeSession } from "./judgeSession.js";
import {
  type EvaluateContentOptions,
  type EvaluationSettings,
  type PanelSettings,
  PanelSettingsSchema,
} from "./options.js";
import type { PanelMember } from "./panel.js";

/** Who judges: one session, or a panel of members (the first member's session is the main one). */
export interface Judging {
  session: JudgeSession;
  members: PanelMember[];
  panel: PanelSettings;
}

/**
 * Who judges an evaluation: `model` alone, or each of `judges` (a panel; it wins over `model`). Every judge is built
 * (and its spec checked) before any model call; a panel member's calls are traced with the first
 * member's session.
 */
export function judgingOf(options: EvaluateContentOptions, settings: EvaluationSettings): Judging {
  // The panel's settings are checked before any model call.
  const panel = parseInput(PanelSettingsSchema, options.panel ?? {}, "panel option");
  const { traceFile, signal } = options;
  const { registryVersion } = options.catalog;
  const traced = {
    traceFile,
    signal,
    ...(registryVersion === undefined ? {} : { registryVersion }),
  };
  if (options.model === null && !options.judges?.length) {
    const session = new JudgeSession(undefined, traced);
    return { session, members: [{ name: session.modelSpec, session }], panel };
  }
  const sources = options.judges?.length ? options.judges : [options.model ?? undefined];
  // One lane for the whole evaluation: its calls take turns with other evaluations' at a server.
  const lane = createCallLane("evaluation");
  const judges = sources.map((source) =>
    resolveJudgeModel(
      source,
      { timeoutMs: options.timeoutMs ?? (isJudgeModel(source) ? undefined : settings.timeoutMs) },
      lane,
    ),
  );
  const [first, ...others] = judges as [JudgeModel, ...JudgeModel[]];
  const cacheOf = (judge: JudgeModel) => judgeCallCacheFor(options.cache, judge, options.now);
  const session = new JudgeSession(first, { ...traced, cache: cacheOf(first) });
  const sessions = [session, ...others.map((judge) => session.forJudge(judge, cacheOf(judge)))];
  const members = sessions.map((s) => ({
    name: s.modelSpec,
    session: s,
  }));
  return { session, members, panel };
}
