/**
 * The one error family: every error class the folders export is an EvalgateError with its own
 * stable code, the guards go by the code (so they hold for an error made by another copy of the
 * package), and the command line ends each kind of error with the exit code and message of its
 * row in the error table.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import * as blueprints from "../src/blueprints/errors.js";
import * as checks from "../src/checks/errors.js";
import * as cli from "../src/cli/errors.js";
import { commandError } from "../src/cli/errorTable.js";
import { deskRefusal } from "../src/cli/review/deskPath.js";
import * as context from "../src/context/errors.js";
import * as criteria from "../src/criteria/errors.js";
import * as desk from "../src/desk/errors.js";
import * as engine from "../src/engine/errors.js";
import { EvalgateError, isEvalgateError, userMessage, withErrorCode } from "../src/errors.js";
import * as graph from "../src/graph/errors.js";
import * as judge from "../src/judge/errors.js";
import * as embedded from "../src/llm/embedded/errors.js";
import * as llm from "../src/llm/errors.js";
import * as orchestrator from "../src/orchestrator/errors.js";
import * as rubrics from "../src/rubrics/errors.js";
import * as scoring from "../src/scoring/errors.js";
import * as store from "../src/store/errors.js";
import * as toon from "../src/toon/errors.js";

const FOLDERS = {
  blueprints,
  checks,
  cli,
  context,
  criteria,
  desk,
  embedded,
  engine,
  graph,
  judge,
  llm,
  orchestrator,
  rubrics,
  scoring,
  store,
  toon,
};

const model = { provider: "ollama", model: "m", baseUrl: "http://127.0.0.1:1" };

/**
 * One error of every code, made the way the source makes it, with the class it is thrown as:
 * written here by hand.
 */
