/**
 * A catalog's JSON Schemas (a schema criterion's inline schema or schema_ref file, a levels
 * criterion's decode_output_schema) are compiled when the catalog loads: one that cannot run stops
 * the load with a CatalogError naming the file, the criterion and the problem.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCatalogError } from "../../src/criteria/errors.js";
import { loadCatalog } from "../../src/criteria/load.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import {
  JUDGE_MODEL,
  judgeEnv,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "../cli/helpers.js";
import { type OllamaServer, ScriptedChatModel, startOllamaServer } from "../doubles/index.js";

const LEVELS = [
  { id: "poor", label: "Poor", description: "Recall only", score: 0 },
  { id: "good", label: "Good", description: "Asks why", score: 1 },
];

type ScoringMethod = Record<string, unknown>;

function quizRubric(shape: ScoringMethod, pedagogy: ScoringMethod = { type: "llm_decode" }) {
  return {
    id: "quiz_pedagogy",
    name: "Quiz Pedagogy",
    version: "1.0.0",
    pass_threshold: 0.5,
    criteria: [
      {
        id: "shape",
        name: "Shape",
        description: "Questions are a list",
        weight: 0.5,
        levels: LEVELS,
        scoring_method: shape,
      },
      {
        id: "pedagogy",
        name: "Pedagogy",
        description: "Questions test understanding",
        weight: 0.5,
        levels: LEVELS,
        scoring_method: pedagogy,
      },
    ],
  };
}

const UNKNOWN_KEYWORD = {
  type: "schema",
  schema: { type: "object", properties: { questions: { type: "array", minItem: 1 } } },
};

const folder = tempFolderForFile();

async function loadFailure(value: unknown, files: Record<string, string> = {}) {
  for (const [name, text] of Object.entries(files)) await writeText(folder.dir, name, text);
  const name = `r${Math.random().toString(36).slice(2)}.json`;
  const path = await writeText(folder.dir, name, JSON.stringify(value, null, 2));
  const failure = await loadCatalog(path).then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isCatalogError(failure)) throw new Error(`expected a CatalogError, got ${String(failure)}`);
  return { path, failure };
}

describe("JSON Schemas are compiled when a catalog is loaded", () => {
  it("an unknown keyword in an inline schema: the file, the criterion, the keyword and the path", async () => {
    const { path, failure } = await loadFailure(quizRubric(UNKNOWN_KEYWORD));
    expect(failure.code).toBe("CATALOG_INVALID");
    expect(failure.source).toBe(path);
    expect(failure.path).toEqual(["criteria", 0, "scoring_method", "schema"]);
    expect(failure.line).toBeGreaterThan(1);
    expect(failure.detail).toBe(
      'criterion "shape": its JSON Schema cannot be used: strict mode: unknown keyword: "minItem"',
    );
  });

  it("a pattern RE2 cannot run (a backreference) and an invalid schema are refused", async () => {
    const backreference = await loadFailure(
      quizRubric({ type: "schema", schema: { type: "string", pattern: "(\\w+) \\1" } }),
    );
    expect(backreference.failure.detail).toContain('criterion "shape"');
    expect(backreference.failure.detail).toContain('backreference "\\\\1" is not supported');

    const invalid = await loadFailure(
      quizRubric({ type: "schema", schema: { type: "object", minProperties: -1 } }),
    );
    expect(invalid.failure.detail).toMatch(
      /^criterion "shape": its JSON Schema cannot be used: schema is invalid: .*minProperties/,
    );
  });

  it("a schema_ref file is read and compiled at load", async () => {
    const bad = JSON.stringify({ type: "object", required: ["questions"], additionalItem: false });
    const { failure } = await loadFailure(
      quizRubric({ type: "schema", schema_ref: "bad.schema.json" }),
      { "bad.schema.json": bad },
    );
    expect(failure.path).toEqual(["criteria", 0, "scoring_method", "schema_ref"]);
    expect(failure.detail).toBe(
      'criterion "shape": its JSON Schema file "bad.schema.json" cannot be used: strict mode: unknown keyword: "additionalItem"',
    );

    const notJson = await loadFailure(quizRubric({ type: "schema", schema_ref: "cut.json" }), {
      "cut.json": '{"type": "obj',
    });
    expect(notJson.failure.detail).toMatch(
      /^criterion "shape": its JSON Schema file "cut.json" cannot be used: line 1, column \d+: invalid JSON/,
    );
  });

  it("a decode_output_schema that cannot run is refused, on the criterion that has it; good ones load", async () => {
    const { failure } = await loadFailure(
      quizRubric(
        { type: "schema", schema: { type: "object" } },
        {
          type: "llm_decode",
          decode_output_schema: { type: "object", properties: { level_id: { type: "strin" } } },
        },
      ),
    );
    expect(failure.path).toEqual(["criteria", 1, "scoring_method", "decode_output_schema"]);
    expect(failure.detail).toMatch(
      /^criterion "pedagogy": its decode_output_schema cannot be used: schema is invalid: .*type/,
    );

    const good = {
      type: "object",
      required: ["questions"],
      properties: { questions: { type: "array", minItems: 1 } },
    };
    await writeText(folder.dir, "good.schema.json", JSON.stringify(good));
    const path = await writeText(
      folder.dir,
      "good.json",
      JSON.stringify(
        quizRubric(
          { type: "schema", schema_ref: "good.schema.json" },
          {
            type: "llm_decode",
            decode_output_schema: { type: "object", properties: { level_id: { type: "string" } } },
          },
        ),
      ),
    );
    const catalog = await loadCatalog(path);
    expect(catalog.criteria.map((c) => c.method.kind)).toEqual(["schema", "levels"]);
  });

  it("a rubric given as a value to the executor fails before any model call", async () => {
    const llm = new ScriptedChatModel({ responder: () => '{"reasoning":"ok","level_id":"good"}' });
    const executor = new RubricExecutor({ llm });
    const failure = await executor
      .evaluate(quizRubric(UNKNOWN_KEYWORD), { questions: ["Why?"] })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(isCatalogError(failure)).toBe(true);
    if (isCatalogError(failure)) expect(failure.detail).toContain('unknown keyword: "minItem"');
    expect(llm.calls).toHaveLength(0);
  });
});

describe("the command line refuses a catalog whose JSON Schema cannot run", () => {
  let server: OllamaServer;
  beforeAll(async () => {
    server = await startOllamaServer({
      models: [JUDGE_MODEL],
      responder: () => '{"reasoning":"The questions ask why.","level_id":"good"}',
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    "evalgate catalog validate: exit 1, the finding names the criterion and the problem",
    async () => {
      const path = await writeText(
        folder.dir,
        "typo.json",
        JSON.stringify(quizRubric(UNKNOWN_KEYWORD)),
      );
      const run = await runEvalgate(["catalog", "validate", path, "--json"]);
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as {
        valid: boolean;
        findings: Array<{ severity: string; check: string; message: string }>;
      };
      expect(report.valid).toBe(false);
      expect(report.findings[0]).toMatchObject({
        severity: "error",
        check: "json_schema",
        message:
          'criterion "shape": its JSON Schema cannot be used: strict mode: unknown keyword: "minItem"',
      });
    },
    SPAWN_TIMEOUT,
  );

  it(
    "evalgate evaluate: the catalog is refused (exit 2) before any model call",
    async () => {
      const catalog = await writeText(
        folder.dir,
        "backreference.json",
        JSON.stringify(
          quizRubric({
            type: "schema",
            schema: { type: "object", patternProperties: { "(a)\\1": { type: "number" } } },
          }),
        ),
      );
      const content = await writeText(folder.dir, "quiz.json", '{"questions": ["Why?"]}');
      const run = await runEvalgate(["evaluate", content, "--catalog", catalog], {
        env: judgeEnv(server.url),
      });
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("evalgate: cannot use the catalog: ");
      expect(run.stderr).toContain('criterion "shape": its JSON Schema cannot be used: pattern');
      expect(run.stderr).toContain("[CATALOG_INVALID]");
      expect(server.chatRequests()).toHaveLength(0);
    },
    SPAWN_TIMEOUT,
  );
});
