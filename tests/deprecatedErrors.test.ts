/**
 * The error class names folded into their families stay for one release as deprecated aliases:
 * `new OldName(…)` still makes the error with the old code and message, `instanceof OldName` holds
 * for any error of the family with that code (also one made as the family), and the source no
 * longer uses the old names outside the modules that define and re-export them.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as checks from "../src/checks/errors.js";
import * as context from "../src/context/errors.js";
import * as criteria from "../src/criteria/errors.js";
import * as engine from "../src/engine/errors.js";
import { type DeprecatedErrorTarget, EvalgateError, isEvalgateError } from "../src/errors.js";
import * as graph from "../src/graph/errors.js";
import * as judge from "../src/judge/errors.js";
import * as orchestrator from "../src/orchestrator/errors.js";
import * as rubrics from "../src/rubrics/errors.js";
import * as scoring from "../src/scoring/errors.js";
import * as store from "../src/store/errors.js";

const MODULES = {
  checks,
  context,
  criteria,
  engine,
  graph,
  judge,
  orchestrator,
  rubrics,
  scoring,
  store,
};

/** A class as the test sees it: something `instanceof` asks. */
type AnyClass = abstract new (...args: never[]) => object;

interface Deprecated {
  /** The old class, called as users called it. */
  readonly alias: AnyClass;
  readonly old: () => EvalgateError;
  /** The same situation made as the family, the way evalgate throws it now. */
  readonly now: () => EvalgateError;
  /** An error of the same family with another code. */
  readonly other: () => EvalgateError;
  readonly family: AnyClass;
  readonly code: string;
  /** The message, written here by hand: what users may have logged or matched. */
  readonly message: string;
}

const O = orchestrator;
const earlier = { by: "ana", at: "2025-02-03T04:05:06Z", action: "approve", decisionId: "d1" };