const EXPECTED: ReadonlyArray<readonly [string, () => unknown, string]> = [
  [
    "FunctionResolutionError",
    () => new checks.FunctionResolutionError("f", []),
    "FUNCTION_UNRESOLVED",
  ],
  [
    "CheckError",
    () => checks.criterionMethodMismatch("c", "llm", "function"),
    "CRITERION_METHOD_MISMATCH",
  ],
  ["CheckError", () => checks.schemaUnreadable("s", "/s.json", "missing"), "SCHEMA_UNREADABLE"],
  ["CliError", () => new cli.CliError("bad"), "COMMAND_INVALID"],
  [
    "InputFileError",
    () => new cli.InputFileError("content file", "a.md", "missing"),
    "INPUT_FILE_UNREADABLE",
  ],
  ["OutputFileError", () => new cli.OutputFileError("r.json", "denied"), "OUTPUT_FILE_UNWRITABLE"],
  [
    "ModelNotReadyError",
    () => new cli.ModelNotReadyError("model-failed", { model: "m", baseUrl: undefined }, "down"),
    "MODEL_NOT_READY",
  ],
  ["EditorError", () => new cli.EditorError("vi", "failed"), "EDITOR_FAILED"],
  [
    "RunSettingsFileError",
    () => new cli.RunSettingsFileError("r.json", "not JSON"),
    "RUN_SETTINGS_INVALID",
  ],
  ["ContextError", () => context.documentsUnreadable("docs", "missing"), "DOCUMENTS_UNREADABLE"],
  ["ContextError", () => context.embeddingInvalid("no vectors"), "EMBEDDING_INVALID"],
  ["CatalogError", () => new criteria.CatalogError("bad", { source: "c.toon" }), "CATALOG_INVALID"],
  ["CatalogError", () => criteria.catalogNotFound("c.toon"), "CATALOG_NOT_FOUND"],
  ["EvaluationError", () => new engine.EvaluationError("input", "empty"), "EVALUATION_FAILED"],
  [
    "EvaluationModelError",
    () => new engine.EvaluationModelError(new llm.ModelTimeoutError(5, model), ["c1"]),
    "EVALUATION_MODEL_FAILED",
  ],
  ["ProjectError", () => new engine.ProjectError("p", "/p", "bad"), "PROJECT_INVALID"],
  ["ProjectError", () => engine.projectNotFound("p", "/p"), "PROJECT_NOT_FOUND"],
  ["ProjectError", () => engine.emptyProject("p", "/p"), "PROJECT_EMPTY"],
  ["ProjectError", () => engine.invalidProjectId("..", "/"), "PROJECT_ID_INVALID"],
  ["GraphError", () => graph.statePathError("x", "unknown"), "STATE_PATH_INVALID"],
  [
    "GraphError",
    () => new graph.GraphError("DEPENDENCY_MAP_INVALID", "bad map"),
    "DEPENDENCY_MAP_INVALID",
  ],
  ["GraphError", () => new graph.GraphError("RFP_UNREADABLE", "no rfp"), "RFP_UNREADABLE"],
  ["GraphError", () => graph.nothingEvaluated([]), "NOTHING_EVALUATED"],
  [
    "GraphError",
    () => new graph.GraphError("GENERATION_OUTPUT_INVALID", "empty"),
    "GENERATION_OUTPUT_INVALID",
  ],
  ["JudgeError", () => new judge.JudgeError("bad"), "JUDGE_FAILED"],
  ["JudgeError", () => judge.promptInvalid("bad"), "JUDGE_PROMPT_INVALID"],
  [
    "PromptTemplateError",
    () => new judge.PromptTemplateError("x", ["content"], {}),
    "PROMPT_PLACEHOLDER_UNKNOWN",
  ],
  ["BlueprintError", () => new blueprints.BlueprintError("b.json", "bad"), "BLUEPRINT_INVALID"],
  ["UnjudgedMethodError", () => new judge.UnjudgedMethodError("function", {}), "METHOD_NOT_JUDGED"],
  ["ModelTimeoutError", () => new llm.ModelTimeoutError(5, model), "MODEL_TIMEOUT"],
  [
    "ModelRateLimitError",
    () => new llm.ModelRateLimitError(undefined, "slow down", model),
    "MODEL_RATE_LIMITED",
  ],
  [
    "ModelUnavailableError",
    () => new llm.ModelUnavailableError("unknown", "down", model),
    "MODEL_UNAVAILABLE",
  ],
  [
    "ModelRequestError",
    () => new llm.ModelRequestError(400, "bad", model),
    "MODEL_REQUEST_REJECTED",
  ],
  [
    "ModelContentPolicyError",
    () => new llm.ModelContentPolicyError("refused", model),
    "MODEL_CONTENT_POLICY",
  ],
  [
    "ModelResponseError",
    () => new llm.ModelResponseError("empty", model),
    "MODEL_RESPONSE_UNUSABLE",
  ],
  ["ModelAbortedError", () => new llm.ModelAbortedError(model), "MODEL_CALL_CANCELLED"],
  [
    "ProviderUnavailableError",
    () => new llm.ProviderUnavailableError("@langchain/x", "missing", model),
    "PROVIDER_UNAVAILABLE",
  ],
  ["ModelSpecError", () => new llm.ModelSpecError("x", "bad"), "MODEL_SPEC_INVALID"],
  [
    "UnknownProviderError",
    () => new llm.UnknownProviderError("x:m", "x", ["ollama"]),
    "MODEL_PROVIDER_UNKNOWN",
  ],
  [
    "ModelOptionsError",
    () => new llm.ModelOptionsError("timeoutMs", "must be positive"),
    "MODEL_OPTIONS_INVALID",
  ],
  [
    "OrchestratorError",
    () => new orchestrator.OrchestratorError("t", "failed"),
    "ORCHESTRATOR_FAILED",
  ],
  ["OrchestratorError", () => orchestrator.threadNotFound("t"), "CHECKPOINT_NOT_FOUND"],
  ["OrchestratorError", () => orchestrator.threadExists("t"), "THREAD_EXISTS"],
  ["ForeignThreadError", () => new orchestrator.ForeignThreadError("t", ["x"]), "THREAD_FOREIGN"],
  ["OrchestratorError", () => orchestrator.invalidThreadId(" "), "THREAD_ID_INVALID"],
  [
    "ThreadNotPausedError",
    () => new orchestrator.ThreadNotPausedError("t", { kind: "completed" }),
    "THREAD_NOT_PAUSED",
  ],
  [
    "InterruptMismatchError",
    () => new orchestrator.InterruptMismatchError("t", "a", ["b"]),
    "INTERRUPT_MISMATCH",
  ],
  [
    "InvalidDecisionError",
    () => new orchestrator.InvalidDecisionError("t", []),
    "DECISION_INVALID",
  ],
  [
    "OrchestratorError",
    () => new orchestrator.OrchestratorError("t", "node failed", { code: "GRAPH_RUN_FAILED" }),
    "GRAPH_RUN_FAILED",
  ],
  [
    "OrchestratorError",
    () => new orchestrator.OrchestratorError("t", "bad state", { code: "THREAD_STATE_INVALID" }),
    "THREAD_STATE_INVALID",
  ],
  [
    "CheckpointerError",
    () => new orchestrator.CheckpointerError("db.sqlite", "locked"),
    "CHECKPOINTER_UNAVAILABLE",
  ],
  ["ScoringError", () => new scoring.ScoringError("bad", {}), "SCORING_FAILED"],
  [
    "ScoringError",
    () => new scoring.ScoringError("bad", {}, { code: "SCALE_INVALID" }),
    "SCALE_INVALID",
  ],
  ["UnknownLevelError", () => new scoring.UnknownLevelError("x", ["a"], {}), "LEVEL_UNKNOWN"],
  [
    "ScoringError",
    () => new scoring.ScoringError("bad", {}, { code: "CORRECTION_INVALID" }),
    "CORRECTION_INVALID",
  ],
  [
    "ScoringError",
    () => new scoring.ScoringError("bad", {}, { code: "RESULT_INCONSISTENT" }),
    "RESULT_INCONSISTENT",
  ],
  [
    "ScoringError",
    () => new scoring.ScoringError("bad", {}, { code: "CRITERION_RESULTS_MISMATCH" }),
    "CRITERION_RESULTS_MISMATCH",
  ],
  ["ToonError", () => new toon.ToonError("bad", { line: 1 }), "TOON_INVALID"],
  ["RubricError", () => rubrics.rubricNotFound("r"), "RUBRIC_NOT_FOUND"],
  [
    "RubricConfigError",
    () => new rubrics.RubricConfigError("r.json", "bad"),
    "RUBRIC_CONFIG_INVALID",
  ],
  ["RubricError", () => rubrics.artifactNotFound("a"), "ARTIFACT_NOT_FOUND"],
  ["RubricError", () => rubrics.artifactReviewFailed("a", "no rubric"), "ARTIFACT_REVIEW_FAILED"],
  [
    "GraphError",
    () => new graph.GraphError("RESUME_INVALID", "the review answer is refused"),
    "RESUME_INVALID",
  ],
  ["DeskError", () => desk.unknownThread("t"), "THREAD_NOT_FOUND"],
  [
    "DeskError",
    () =>
      desk.alreadyDecided("t", "i", {
        by: "a",
        at: "now",
        action: "approve",
        decisionId: "d",
      }),
    "ALREADY_DECIDED",
  ],
  ["DeskError", () => desk.threadNotFailed("t", "waiting"), "THREAD_NOT_FAILED"],
  [
    "EmbeddedRuntimeError",
    () => new embedded.EmbeddedRuntimeError("no binary for this platform"),
    "EMBEDDED_RUNTIME_UNAVAILABLE",
  ],
  [
    "ModelFileError",
    () => new embedded.ModelFileError("model.gguf", "not a GGUF file"),
    "MODEL_FILE_UNUSABLE",
  ],
  [
    "ModelDownloadError",
    () => new embedded.ModelDownloadError("stalled", "https://models.example/m.gguf", "stalled"),
    "MODEL_DOWNLOAD_FAILED",
  ],
  [
    "JudgeError",
    () => new judge.JudgeError("bad", { line: 2 }, { code: "PROMPT_TEMPLATE_INVALID" }),
    "PROMPT_TEMPLATE_INVALID",
  ],
  [
    "GraphError",
    () => new graph.GraphError("RESUME_WITHOUT_PAUSE", "not paused"),
    "RESUME_WITHOUT_PAUSE",
  ],
  ["GraphError", () => graph.runSettingsChanged("t", ["passingThreshold"]), "RUN_SETTINGS_CHANGED"],
  ["DeskError", () => desk.unauthenticated(), "UNAUTHENTICATED"],
  ["DeskError", () => desk.forbidden("assign reviewers", "bo"), "FORBIDDEN"],
  ["DeskError", () => desk.notAssigned("t", "bo"), "NOT_ASSIGNED"],
  ["DeskError", () => desk.invalidInput("cursor", "unknown"), "INVALID_INPUT"],
  ["DeskError", () => desk.reviewNotPending("t", "i", []), "REVIEW_NOT_PENDING"],
  ["DeskError", () => desk.actionNotOffered("revise", ["approve"]), "ACTION_NOT_OFFERED"],
  ["StoreError", () => store.storeOpenFailed("r.sqlite", "missing"), "STORE_OPEN_FAILED"],
  ["StoreError", () => store.storeDataInvalid("bad row"), "STORE_DATA_INVALID"],
  ["StoreError", () => store.reviewerExists("ana"), "REVIEWER_EXISTS"],
];

