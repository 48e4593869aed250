/**
 * The stages of the shipped proposal graph (config/proposal.json), in review order, written out
 * by hand: each one has its criteria catalog in config/evaluation/criteria/<id>.json and its entry
 * in config/dependencies.json. Tests compare what the code does against this list.
 */
export const SECTION_IDS = [
  "problem_statement",
  "methodology",
  "budget",
  "timeline",
  "conclusion",
] as const;

export const STAGE_IDS = ["research", "solution", "connection_pairs", ...SECTION_IDS] as const;

export type StageId = (typeof STAGE_IDS)[number];
