import { z } from "zod";

/** A stage of the proposal graph: one piece of content generated, evaluated and reviewed. */
export const StageDefinitionSchema = z.object({
  /** research, solution, connection_pairs, or a section id (the ids of config/dependencies.json). */
  id: z.string().min(1),
  /** Selects the judge guidance and, by default, the criteria file `<contentType>.json`. */
  contentType: z.string().min(1),
  title: z.string().min(1),
  contentPath: z.string().min(1),
  statusField: z.string().min(1),
  resultField: z.string().min(1),
  criteriaPath: z.string().min(1),
  /** The content's shape, so an edit is stored in it even with no content yet (unset: the current content's). */
  contentKind: z.enum(["text", "object", "list"]).optional(),
});
export type StageDefinition = z.infer<typeof StageDefinitionSchema>;

export const RESEARCH_STAGE: StageDefinition = {
  id: "research",
  contentType: "research",
  title: "Research",
  contentPath: "researchResults",
  statusField: "researchStatus",
  resultField: "researchEvaluation",
  criteriaPath: "research.json",
  contentKind: "object",
};

export const SOLUTION_STAGE: StageDefinition = {
  id: "solution",
  contentType: "solution",
  title: "Solution Sought",
  contentPath: "solutionSoughtResults",
  statusField: "solutionSoughtStatus",
  resultField: "solutionSoughtEvaluation",
  criteriaPath: "solution.json",
  contentKind: "object",
};

export const CONNECTION_PAIRS_STAGE: StageDefinition = {
  id: "connection_pairs",
  contentType: "connection_pairs",
  title: "Connection Pairs",
  contentPath: "connectionPairs",
  statusField: "connectionPairsStatus",
  resultField: "connectionPairsEvaluation",
  criteriaPath: "connection_pairs.json",
  contentKind: "list",
};

/** A proposal section stage: content, status and evaluation inside `sections.<id>`. */
export function sectionStage(id: string, title: string): StageDefinition {
  return {
    id,
    contentType: id,
    title,
    contentPath: `sections.${id}.content`,
    statusField: `sections.${id}.status`,
    resultField: `sections.${id}.evaluation`,
    criteriaPath: `${id}.json`,
    contentKind: "text",
  };
}

function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter((p) => p !== "")
    .map((p) => p[0]?.toUpperCase() + p.slice(1))
    .join("");
}

export interface StageNodeNames {
  generate: string;
  /** Writes `evaluating` to the stage's status; every way into the evaluation passes through it. */
  startEvaluate: string;
  evaluate: string;
  review: string;
}

/** The node names of a stage: `generate<Id>`, `startEvaluate<Id>`, `evaluate<Id>`, `review<Id>`. */
export function stageNodeNames(stage: Pick<StageDefinition, "id">): StageNodeNames {
  const name = pascalCase(stage.id);
  return {
    generate: `generate${name}`,
    startEvaluate: `startEvaluate${name}`,
    evaluate: `evaluate${name}`,
    review: `review${name}`,
  };
}