/** Every deprecated name (written by hand), keyed by the name. */
const DEPRECATED: Readonly<Record<string, Deprecated>> = {
  ThreadNotFoundError: {
    alias: O.ThreadNotFoundError,
    old: () => new O.ThreadNotFoundError("t-7"),
    now: () => O.threadNotFound("t-7"),
    other: () => O.threadExists("t-7"),
    family: O.OrchestratorError,
    code: "CHECKPOINT_NOT_FOUND",
    message: 'thread "t-7": no such thread in the checkpointer',
  },
  ThreadExistsError: {
    alias: O.ThreadExistsError,
    old: () => new O.ThreadExistsError("t-7"),
    now: () => O.threadExists("t-7"),
    other: () => O.threadNotFound("t-7"),
    family: O.OrchestratorError,
    code: "THREAD_EXISTS",
    message:
      'thread "t-7": the thread already exists; resume it with submitDecision or start with another id',
  },
  InvalidThreadIdError: {
    alias: O.InvalidThreadIdError,
    old: () => new O.InvalidThreadIdError("a b", "has a space"),
    now: () => O.invalidThreadId("a b", "has a space"),
    other: () => O.threadNotFound("a b"),
    family: O.OrchestratorError,
    code: "THREAD_ID_INVALID",
    message: 'thread "a b": not a thread id: it has a space',
  },
  GraphRunError: {
    alias: O.GraphRunError,
    old: () => new O.GraphRunError("t", "the writer crashed"),
    now: () => new O.OrchestratorError("t", "the writer crashed", { code: "GRAPH_RUN_FAILED" }),
    other: () => new O.OrchestratorError("t", "the writer crashed"),
    family: O.OrchestratorError,
    code: "GRAPH_RUN_FAILED",
    message: 'thread "t": the writer crashed',
  },
  ThreadStateError: {
    alias: O.ThreadStateError,
    old: () => new O.ThreadStateError("t", "reviewHistory is not a list"),
    now: () =>
      new O.OrchestratorError("t", "reviewHistory is not a list", { code: "THREAD_STATE_INVALID" }),
    other: () => new O.InvalidDecisionError("t", []),
    family: O.OrchestratorError,
    code: "THREAD_STATE_INVALID",
    message: 'thread "t": reviewHistory is not a list',
  },
  UnauthenticatedError: {
    alias: O.UnauthenticatedError,
    old: () => new O.UnauthenticatedError(),
    now: () => O.unauthenticated(),
    other: () => O.forbidden("assign reviewers", "bo"),
    family: O.DeskError,
    code: "UNAUTHENTICATED",
    message: "a valid reviewer token is needed",
  },
  ForbiddenError: {
    alias: O.ForbiddenError,
    old: () => new O.ForbiddenError("assign reviewers", "bo"),
    now: () => O.forbidden("assign reviewers", "bo"),
    other: () => O.unauthenticated(),
    family: O.DeskError,
    code: "FORBIDDEN",
    message: "bo may not assign reviewers: it takes an admin",
  },
  NotAssignedError: {
    alias: O.NotAssignedError,
    old: () => new O.NotAssignedError("t9", "bo"),
    now: () => O.notAssigned("t9", "bo"),
    other: () => O.unknownThread("t9"),
    family: O.DeskError,
    code: "NOT_ASSIGNED",
    message: "bo is not assigned to thread t9",
  },
  UnknownThreadError: {
    alias: O.UnknownThreadError,
    old: () => new O.UnknownThreadError("t9"),
    now: () => O.unknownThread("t9"),
    other: () => O.notAssigned("t9", "bo"),
    family: O.DeskError,
    code: "THREAD_NOT_FOUND",
    message: "no thread t9",
  },
  InvalidInputError: {
    alias: O.InvalidInputError,
    old: () => new O.InvalidInputError("cursor", "not a cursor this service gave out"),
    now: () => O.invalidInput("cursor", "not a cursor this service gave out"),
    other: () => O.unknownThread("t9"),
    family: O.DeskError,
    code: "INVALID_INPUT",
    message: "cursor: not a cursor this service gave out",
  },
  ReviewNotPendingError: {
    alias: O.ReviewNotPendingError,
    old: () => new O.ReviewNotPendingError("t9", "i1", []),
    now: () => O.reviewNotPending("t9", "i1", []),
    other: () => O.alreadyDecided("t9", "i1", earlier),
    family: O.DeskError,
    code: "REVIEW_NOT_PENDING",
    message: 'thread t9 is not waiting for a decision on "i1": it waits for no review now',
  },
  AlreadyDecidedError: {
    alias: O.AlreadyDecidedError,
    old: () => new O.AlreadyDecidedError("t9", "i1", earlier),
    now: () => O.alreadyDecided("t9", "i1", earlier),
    other: () => O.reviewNotPending("t9", "i1", ["i2"]),
    family: O.DeskError,
    code: "ALREADY_DECIDED",
    message: "the review was decided already: approve by ana at 2025-02-03T04:05:06Z",
  },
  ActionNotOfferedError: {
    alias: O.ActionNotOfferedError,
    old: () => new O.ActionNotOfferedError("revise", ["approve", "edit"]),
    now: () => O.actionNotOffered("revise", ["approve", "edit"]),
    other: () => O.invalidInput("action", "unknown"),
    family: O.DeskError,
    code: "ACTION_NOT_OFFERED",
    message: "this review takes approve, edit — not revise",
  },
  ScaleError: {
    alias: scoring.ScaleError,
    old: () => new scoring.ScaleError("not finite", { criterionId: "c1" }),
    now: () =>
      new scoring.ScoringError("not finite", { criterionId: "c1" }, { code: "SCALE_INVALID" }),
    other: () => new scoring.UnknownLevelError("x", ["a"], { criterionId: "c1" }),
    family: scoring.ScoringError,
    code: "SCALE_INVALID",
    message: "criterion 'c1': not finite",
  },
  InconsistentResultError: {
    alias: scoring.InconsistentResultError,
    old: () => new scoring.InconsistentResultError("met is true", { field: "met" }),
    now: () =>
      new scoring.ScoringError("met is true", { field: "met" }, { code: "RESULT_INCONSISTENT" }),
    other: () => new scoring.ScoringError("met is true", { field: "met" }),
    family: scoring.ScoringError,
    code: "RESULT_INCONSISTENT",
    message: "met: met is true",
  },
  CriterionResultMismatchError: {
    alias: scoring.CriterionResultMismatchError,
    old: () => new scoring.CriterionResultMismatchError("no result", { catalogId: "k" }),
    now: () =>
      new scoring.ScoringError(
        "no result",
        { catalogId: "k" },
        { code: "CRITERION_RESULTS_MISMATCH" },
      ),
    other: () =>
      new scoring.ScoringError("no result", { catalogId: "k" }, { code: "SCALE_INVALID" }),
    family: scoring.ScoringError,
    code: "CRITERION_RESULTS_MISMATCH",
    message: "catalog 'k': no result",
  },
  CorrectionInvalidError: {
    alias: scoring.CorrectionInvalidError,
    old: () => new scoring.CorrectionInvalidError("corrected twice", {}),
    now: () => new scoring.ScoringError("corrected twice", {}, { code: "CORRECTION_INVALID" }),
    other: () => new scoring.ScoringError("corrected twice", {}, { code: "SCALE_INVALID" }),
    family: scoring.ScoringError,
    code: "CORRECTION_INVALID",
    message: "scoring: corrected twice",
  },
  JudgePromptError: {
    alias: judge.JudgePromptError,
    old: () => new judge.JudgePromptError("no rubric items", { criterionId: "c2" }),
    now: () => judge.promptInvalid("no rubric items", { criterionId: "c2" }),
    other: () => new judge.UnjudgedMethodError("function", { criterionId: "c2" }),
    family: judge.JudgeError,
    code: "JUDGE_PROMPT_INVALID",
    message: "criterion 'c2': no rubric items",
  },
  CatalogNotFoundError: {
    alias: criteria.CatalogNotFoundError,
    old: () => new criteria.CatalogNotFoundError("q.toon"),
    now: () => criteria.catalogNotFound("q.toon"),
    other: () => new criteria.CatalogError("catalog file not found", { source: "q.toon" }),
    family: criteria.CatalogError,
    code: "CATALOG_NOT_FOUND",
    message: "q.toon: catalog file not found",
  },
  ProjectNotFoundError: {
    alias: engine.ProjectNotFoundError,
    old: () => new engine.ProjectNotFoundError("lab", "/data/lab"),
    now: () => engine.projectNotFound("lab", "/data/lab"),
    other: () => engine.emptyProject("lab", "/data/lab"),
    family: engine.ProjectError,
    code: "PROJECT_NOT_FOUND",
    message: "project 'lab' (/data/lab): no such project folder",
  },
  EmptyProjectError: {
    alias: engine.EmptyProjectError,
    old: () => new engine.EmptyProjectError("lab", "/data/lab"),
    now: () => engine.emptyProject("lab", "/data/lab"),
    other: () => engine.projectNotFound("lab", "/data/lab"),
    family: engine.ProjectError,
    code: "PROJECT_EMPTY",
    message: "project 'lab' (/data/lab): the folder holds no documents (.md, .txt or .json)",
  },
  InvalidProjectIdError: {
    alias: engine.InvalidProjectIdError,
    old: () => new engine.InvalidProjectIdError("..", "/data"),
    now: () => engine.invalidProjectId("..", "/data"),
    other: () => new engine.ProjectError("..", "/data", "bad"),
    family: engine.ProjectError,
    code: "PROJECT_ID_INVALID",
    message: "project '..' (/data): a project id is one folder name, without '/', '\\' or '..'",
  },
  StatePathError: {
    alias: graph.StatePathError,
    old: () => new graph.StatePathError("sections..x", "the section id is empty"),
    now: () => graph.statePathError("sections..x", "the section id is empty"),
    other: () => graph.nothingEvaluated([]),
    family: graph.GraphError,
    code: "STATE_PATH_INVALID",
    message: 'state field "sections..x": the section id is empty',
  },
  DependencyMapError: {
    alias: graph.DependencyMapError,
    old: () => new graph.DependencyMapError("deps.json: (root): invalid"),
    now: () => new graph.GraphError("DEPENDENCY_MAP_INVALID", "deps.json: (root): invalid"),
    other: () => new graph.GraphError("RFP_UNREADABLE", "deps.json: (root): invalid"),
    family: graph.GraphError,
    code: "DEPENDENCY_MAP_INVALID",
    message: "deps.json: (root): invalid",
  },
  RfpLoadError: {
    alias: graph.RfpLoadError,
    old: () => new graph.RfpLoadError("cannot read the RFP at rfp.md"),
    now: () => new graph.GraphError("RFP_UNREADABLE", "cannot read the RFP at rfp.md"),
    other: () => new graph.GraphError("DEPENDENCY_MAP_INVALID", "cannot read the RFP at rfp.md"),
    family: graph.GraphError,
    code: "RFP_UNREADABLE",
    message: "cannot read the RFP at rfp.md",
  },
  GenerationOutputError: {
    alias: graph.GenerationOutputError,
    old: () => new graph.GenerationOutputError("the section answer is empty"),
    now: () => new graph.GraphError("GENERATION_OUTPUT_INVALID", "the section answer is empty"),
    other: () => graph.resumeWithoutPause("t"),
    family: graph.GraphError,
    code: "GENERATION_OUTPUT_INVALID",
    message: "the section answer is empty",
  },
  NothingEvaluatedError: {
    alias: graph.NothingEvaluatedError,
    old: () => new graph.NothingEvaluatedError(["c1: no JSON", "c2: cut off"]),
    now: () => graph.nothingEvaluated(["c1: no JSON", "c2: cut off"]),
    other: () => graph.runSettingsChanged("t", ["model"]),
    family: graph.GraphError,
    code: "NOTHING_EVALUATED",
    message: "no criterion could be evaluated (c1: no JSON; c2: cut off)",
  },
  RubricNotFoundError: {
    alias: rubrics.RubricNotFoundError,
    old: () => new rubrics.RubricNotFoundError("essay", "2", "reviews.db"),
    now: () => rubrics.rubricNotFound("essay", "2", "reviews.db"),
    other: () => rubrics.artifactNotFound("essay"),
    family: rubrics.RubricError,
    code: "RUBRIC_NOT_FOUND",
    message: 'no version "2" of rubric "essay" in reviews.db',
  },
  ArtifactNotFoundError: {
    alias: rubrics.ArtifactNotFoundError,
    old: () => new rubrics.ArtifactNotFoundError("a1"),
    now: () => rubrics.artifactNotFound("a1"),
    other: () => rubrics.rubricNotFound("a1"),
    family: rubrics.RubricError,
    code: "ARTIFACT_NOT_FOUND",
    message: 'no artifact "a1"',
  },
  ArtifactReviewError: {
    alias: rubrics.ArtifactReviewError,
    old: () => new rubrics.ArtifactReviewError("a1", "no rubric to review it against"),
    now: () => rubrics.artifactReviewFailed("a1", "no rubric to review it against"),
    other: () => new rubrics.RubricConfigError("r.json", "empty"),
    family: rubrics.RubricError,
    code: "ARTIFACT_REVIEW_FAILED",
    message: 'artifact "a1": no rubric to review it against',
  },
  CriterionMethodError: {
    alias: checks.CriterionMethodError,
    old: () => new checks.CriterionMethodError("c3", "schema", "score"),
    now: () => checks.criterionMethodMismatch("c3", "schema", "score"),
    other: () => new checks.FunctionResolutionError("c3", []),
    family: checks.CheckError,
    code: "CRITERION_METHOD_MISMATCH",
    message: "Criterion 'c3': expected a 'schema' method, got 'score'",
  },
  SchemaLoadError: {
    alias: checks.SchemaLoadError,
    old: () => new checks.SchemaLoadError("s.json", "/x/s.json", "not a JSON object"),
    now: () => checks.schemaUnreadable("s.json", "/x/s.json", "not a JSON object"),
    other: () => checks.criterionMethodMismatch("c3", "schema", "score"),
    family: checks.CheckError,
    code: "SCHEMA_UNREADABLE",
    message: "Cannot load JSON Schema 's.json' (/x/s.json): not a JSON object",
  },
  DocumentLoadError: {
    alias: context.DocumentLoadError,
    old: () => new context.DocumentLoadError("docs", "no such folder"),
    now: () => context.documentsUnreadable("docs", "no such folder"),
    other: () => context.embeddingInvalid("no vectors"),
    family: context.ContextError,
    code: "DOCUMENTS_UNREADABLE",
    message: "Cannot load documents from docs: no such folder",
  },
  EmbeddingError: {
    alias: context.EmbeddingError,
    old: () => new context.EmbeddingError("2 vectors for 3 texts"),
    now: () => context.embeddingInvalid("2 vectors for 3 texts"),
    other: () => context.documentsUnreadable("docs", "gone"),
    family: context.ContextError,
    code: "EMBEDDING_INVALID",
    message: "Embedding retriever: 2 vectors for 3 texts",
  },
  StoreOpenError: {
    alias: store.StoreOpenError,
    old: () => new store.StoreOpenError("r.sqlite", "there is no such file"),
    now: () => store.storeOpenFailed("r.sqlite", "there is no such file"),
    other: () => store.storeDataInvalid("there is no such file"),
    family: store.StoreError,
    code: "STORE_OPEN_FAILED",
    message: "review store r.sqlite: there is no such file",
  },
  StoreDataError: {
    alias: store.StoreDataError,
    old: () => new store.StoreDataError("row 3 has no id"),
    now: () => store.storeDataInvalid("row 3 has no id"),
    other: () => store.reviewerExists("ana"),
    family: store.StoreError,
    code: "STORE_DATA_INVALID",
    message: "review store: row 3 has no id",
  },
  ReviewerExistsError: {
    alias: store.ReviewerExistsError,
    old: () => new store.ReviewerExistsError("ana"),
    now: () => store.reviewerExists("ana"),
    other: () => store.storeDataInvalid("ana"),
    family: store.StoreError,
    code: "REVIEWER_EXISTS",
    message: 'a reviewer named "ana" exists already',
  },
};

