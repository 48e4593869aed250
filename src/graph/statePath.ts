import { statePathError } from "./errors.js";
import type { SectionData } from "./model.js";
import type { OverallProposalStateType, ProposalUpdate } from "./state.js";

const SECTION_FIELDS = ["content", "status", "evaluation", "title"] as const;
type SectionField = (typeof SECTION_FIELDS)[number];

/** A parsed state path: a top-level field, or a field of one section. */
export type StatePath =
  | { kind: "field"; key: string }
  | { kind: "section"; sectionId: string; field: SectionField };

const TOP_LEVEL_FIELDS: ReadonlySet<string> = new Set([
  "rfpDocument",
  "applicantInput",
  "researchResults",
  "researchStatus",
  "researchEvaluation",
  "solutionSoughtResults",
  "solutionSoughtStatus",
  "solutionSoughtEvaluation",
  "connectionPairs",
  "connectionPairsStatus",
  "connectionPairsEvaluation",
  "isInterrupted",
  "interruptMetadata",
  // the evaluation gate's own fields (buildEvaluationGraph)
  "content",
  "status",
  "evaluation",
]);

function isSectionField(field: string): field is SectionField {
  return (SECTION_FIELDS as readonly string[]).includes(field);
}

/** Parses `researchEvaluation`, or `sections.<id>.<content|status|evaluation>`. */
export function parseStatePath(path: string): StatePath {
  const parts = path.split(".");
  if (parts.length === 1 && TOP_LEVEL_FIELDS.has(path)) return { kind: "field", key: path };
  if (parts.length === 3 && parts[0] === "sections") {
    const [, sectionId = "", field = ""] = parts;
    if (sectionId === "") throw statePathError(path, "the section id is empty");
    if (!isSectionField(field)) {
      throw statePathError(path, `a section has ${SECTION_FIELDS.join(", ")}, not "${field}"`);
    }
    return { kind: "section", sectionId, field };
  }
  throw statePathError(
    path,
    `expected one of ${[...TOP_LEVEL_FIELDS].join(", ")} or sections.<id>.<${SECTION_FIELDS.join("|")}>`,
  );
}

export function readStatePath(state: OverallProposalStateType, path: StatePath): unknown {
  if (path.kind === "field") return (state as unknown as Record<string, unknown>)[path.key];
  return state.sections[path.sectionId]?.[path.field];
}

/** The update that writes `value` at a path: a nested update for a section, never a dotted key. */
export function statePathUpdate(path: StatePath, value: unknown): ProposalUpdate {
  if (path.kind === "field") return { [path.key]: value } as ProposalUpdate;
  const patch: Partial<SectionData> = { [path.field]: value };
  return { sections: { [path.sectionId]: patch } };
}

export function mergeStateUpdates(...updates: readonly ProposalUpdate[]): ProposalUpdate {
  const out: ProposalUpdate = {};
  for (const update of updates) {
    const { sections, messages, errors, reviewHistory, ...rest } = update;
    Object.assign(out, rest);
    if (messages !== undefined) out.messages = [...(out.messages ?? []), ...messages];
    if (reviewHistory !== undefined) {
      out.reviewHistory = [...(out.reviewHistory ?? []), ...reviewHistory];
    }
    if (errors !== undefined) out.errors = [...(out.errors ?? []), ...errors];
    if (sections !== undefined) {
      const merged: Record<string, Partial<SectionData>> = { ...(out.sections ?? {}) };
      for (const [id, patch] of Object.entries(sections)) merged[id] = { ...merged[id], ...patch };
      out.sections = merged;
    }
  }
  return out;
}
