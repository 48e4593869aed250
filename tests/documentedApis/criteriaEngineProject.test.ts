/**
 * CriteriaEngine.evaluateProject's deterministic criteria read the project's documents: each under
 * a `==> name <==` line, in name order, held to the content budget. A schema criterion, which
 * checks one JSON value, cannot check a project and says why.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CriteriaEngine } from "../../src/engine/apis/criteriaEngine.js";
import { ContentTooLargeError } from "../../src/engine/errors.js";
import { ScriptedChatModel } from "../doubles/index.js";

/** Two documents: the port is named only in the second, the sensors only in the first. */
const TEAM = "The sensor team works in Kiel."; // 6 words
const PLAN = "Pilot quay in the Port of Hamburg, budget approved."; // 9 words

function criterion(id: string, weight: number, name: string, args: unknown) {
  return {
    id,
    title: id,
    description: `The ${id} check`,
    weight,
    method: { kind: "function", name, args },
  };
}

/** Words: 6 + 9 of text, and 3 ("==>", the name, "<==") for each of the two name lines. */
const PROJECT_WORDS = 6 + 9 + 3 + 3;

const CATALOG = {
  id: "project-checks",
  name: "Project checks",
  version: "1",
  criteria: [
    criterion("port", 2, "contains", "Port of Hamburg"),
    criterion("topics", 1, "matches_all_of", ["sensor", "budget", "patent"]),
    criterion("length", 1, "word_count_between", [PROJECT_WORDS, PROJECT_WORDS]),
  ],
};

let dataDir: string;
let catalogPath: string;
let schemaCatalogPath: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "evalgate-project-checks-"));
  const project = join(dataDir, "quay-pilot");
  await mkdir(project);
  // Written in the reverse of name order: the text is joined in name order all the same.
  await writeFile(join(project, "02-plan.md"), PLAN);
  await writeFile(join(project, "01-team.md"), TEAM);
  catalogPath = join(dataDir, "checks.json");
  await writeFile(catalogPath, JSON.stringify(CATALOG));
  schemaCatalogPath = join(dataDir, "schema.json");
  const schemaCriterion = {
    id: "shape",
    title: "Shape",
    description: "The content is a JSON object",
    weight: 1,
    method: { kind: "schema", schema: { type: "object" } },
  };
  await writeFile(
    schemaCatalogPath,
    JSON.stringify({ ...CATALOG, criteria: [CATALOG.criteria[0], schemaCriterion] }),
  );
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe("CriteriaEngine.evaluateProject's deterministic criteria", () => {
  it("read the documents' text: a word in one document is found, the words are counted", async () => {
    const model = new ScriptedChatModel();
    const engine = new CriteriaEngine({ model, dataDir });
    const result = await engine.evaluateProject("quay-pilot", catalogPath);

    expect(model.calls).toHaveLength(0);
    const byId = new Map(result.criteria.map((c) => [c.id, c]));
    expect(byId.get("port")).toMatchObject({ evaluated: true, score: 1, met: true });
    // "sensor" (01-team.md) and "budget" (02-plan.md), not "patent": 2 of 3.
    expect(byId.get("topics")?.score).toBeCloseTo(2 / 3, 10);
    expect(byId.get("length")).toMatchObject({ evaluated: true, score: 1, met: true });
    // (2·1 + 1·2/3 + 1·1) / 4 = 11/12.
    expect(result.overallScore).toBeCloseTo(11 / 12, 3);
  });

  it("score lower when the word is in no document", async () => {
    const project = join(dataDir, "inland-pilot");
    await mkdir(project);
    await writeFile(join(project, "01-team.md"), TEAM);
    await writeFile(
      join(project, "02-plan.md"),
      "Pilot site in the Port of Bremen, budget approved.",
    );
    const engine = new CriteriaEngine({ model: new ScriptedChatModel(), dataDir });
    const result = await engine.evaluateProject("inland-pilot", catalogPath);

    expect(result.criteria.find((c) => c.id === "port")).toMatchObject({ score: 0, met: false });
    // (2·0 + 1·2/3 + 1·1) / 4 = 5/12: the missing port costs 2 of 4 weights.
    expect(result.overallScore).toBeCloseTo(5 / 12, 3);
  });

  it("leave a schema criterion a check error naming the folder, the others evaluated", async () => {
    const engine = new CriteriaEngine({ model: new ScriptedChatModel(), dataDir });
    const result = await engine.evaluateProject("quay-pilot", schemaCatalogPath);

    const shape = result.criteria.find((c) => c.id === "shape");
    expect(shape?.evaluated).toBe(false);
    expect(shape?.score).toBeNull();
    expect(shape?.met).not.toBe(true);
    expect(shape?.judgeError).toContain("checks JSON content");
    expect(shape?.judgeError).toContain(join(dataDir, "quay-pilot"));
    expect(result.criteria.find((c) => c.id === "port")?.score).toBe(1);
    expect(result.notEvaluated).toEqual(["shape"]);
    expect(result.passed).toBe(false);
  });

  it("refuse documents over the content budget, naming the folder, with no model call", async () => {
    const model = new ScriptedChatModel();
    // The joined text: two name lines and the documents, one blank line between.
    const joined = `==> 01-team.md <==\n${TEAM}\n\n==> 02-plan.md <==\n${PLAN}`;
    const size = Buffer.byteLength(joined);
    const engine = new CriteriaEngine({ model, dataDir, maxContentBytes: size - 1 });
    const error = await engine.evaluateProject("quay-pilot", catalogPath).catch((e) => e);

    expect(error).toBeInstanceOf(ContentTooLargeError);
    expect(error.message).toContain(join(dataDir, "quay-pilot"));
    expect(error.message).toContain(`${size} bytes`);
    expect(model.calls).toHaveLength(0);
    // At exactly its size, the same text is judged.
    const fits = new CriteriaEngine({ model, dataDir, maxContentBytes: size });
    expect((await fits.evaluateProject("quay-pilot", catalogPath)).criteria).toHaveLength(3);
  });
});
