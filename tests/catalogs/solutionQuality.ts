import type { Catalog } from "../../src/criteria/model.js";
import { ScriptedChatModel } from "../doubles/scriptedChatModel.js";

/**
 * One score criterion, "feasibility", in the catalog "solution_quality" at the catalog's threshold
 * 0.50: the smallest catalog whose threshold decides a pass, for the calibration and registry tests.
 */
export function solutionQualityCatalog(options: { critical?: boolean } = {}) {
  return {
    id: "solution_quality",
    name: "Solution quality",
    version: "1.0.0",
    passingThreshold: 0.5,
    criteria: [
      {
        id: "feasibility",
        title: "Feasibility",
        description: "Can the plan be carried out?",
        weight: 1,
        ...(options.critical === true ? { critical: true } : {}),
        method: { kind: "score" as const, scale: { min: 0, max: 1 } },
      },
    ],
  };
}

/** The version calibrate --apply would write: every criterion critical, at `threshold`. */
export function withRaisedThreshold(catalog: Catalog, threshold: number): Catalog {
  return {
    ...catalog,
    criteria: catalog.criteria.map((c) => ({ ...c, critical: true, passingThreshold: threshold })),
  };
}

/** A judge that gives every score criterion `score` (and any other call the same answer). */
export function judgeScoring(score: number): ScriptedChatModel {
  return new ScriptedChatModel({
    responder: () => JSON.stringify({ reasoning: `Scored ${score}.`, score }),
  });
}
