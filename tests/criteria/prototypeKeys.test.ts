/**
 * Catalogs cannot give a criterion hidden fields: a `__proto__` key (or `constructor.prototype`)
 * anywhere in JSON or TOON is refused with the file, line and path, and a key a form does not
 * know is refused instead of being dropped without a word.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CatalogError,
  formatCatalogPath,
  isCatalogError,
  loadCatalog,
  parseCatalog,
} from "../../src/criteria/index.js";
import { readRubricFile } from "../../src/rubrics/rubricConfig.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-proto-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const BANDS = {
  excellent: "Costs match the plan",
  good: "Minor gaps",
  adequate: "Some lines unexplained",
  poor: "Many lines unexplained",
  inadequate: "No budget",
};

async function refusal(name: string, text: string): Promise<CatalogError> {
  const path = join(dir, name);
  await writeFile(path, text);
  const error = await loadCatalog(path).then(
    (catalog) => new Error(`loaded: ${JSON.stringify(catalog.criteria)}`),
    (e: unknown) => e,
  );
  expect(isCatalogError(error)).toBe(true);
  if (!(error instanceof CatalogError)) throw error;
  expect(error.source).toBe(path);
  expect(error.message.startsWith(path)).toBe(true);
  return error;
}

describe("a key given twice in a JSON catalog", () => {
  it("is refused with its line and path, as TOON refuses it: the later value would silently win", async () => {
    const text = `{"name": "Budget", "version": "2", "criteria": [
  {"id": "costs", "name": "Costs", "description": "Are costs justified?", "weight": 1,
   "isCritical": true, "scoringGuidelines": ${JSON.stringify(BANDS)}, "isCritical": false}
]}`;
    const error = await refusal("twice.json", text);
    expect(error.path).toEqual(["criteria", 0, "isCritical"]);
    expect(error.line).toBe(3);
    expect(error.detail).toBe('the key "isCritical" is given twice in one object: say it once');
    const toon = "meta{id,version,program}:\nx,1,P\nmeta{id,version,program}:\ny,2,Q\n";
    expect(() => parseCatalog(toon, { format: "toon", source: "twice.toon" })).toThrow(
      /Duplicate sibling key "meta"/,
    );
  });
});

describe("prototype keys in catalogs", () => {
  it("an evaluation-criteria JSON criterion cannot make itself critical with threshold 0", async () => {
    const text = JSON.stringify(
      {
        name: "Budget",
        version: "2",
        criteria: [
          { id: "costs", name: "Costs", description: "Are costs justified?", weight: 1 },
          {
            id: "match",
            name: "Match funding",
            description: "Is the match documented?",
            weight: 1,
            marker: null,
            scoringGuidelines: BANDS,
          },
        ],
      },
      null,
      2,
    ).replace('"marker": null', '"__proto__": { "isCritical": true, "passingThreshold": 0 }');
    const error = await refusal("budget.json", text);
    expect(error.path).toEqual(["criteria", 1, "__proto__"]);
    expect(error.line).toBe(text.split("\n").findIndex((l) => l.includes("__proto__")) + 1);
    expect(error.detail).toMatch(/the key "__proto__" is not allowed/);
  });

  it("a method cannot gain a 0–100 scale through a nested __proto__", async () => {
    const text = `{"id": "n", "name": "N", "version": "1", "criteria": [
  {"id": "a", "title": "A", "description": "Is the aim clear?", "weight": 1,
   "method": {"kind": "score",
              "__proto__": {"scale": {"min": 0, "max": 100}}}}]}`;
    const error = await refusal("native.json", text);
    expect(error.line).toBe(4);
    expect(formatCatalogPath(error.path ?? [])).toBe("$.criteria[0].method.__proto__");
  });

  it("constructor.prototype in a rubric's free-form metadata is refused too", async () => {
    const text = JSON.stringify({
      name: "Quiz",
      version: "1",
      pass_threshold: 0.6,
      metadata: { owner: "exams", constructor: { prototype: { isAdmin: true } } },
      criteria: [
        {
          id: "count",
          name: "Count",
          description: "Enough questions?",
          weight: 1,
          levels: [
            { id: "low", label: "Low", score: 0 },
            { id: "ok", label: "OK", score: 1 },
          ],
          scoring_method: { type: "llm_decode" },
        },
      ],
    });
    const error = await refusal("quiz.json", text);
    expect(error.path).toEqual(["metadata", "constructor", "prototype"]);
  });

  it.each([["\\u005f_proto__"], ["\\u005F\\u005Fproto__"], ["__\\u0070roto__"]])(
    "a points list with a key spelled %s is refused",
    async (spelled) => {
      const text = `{"id": "pts", "points": ["Names the site.", {"text": "Gives dates.", "${spelled}": {"multiplier": 9}}]}`;
      const error = await refusal(`points-${spelled.length}.json`, text);
      expect(error.path).toEqual(["points", 1, "__proto__"]);
    },
  );

  it("a funding catalog in the TOON criteria dialect with a __proto__ column is refused at its row", async () => {
    const text = [
      "# catalog with a hostile column",
      "meta{id,version,program}:",
      'harbour,1.0,"Harbour Fund"',
      "",
      "criteria[2,]{id,type,weight,title,prompt,__proto__}:",
      'k1,check,1.0,"Based in the region","Is the applicant based in the region?",x',
      's1,score,1.0,"Innovation","Rate the innovation (1-5).",y',
    ].join("\n");
    const error = await refusal("harbour.toon", text);
    expect(error.line).toBe(6);
    expect(error.detail).toMatch(/^invalid TOON: the key "__proto__" is not allowed/);
    expect(error.detail).toContain("$.criteria[0].__proto__");
  });

  it("spec TOON with a nested __proto__ object is refused at its line", async () => {
    const text = [
      "id: n",
      "name: N",
      "version: 1",
      "criteria[1]:",
      "  - id: a",
      "    title: A",
      "    description: Is it clear?",
      "    weight: 1",
      "    method:",
      "      kind: check",
      "      constructor:",
      "        prototype:",
      "          critical: true",
    ].join("\n");
    const error = await refusal("spec.toon", text);
    expect(error.line).toBe(12);
    expect(error.detail).toContain("$.criteria[0].method.constructor.prototype");
  });

  it("a criterion cannot be named __proto__: its score would vanish from the result's scores", async () => {
    const text = `{"id": "n", "name": "N", "version": "1", "criteria": [
  {"id": "b", "title": "B", "description": "Says world?", "weight": 1,
   "method": {"kind": "function", "name": "contains", "args": "world"}},
  {"id": "__proto__", "title": "A", "description": "Says hello?", "weight": 1,
   "method": {"kind": "function", "name": "contains", "args": "hello"}}]}`;
    const error = await refusal("reserved.json", text);
    expect(error.path).toEqual(["criteria", 1, "id"]);
    expect(error.line).toBe(4);
    expect(error.detail).toMatch(/^the criterion id "__proto__" is reserved: choose another id/);
    const toon = [
      "meta{id,version,program}:",
      "harbour,1.0,Harbour Fund",
      "",
      "criteria[2,]{id,type,weight,title,prompt}:",
      "k1,check,1.0,Region,Is the applicant based in the region?",
      "__proto__,score,1.0,Innovation,Rate the innovation (1-5).",
    ].join("\n");
    const fromToon = await refusal("reserved.toon", toon);
    expect(fromToon.path).toEqual(["criteria", 1, "id"]);
    expect(fromToon.line).toBe(6);
  });

  it("parseCatalog (text given by the application) refuses the same keys", () => {
    const text =
      '{"id": "x", "points": [{"text": "Clear aims.", "__proto__": {"required": false}}]}';
    expect(() => parseCatalog(text, { format: "json", source: "inline" })).toThrow(
      /inline:1 \(\$\.points\[0\]\.__proto__\): the key "__proto__" is not allowed/,
    );
    // the same catalog without the key loads, and nothing leaked into Object.prototype
    const clean = parseCatalog('{"id": "x", "points": ["Clear aims."]}', { format: "json" });
    expect(clean.criteria[0]?.required).toBe(true);
    expect(({} as Record<string, unknown>).required).toBeUndefined();
  });

  it("a rubric file for the registry is refused whole, naming the rubric's path", async () => {
    const path = join(dir, "rubrics.json");
    const level = (id: string, score: number) => ({ id, label: id, score });
    const rubric = (id: string, extra: Record<string, unknown>) => ({
      id,
      name: id,
      version: "1",
      pass_threshold: 0.5,
      criteria: [
        {
          id: "c",
          name: "C",
          description: "Is it complete?",
          weight: 1,
          levels: [level("no", 0), { ...level("yes", 1), ...extra }],
          scoring_method: { type: "llm_decode" },
        },
      ],
    });
    const text = JSON.stringify({
      rubrics: [rubric("one", {}), rubric("two", { marker: 1 })],
    }).replace('"marker":1', '"__proto__":{"score":0.2}');
    await writeFile(path, text);
    const error = await readRubricFile(path).catch((e: unknown) => e);
    expect(isCatalogError(error)).toBe(true);
    expect(String(error)).toContain("$.rubrics[1].criteria[0].levels[1].__proto__");
  });
});

describe("keys a catalog form does not know", () => {
  it("a misspelt field of a native criterion is refused, not dropped", async () => {
    const text = `{"id": "n", "name": "N", "version": "1", "criteria": [
  {"id": "a", "title": "A", "description": "Is it clear?", "weight": 1,
   "critcal": true,
   "method": {"kind": "check"}}]}`;
    const error = await refusal("typo.json", text);
    expect(error.detail).toBe('unknown key "critcal" — as an evalgate catalog');
    expect(error.line).toBe(3);
    expect(error.path).toEqual(["criteria", 0, "critcal"]);
  });

  it("a misspelt field of a level inside a levels rubric is refused", async () => {
    const text = JSON.stringify(
      {
        name: "Quiz",
        version: "1",
        pass_threshold: 0.6,
        criteria: [
          {
            id: "count",
            name: "Count",
            description: "Enough questions?",
            weight: 1,
            levels: [
              { id: "low", label: "Low", score: 0 },
              { id: "ok", label: "OK", score: 1, indicator: ["ten questions"] },
            ],
            scoring_method: { type: "llm_decode" },
          },
        ],
      },
      null,
      2,
    );
    const error = await refusal("level-typo.json", text);
    expect(error.path).toEqual(["criteria", 0, "levels", 1, "indicator"]);
    expect(error.line).toBe(text.split("\n").findIndex((l) => l.includes('"indicator"')) + 1);
  });

  it("an unknown column of a funding catalog is told in the same words as any unknown key", async () => {
    const text = [
      "meta{id,version,program,colour}:",
      "harbour,1.0,Harbour Fund,red",
      "",
      "criteria[1,]{id,type,weight,title,prompt}:",
      "s1,score,1.0,Innovation,Rate the innovation (1-5).",
    ].join("\n");
    const error = await refusal("colour.toon", text);
    expect(error.detail).toBe('unknown key "colour" — as a funding criteria catalog');
    expect(error.line).toBe(2);
    expect(error.path).toEqual(["meta", "colour"]);
  });

  it("free-form values (function args, metadata) keep whatever keys they hold", async () => {
    const text = JSON.stringify({
      id: "free",
      points: [["contains_word", { word: "Hamburg", ignoreCase: true }], "Names the partner."],
    });
    const path = join(dir, "free.json");
    await writeFile(path, text);
    const catalog = await loadCatalog(path);
    expect(catalog.criteria[0]?.method).toMatchObject({
      kind: "function",
      args: { word: "Hamburg", ignoreCase: true },
    });
  });
});