/** A class whose instances are errors (what a folder's errors module exports). */
type ErrorClass = abstract new (...args: never[]) => Error;

function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === "function" && value.prototype instanceof Error;
}

/** Every class a folder's errors module exports (anything whose prototype is an Error's). */
function exportedErrorClasses(): Array<[string, ErrorClass]> {
  const classes: Array<[string, ErrorClass]> = [];
  for (const module of Object.values(FOLDERS)) {
    for (const [name, value] of Object.entries(module)) {
      if (isErrorClass(value)) classes.push([name, value]);
    }
  }
  return classes;
}

describe("every error class", () => {
  it.each(EXPECTED)("%s is an EvalgateError with the code %s", (name, make, code) => {
    const error = make();
    expect(error).toBeInstanceOf(EvalgateError);
    expect((error as object).constructor.name).toBe(name);
    expect(isEvalgateError(error, code)).toBe(true);
  });

  it("has a code of its own: no two rows share one", () => {
    const codes = EXPECTED.map(([, make]) => (make() as EvalgateError).code);
    expect(codes.every((code) => code.length > 0)).toBe(true);
    expect(new Set(codes).size).toBe(EXPECTED.length);
  });

  it("exported by a folder extends EvalgateError", () => {
    const classes = exportedErrorClasses();
    // Every class written down above is exported by its folder (and there are no fewer).
    const exported = new Set(classes.map(([name]) => name));
    expect(EXPECTED.filter(([name]) => !exported.has(name))).toEqual([]);
    for (const [name, cls] of classes) {
      expect({ name, base: cls.prototype instanceof EvalgateError }).toEqual({ name, base: true });
    }
  });

  it.each(EXPECTED)("%s is known by its code alone, not by a look-alike", (_name, make, code) => {
    const error = make() as EvalgateError;
    const lookAlike = Object.assign(new Error(error.message), { code });
    expect(isEvalgateError(error, code)).toBe(true);
    expect(isEvalgateError(lookAlike, code)).toBe(false);
  });
});