const ROWS = Object.entries(DEPRECATED);

/** The target of a value that is a deprecated alias, else undefined. */
function targetOf(value: unknown): DeprecatedErrorTarget | undefined {
  if (typeof value !== "function" || !("deprecatedFor" in value)) return undefined;
  return value.deprecatedFor as DeprecatedErrorTarget;
}

describe("a deprecated error name", () => {
  it("is listed above for every alias the errors modules export, and nothing else is", () => {
    const exported: string[] = [];
    for (const module of Object.values(MODULES)) {
      for (const [name, value] of Object.entries(module)) {
        if (targetOf(value) !== undefined) exported.push(name);
      }
    }
    expect(exported.sort()).toEqual(Object.keys(DEPRECATED).sort());
  });

  it.each(ROWS)(
    "%s: the old constructor still makes the error, same code and message",
    (name, row) => {
      const error = row.old();
      expect(error).toBeInstanceOf(row.alias);
      expect(error).toBeInstanceOf(row.family);
      expect(error).toBeInstanceOf(EvalgateError);
      expect(error).toBeInstanceOf(Error);
      expect(error.name).toBe(name);
      expect(error.constructor.name).toBe(name);
      expect(error.code).toBe(row.code);
      expect(isEvalgateError(error, row.code)).toBe(true);
      expect(error.message).toBe(row.message);
      expect(String(error.stack)).toContain(row.message);
    },
  );

  it.each(ROWS)(
    "%s: instanceof holds for the family error of its code, not of another",
    (name, row) => {
      const now = row.now();
      expect(now).toBeInstanceOf(row.family);
      expect(now.constructor).toBe(row.family);
      expect(now.name).toBe(row.family.name);
      expect(now.code).toBe(row.code);
      expect(now.message).toBe(row.message);
      expect(now instanceof row.alias, name).toBe(true);

      const other = row.other();
      expect(other).toBeInstanceOf(row.family);
      expect(other.code).not.toBe(row.code);
      expect(other instanceof row.alias, name).toBe(false);
      expect(targetOf(row.alias)).toEqual({ family: row.family.name, code: row.code });
    },
  );

  it("answers instanceof false for look-alikes: another family's error of the code, plain values", () => {
    const sameCode = new EvalgateError("THREAD_EXISTS", "thread exists");
    expect(sameCode instanceof orchestrator.ThreadExistsError).toBe(false);
    const lookAlike = Object.assign(new Error("x"), { code: "THREAD_EXISTS" });
    expect(lookAlike instanceof orchestrator.ThreadExistsError).toBe(false);
    for (const value of [undefined, null, "THREAD_EXISTS", 42, { code: "THREAD_EXISTS" }]) {
      expect(value instanceof orchestrator.ThreadExistsError).toBe(false);
    }
  });
});

