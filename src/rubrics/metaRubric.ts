/** The meta-rubric: the meta checks every catalog meets, as a levels rubric of functions. */
import { META_CHECK_MODULE } from "../checks/metaChecks.js";
import type { Catalog } from "../criteria/model.js";
import { rubricCatalog } from "../engine/apis/rubricExecutor.js";

type Level = { id: string; label: string; description: string; score: number };

const level = (id: string, label: string, description: string, score: number): Level => ({
  id,
  label,
  description,
  score,
});

const PASS_FAIL = (pass: string, fail: string) => [
  level("fail", "Fail", fail, 0),
  level("pass", "Pass", pass, 1),
];

function criterion(
  id: string,
  name: string,
  description: string,
  check: string,
  levels: readonly Level[],
) {
  return {
    id,
    name,
    description,
    weight: 0.2,
    // A rubric without criteria cannot pass, whatever the other checks say.
    ...(id === "criteria_coverage" ? { critical: true } : {}),
    levels,
    scoring_method: { type: "deterministic", function_ref: `${META_CHECK_MODULE}:${check}` },
  };
}

const META_RUBRIC = {
  id: "meta_rubric",
  name: "Rubric Quality",
  description: "Validates the structural quality of a rubric definition",
  version: "1.0.0",
  target_type: "rubric",
  pass_threshold: 0.7,
  criteria: [
    criterion(
      "criteria_coverage",
      "Criteria Coverage",
      "The rubric has at least one criterion",
      "checkCriteriaCoverage",
      PASS_FAIL("At least one criterion", "No criteria"),
    ),
    criterion(
      "criteria_independence",
      "Criteria Independence",
      "No two criteria share an id, a name or a description",
      "checkCriteriaIndependence",
      [
        level("fail", "Fail", "Two criteria share an id", 0),
        level("partial", "Partial", "Two criteria share a name or a description", 0.5),
        level("pass", "Pass", "Every criterion stands apart", 1),
      ],
    ),
    criterion(
      "weight_distribution",
      "Weight Distribution",
      "The weights of the scored criteria sum to 1 (within 0.01)",
      "checkWeightDistribution",
      PASS_FAIL("Weights sum to 1", "Weights do not sum to 1"),
    ),
    criterion(
      "threshold_reasonableness",
      "Threshold Reasonableness",
      "The pass threshold is achievable and not trivial",
      "checkThreshold",
      [
        level("too_low", "Too low", "Even the worst possible score passes", 0),
        level("too_high", "Too high", "Not even the best possible score passes", 0.1),
        level("pass", "Pass", "Reachable and not trivial", 1),
      ],
    ),
    criterion(
      "level_ordering",
      "Level Ordering",
      "The levels of each criterion are ordered by score, with unique ids",
      "checkLevelOrdering",
      PASS_FAIL("Levels ordered by score", "Levels out of order or repeated"),
    ),
  ],
};

/**
 * The meta-rubric (id `meta_rubric`, target type `rubric`); criteria coverage is critical.
 *
 * @example
 * const evaluation = await new RubricExecutor().evaluate(buildMetaRubric(), myRubric, {
 *   targetId: myRubric.id,
 *   targetType: "rubric",
 * });
 */
export function buildMetaRubric(): Catalog {
  return rubricCatalog(META_RUBRIC, "the meta-rubric");
}
