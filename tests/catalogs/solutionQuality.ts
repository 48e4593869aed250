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
