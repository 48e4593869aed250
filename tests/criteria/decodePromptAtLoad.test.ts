/**
 * A levels rubric's decode prompt (a Liquid template with Jinja's forms) is checked when the
 * rubric is loaded: a syntax error or a tag that would read other files stops the load with the
 * file, the line of the prompt in it and the line inside the template — before any model is asked.
 */
import { describe, expect, it } from "vitest";
import { isCatalogError } from "../../src/criteria/errors.js";
import { loadCatalog } from "../../src/criteria/load.js";
import { parseCatalog } from "../../src/criteria/parse.js";
import { RubricExecutor } from "../../src/engine/apis/rubricExecutor.js";
import { runEvalgate, SPAWN_TIMEOUT, tempFolderForFile, writeText } from "../cli/helpers.js";
import { ScriptedChatModel } from "../doubles/index.js";

const LEVELS = [
  { id: "poor", label: "Poor", description: "Recall only", score: 0 },
  { id: "good", label: "Good", description: "Asks why", score: 1 },
];

function rubric(decodePrompt: string) {
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
        scoring_method: { type: "schema", schema: { type: "object", required: ["questions"] } },
      },
      {
        id: "pedagogy",
        name: "Pedagogy",
        description: "Questions test understanding",
        weight: 0.5,
        levels: LEVELS,
        scoring_method: { type: "llm_decode", decode_prompt: decodePrompt },
      },
    ],
  };
}

/** Line 2 of the template opens an `if` without a condition. */
const BROKEN = "Judge these questions:\n{% if %}\n{{ questions }}";
const READS_FILES = 'Judge:\n  {% include "/etc/passwd" %}';
const GOOD = "Judge these questions:\n{% for q in questions %}- {{ q }}\n{% endfor %}";

const folder = tempFolderForFile();

async function loadFailure(text: string) {
  const path = await writeText(folder.dir, `r${Math.random().toString(36).slice(2)}.json`, text);
  const failure = await loadCatalog(path).then(
    () => undefined,
    (error: unknown) => error,
  );
  return { path, failure };
}

describe("decode prompts are checked when a rubric is loaded", () => {
  it("a syntax error: a CatalogError naming the file, the prompt's line and the template's line", async () => {
    const text = JSON.stringify(rubric(BROKEN), null, 2);
    const { path, failure } = await loadFailure(text);
    expect(isCatalogError(failure)).toBe(true);
    if (!isCatalogError(failure)) return;
    expect(failure.source).toBe(path);
    expect(failure.path).toEqual(["criteria", 1, "scoring_method", "decode_prompt"]);
    const promptLine = text.split("\n").findIndex((l) => l.includes('"decode_prompt"')) + 1;
    expect(failure.line).toBe(promptLine);
    expect(failure.detail).toContain('criterion "pedagogy"');
    expect(failure.detail).toContain("template line 2");
  });

  it("a tag that would read another file is refused at load, with its line and column", async () => {
    const { failure } = await loadFailure(JSON.stringify(rubric(READS_FILES)));
    expect(isCatalogError(failure)).toBe(true);
    if (!isCatalogError(failure)) return;
    expect(failure.detail).toContain("'include' is not allowed");
    expect(failure.detail).toContain("template line 2, column 3");
  });

  it("a rubric given as a value to the executor fails before any model call", async () => {
    const llm = new ScriptedChatModel({ responder: () => '{"level_id":"good"}' });
    const executor = new RubricExecutor({ llm });
    const failure = await executor.evaluate(rubric(BROKEN), { questions: ["Why?"] }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isCatalogError(failure)).toBe(true);
    expect(llm.calls).toHaveLength(0);
  });

  it("a TOON rubric names the same problem", () => {
    const toon = [
      "id: quiz",
      "name: Quiz",
      "version: 1.0.0",
      "pass_threshold: 0.5",
      "criteria[1]:",
      "  - id: pedagogy",
      "    name: Pedagogy",
      "    description: Questions test understanding",
      "    weight: 1",
      "    levels[2]{id,label,description,score}:",
      "      poor,Poor,Recall only,0",
      "      good,Good,Asks why,1",
      "    scoring_method:",
      "      type: llm_decode",
      '      decode_prompt: "Judge {% for q in questions %}{{ q }}"',
    ].join("\n");
    const failure = (() => {
      try {
        parseCatalog(toon, { format: "toon", source: "quiz.toon" });
      } catch (error) {
        return error;
      }
    })();
    expect(isCatalogError(failure)).toBe(true);
    if (!isCatalogError(failure)) return;
    expect(failure.detail).toContain("decode prompt cannot be used");
    expect(failure.line).toBe(15);
  });

  it("a good template loads", async () => {
    const path = await writeText(folder.dir, "good.json", JSON.stringify(rubric(GOOD)));
    const catalog = await loadCatalog(path);
    const method = catalog.criteria[1]?.method;
    expect(method?.kind === "levels" && method.decodePrompt).toBe(GOOD);
  });

  it(
    "evalgate catalog validate reports it and exits 1",
    async () => {
      const path = await writeText(folder.dir, "broken.json", JSON.stringify(rubric(BROKEN)));
      const run = await runEvalgate(["catalog", "validate", path]);
      expect(run.code).toBe(1);
      expect(`${run.stdout}${run.stderr}`).toContain("decode prompt cannot be used");
      expect(`${run.stdout}${run.stderr}`).toContain("template line 2");
    },
    SPAWN_TIMEOUT,
  );
});