describe("the guards", () => {
  it("hold for a family: a subclass passes its base's guard, another family does not", () => {
    expect(orchestrator.isOrchestratorError(orchestrator.threadNotFound("t"))).toBe(true);
    expect(llm.isModelCallError(new llm.ModelTimeoutError(5, model))).toBe(true);
    expect(llm.isModelCallError(new llm.ModelSpecError("x", "bad"))).toBe(false);
    expect(criteria.isCatalogError(criteria.catalogNotFound("c.toon"))).toBe(true);
    expect(criteria.isCatalogNotFoundError(new criteria.CatalogError("bad", { source: "c" }))).toBe(
      false,
    );
    expect(
      scoring.isScoringError(new scoring.ScoringError("bad", {}, { code: "SCALE_INVALID" })),
    ).toBe(true);
    expect(scoring.isCorrectionInvalidError(new scoring.ScoringError("bad", {}))).toBe(false);
  });

  it("hold for an error made in another realm (another copy of the package), unlike instanceof", () => {
    const foreign = runInNewContext(`
      class ThreadNotFoundError extends Error {
        constructor(threadId) {
          super('thread "' + threadId + '": no such thread in the checkpointer');
          this.name = "ThreadNotFoundError";
          this.code = "CHECKPOINT_NOT_FOUND";
          this.threadId = threadId;
          this[Symbol.for("evalgate.error")] = true;
        }
      }
      new ThreadNotFoundError("t1");
    `) as unknown;
    expect(foreign instanceof Error).toBe(false);
    expect(foreign instanceof orchestrator.OrchestratorError).toBe(false);
    expect(isEvalgateError(foreign)).toBe(true);
    expect(orchestrator.isThreadNotFoundError(foreign)).toBe(true);
    expect(orchestrator.isOrchestratorError(foreign)).toBe(true);
  });

  it("do not take a look-alike without the brand, nor a branded error of another code", () => {
    const lookAlike = Object.assign(new Error("x"), { code: "CHECKPOINT_NOT_FOUND" });
    expect(isEvalgateError(lookAlike)).toBe(false);
    expect(orchestrator.isThreadNotFoundError(lookAlike)).toBe(false);
    expect(orchestrator.isThreadNotFoundError(new toon.ToonError("bad", { line: 1 }))).toBe(false);
    // A structured clone keeps the message but not the brand: it is a plain Error again.
    const cloned = structuredClone(orchestrator.threadNotFound("t1"));
    expect(cloned.message).toBe('thread "t1": no such thread in the checkpointer');
    expect(isEvalgateError(cloned)).toBe(false);
    for (const value of [undefined, null, "THREAD_NOT_FOUND", 42, {}]) {
      expect(isEvalgateError(value)).toBe(false);
    }
  });
});