/** Every .ts/.tsx file under src/, relative path and text. */
function sources(): Array<[string, string]> {
  const root = join(import.meta.dirname, "..", "src");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => [name.replaceAll("\\", "/"), readFileSync(join(root, name), "utf8")]);
}

/** The modules that define the aliases (errors modules) and the entry points that re-export them. */
const MAY_NAME = /(^|\/)(errors|deskErrors|index)\.ts$/;

describe("the source", () => {
  it("uses no deprecated error name outside the modules that define and re-export them", () => {
    const names = Object.keys(DEPRECATED);
    const pattern = new RegExp(`\\b(${names.join("|")})\\b`, "g");
    const uses: string[] = [];
    for (const [path, text] of sources()) {
      if (MAY_NAME.test(path)) continue;
      for (const match of text.matchAll(pattern)) uses.push(`${path}: ${match[1]}`);
    }
    expect(uses).toEqual([]);
  });

  it("re-exports every deprecated name from the public entry point of its folder", () => {
    const root = join(import.meta.dirname, "..", "src");
    for (const [name, row] of ROWS) {
      const folder = Object.entries(MODULES).find(([, module]) =>
        Object.values(module).includes(row.alias),
      )?.[0];
      const entry = readFileSync(join(root, folder ?? "?", "index.ts"), "utf8");
      const named = new RegExp(`\\b${name}\\b`).test(entry);
      const all = entry.includes('export * from "./errors.js"');
      expect({ name, exported: named || all }).toEqual({ name, exported: true });
    }
  });
});