describe("a message as users see it", () => {
  it("ends with the code in square brackets, once", () => {
    expect(withErrorCode("no thread t1", "THREAD_NOT_FOUND")).toBe(
      "no thread t1 [THREAD_NOT_FOUND]",
    );
    expect(withErrorCode("no thread t1 [THREAD_NOT_FOUND]", "THREAD_NOT_FOUND")).toBe(
      "no thread t1 [THREAD_NOT_FOUND]",
    );
    expect(withErrorCode("", "INTERNAL")).toBe("[INTERNAL]");
    // Brackets inside the text are text: only a code at the very end counts as one.
    expect(withErrorCode("Timeline [timeline] is late", "COMMAND_INVALID")).toBe(
      "Timeline [timeline] is late [COMMAND_INVALID]",
    );
    expect(withErrorCode("[ALREADY_DECIDED] then more", "COMMAND_INVALID")).toBe(
      "[ALREADY_DECIDED] then more [COMMAND_INVALID]",
    );
  });

  it("has a code only when the error is evalgate's", () => {
    expect(userMessage(new toon.ToonError("bad", { line: 2 }))).toBe("line 2: bad [TOON_INVALID]");
    expect(userMessage(new TypeError("boom"))).toBe("boom");
    expect(userMessage("plain text")).toBe("plain text");
  });

  it("of a desk refusal on the command line keeps the refusal's code, not the command's", () => {
    const refusal = desk.alreadyDecided("t", "i", {
      by: "ana",
      at: "2025-01-02T03:04:05Z",
      action: "approve",
      decisionId: "d",
    });
    const asCommand = deskRefusal(refusal);
    expect(asCommand?.code).toBe("COMMAND_INVALID");
    expect(commandError(asCommand, "/").message).toBe(
      "the review was decided already: approve by ana at 2025-01-02T03:04:05Z [ALREADY_DECIDED]",
    );
    expect(deskRefusal(new Error("not a refusal"))).toBeUndefined();
  });
});

/** Every .ts/.tsx file under a folder, read whole. */
function sourceTexts(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((name) => /\.tsx?$/.test(name))
    .map((name) => readFileSync(join(folder, name), "utf8"));
}

/**
 * The codes the source gives an error, found in its text: `super("CODE", …)`, a code handed first
 * to a family that takes it first (`new GraphError("CODE", …)`), a family error's
 * `{ code: "CODE" }` option or default (`options.code ?? "CODE"`), and the codes a family lists
 * (`GRAPH_ERROR_CODES = [ … ]`).
 */
function codesInSource(): Set<string> {
  const given =
    /(?:super|new (?:Evalgate|ServiceRequest|Desk|Graph|Store|Rubric|Check|Context)Error)\(\s*"([A-Z][A-Z0-9_]+)"|\bcode(?: =|:) "([A-Z][A-Z0-9_]+)"|\.code \?\? "([A-Z][A-Z0-9_]+)"/g;
  const listed = /_ERROR_CODES = \[([^\]]*)\]/g;
  const codes = new Set<string>();
  for (const text of sourceTexts(join(import.meta.dirname, "..", "src"))) {
    for (const match of text.matchAll(given)) codes.add(match[1] ?? match[2] ?? match[3] ?? "");
    for (const [, list = ""] of text.matchAll(listed)) {
      for (const [, code = ""] of list.matchAll(/"([A-Z][A-Z0-9_]+)"/g)) codes.add(code);
    }
  }
  return codes;
}

/** The codes docs/errors.md lists: the first cell of a table row, in backticks. */
function documentedCodes(): string[] {
  const page = readFileSync(join(import.meta.dirname, "..", "docs", "errors.md"), "utf8");
  return [...page.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1] ?? "");
}

describe("docs/errors.md", () => {
  it("lists every code the source gives an error", () => {
    const documented = new Set(documentedCodes());
    expect([...codesInSource()].filter((code) => !documented.has(code))).toEqual([]);
  });

  it("lists no code the source does not have, and each code once", () => {
    const known = codesInSource();
    const documented = documentedCodes();
    expect(documented.filter((code) => !known.has(code))).toEqual([]);
    expect(documented.filter((code, i) => documented.indexOf(code) !== i)).toEqual([]);
    // A sanity floor, so a table format the pattern no longer reads cannot pass empty.
    expect(documented.length).toBeGreaterThanOrEqual(EXPECTED.length);
  });
});
