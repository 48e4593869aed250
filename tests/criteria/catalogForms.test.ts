import { encode as encodeToon } from "@toon-format/toon";
import { describe, expect, it } from "vitest";
import { parseCatalog } from "../../src/criteria/index.js";

/** The TOON criteria dialect's example catalog, verbatim (TC-CRI-01). */
const SEED_000_CATALOG = `# IFB PROFI Criteria Catalog
meta{version,program}:
1.0,"PROFI Standard"

criteria[3,]{id,type,weight,title,prompt}:
c1,check,1.0,"Hamburg Base","Is the company based in Hamburg?"
c2,score,0.4,"Innovation","Rate the technological innovation (1-5)."
c3,score,0.6,"Market","Rate the market potential (1-5)."
`;

describe("TOON criteria dialect catalog", () => {
  it("TC-CRI-01: the example catalog text parses to exactly its three criteria", () => {
    const catalog = parseCatalog(SEED_000_CATALOG, { format: "toon", source: "ifb_profi.toon" });
    expect(catalog.version).toBe("1.0");
    expect(catalog.name).toBe("PROFI Standard");
    expect(catalog.criteria).toEqual([
      {
        id: "c1",
        title: "Hamburg Base",
        description: "Is the company based in Hamburg?",
        weight: 1.0,
        critical: true,
        knockout: true,
        required: true,
        method: { kind: "check" },
      },
      {
        id: "c2",
        title: "Innovation",
        description: "Rate the technological innovation (1-5).",
        weight: 0.4,
        critical: false,
        knockout: false,
        required: true,
        method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
      },
      {
        id: "c3",
        title: "Market",
        description: "Rate the market potential (1-5).",
        weight: 0.6,
        critical: false,
        knockout: false,
        required: true,
        method: { kind: "score", scale: { min: 1, max: 5, integer: true } },
      },
    ]);
    expect(catalog.statusRules).toEqual({ scale: { min: 1, max: 5, integer: true }, fundable: 4 });
    // the knockout's weight does not count: 0.4 + 0.6 already sums to 1, so nothing is normalised
    expect(catalog.warnings).toEqual([]);
  });

  it("reads the status thresholds a catalog adds to its meta", () => {
    const text = SEED_000_CATALOG.replace(
      'meta{version,program}:\n1.0,"PROFI Standard"',
      'meta{id,version,program,fundable_threshold,reject_below}:\nifb,1.0,"PROFI Standard",3.5,2.0',
    );
    const catalog = parseCatalog(text, { format: "toon" });
    expect(catalog.id).toBe("ifb");
    expect(catalog.statusRules).toMatchObject({ fundable: 3.5, rejectBelow: 2 });
  });

  it("accepts the same catalog written as spec TOON (indented rows, [N])", () => {
    const spec = [
      "meta:",
      '  version: "1.0"',
      "  program: PROFI Standard",
      "criteria[3]{id,type,weight,title,prompt}:",
      '  c1,check,1.0,Hamburg Base,"Is the company based in Hamburg?"',
      '  c2,score,0.4,Innovation,"Rate the technological innovation (1-5)."',
      '  c3,score,0.6,Market,"Rate the market potential (1-5)."',
    ].join("\n");
    const fromSpec = parseCatalog(spec, { format: "toon", source: "x.toon" });
    const fromSeed = parseCatalog(SEED_000_CATALOG, { format: "toon", source: "x.toon" });
    expect(fromSpec).toEqual(fromSeed);
  });
});

describe("evaluation node EvaluationCriteria JSON", () => {
  const bands = {
    excellent: "All sources cited and current.",
    good: "Most sources cited.",
    adequate: "Some sources cited.",
    poor: "Few sources cited.",
    inadequate: "No sources.",
  };
  const json = JSON.stringify({
    id: "research",
    name: "Research Evaluation",
    version: "1.0.0",
    criteria: [
      {
        id: "accuracy",
        name: "Accuracy",
        description: "Are the facts about the funder correct?",
        weight: 0.6,
        isCritical: true,
        passingThreshold: 0.6,
        scoringGuidelines: bands,
      },
      {
        id: "depth",
        name: "Depth",
        description: "How deep is the analysis?",
        weight: 0.4,
        isCritical: false,
        passingThreshold: 0.5,
        scoringGuidelines: { ...bands, good: "Several angles covered." },
      },
    ],
    passingThreshold: 0.75,
  });

  it("keeps weights, criticality, thresholds and the five bands", () => {
    const catalog = parseCatalog(json, { format: "json" });
    expect(catalog.passingThreshold).toBe(0.75);
    expect(catalog.criteria[0]).toEqual({
      id: "accuracy",
      title: "Accuracy",
      description: "Are the facts about the funder correct?",
      weight: 0.6,
      critical: true,
      knockout: false,
      required: true,
      passingThreshold: 0.6,
      method: { kind: "score", scale: { min: 0, max: 1, integer: false }, guidelines: bands },
    });
  });

  it("defaults the catalog threshold to 0.7", () => {
    const withoutThreshold = json.replace(',"passingThreshold":0.75', "");
    expect(parseCatalog(withoutThreshold, { format: "json" }).passingThreshold).toBe(0.7);
  });
});

describe("the points format", () => {
  it("normalises strings, tuples and point objects", () => {
    const catalog = parseCatalog(
      JSON.stringify({
        id: "stoic",
        points: [
          "Virtue is the only good.",
          ["contains", "mandatory keyword"],
          {
            text: "A very important conceptual point.",
            multiplier: 3.0,
            citation: "Project requirements, section 2.1a",
          },
          {
            fn: "matches",
            fnArgs: "^The response must start",
            multiplier: 0.5,
            citation: "Style guide rule #5",
          },
        ],
      }),
      { format: "json" },
    );
    expect(catalog.criteria.map((c) => c.method)).toEqual([
      { kind: "point", text: "Virtue is the only good." },
      { kind: "function", name: "contains", args: "mandatory keyword" },
      { kind: "point", text: "A very important conceptual point." },
      { kind: "function", name: "matches", args: "^The response must start" },
    ]);
    expect(catalog.criteria.map((c) => c.id)).toEqual(["p1", "p2", "p3", "p4"]);
    expect(catalog.criteria[2]?.citation).toBe("Project requirements, section 2.1a");
    // multipliers 1, 1, 3, 0.5 → normalised, relative weights kept
    const weights = catalog.criteria.map((c) => c.weight);
    expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect((weights[2] ?? 0) / (weights[0] ?? 1)).toBeCloseTo(3, 12);
    expect(catalog.warnings.some((w) => w.includes("normalised"))).toBe(true);
  });
});

describe("the rubric format", () => {
  it("maps deterministic, schema and llm_decode criteria with their levels", () => {
    const levels = [
      { id: "fail", label: "Fail", description: "Too few", score: 0 },
      { id: "pass", label: "Pass", description: "Enough", score: 0.7 },
      {
        id: "excellent",
        label: "Excellent",
        description: "Plenty",
        score: 1,
        indicators: ["Uses concrete examples"],
      },
    ];
    const catalog = parseCatalog(
      JSON.stringify({
        id: "quiz_quality",
        name: "Quiz Quality",
        description: "Validates quiz content",
        version: "1.0.0",
        target_type: "content",
        pass_threshold: 0.7,
        criteria: [
          {
            id: "count",
            name: "Question Count",
            description: "Sufficient number of questions",
            weight: 0.5,
            levels,
            scoring_method: { type: "DETERMINISTIC", function_ref: "scoring:check_question_count" },
          },
          {
            id: "shape",
            name: "Shape",
            description: "Questions are a list of strings",
            weight: 0.3,
            levels,
            required: false,
            scoring_method: { type: "schema", schema: { type: "object", required: ["questions"] } },
          },
          {
            id: "pedagogy",
            name: "Pedagogy",
            description: "Questions test understanding",
            weight: 0.2,
            levels,
            scoring_method: { type: "llm_decode", decode_prompt: "Judge: {{questions}}" },
          },
        ],
      }),
      { format: "json" },
    );
    expect(catalog.targetType).toBe("content");
    expect(catalog.passingThreshold).toBe(0.7);
    expect(catalog.criteria.map((c) => c.method.kind)).toEqual(["function", "schema", "levels"]);
    expect(catalog.criteria[0]?.method).toMatchObject({ name: "scoring:check_question_count" });
    expect(catalog.criteria[1]?.required).toBe(false);
    expect(catalog.criteria[2]?.method).toMatchObject({ decodePrompt: "Judge: {{questions}}" });
    expect(catalog.criteria[2]?.method).toHaveProperty("levels.2.indicators", [
      "Uses concrete examples",
    ]);
  });
});

describe("JSON judge contract rubric items", () => {
  it("turns each item into a pass/fail check; required items are critical", () => {
    const catalog = parseCatalog(
      JSON.stringify({
        id: "answer",
        question: "When is the deadline?",
        rubrics: [
          {
            id: "deadline",
            expected_outcome: "States the 30 June deadline",
            weight: 2,
            required: true,
          },
          { id: "portal", expected_outcome: "Names the submission portal" },
        ],
      }),
      { format: "json" },
    );
    expect(catalog.criteria[0]).toMatchObject({
      id: "deadline",
      critical: true,
      method: { kind: "check", expectedOutcome: "States the 30 June deadline" },
    });
    expect(catalog.criteria[1]).toMatchObject({ id: "portal", critical: false });
    expect(catalog.instructions).toBe("Question: When is the deadline?");
  });
});

describe("evalgate's own model", () => {
  it("round-trips a catalog through JSON", () => {
    const catalog = parseCatalog(SEED_000_CATALOG, { format: "toon", source: "a.toon" });
    const again = parseCatalog(JSON.stringify(catalog), { format: "json", source: "a.toon" });
    expect(again).toEqual(catalog);
  });

  it("round-trips through spec TOON the numbers a schema or function args keep under id, version, name or title", () => {
    const schema = {
      type: "object",
      properties: { id: { type: "integer" }, version: { const: 2 } },
      examples: [{ id: 5, version: 2, name: 3, title: 4 }],
      default: { id: 1 },
    };
    const written = {
      id: "shapes",
      name: "Shapes",
      version: "1.0",
      criteria: [
        {
          id: "record",
          title: "Record",
          description: "A record",
          weight: 1,
          method: { kind: "schema", schema },
        },
      ],
    };
    const catalog = parseCatalog(JSON.stringify(written), { format: "json" });
    const { source: _source, warnings: _warnings, ...model } = catalog;
    const again = parseCatalog(encodeToon(model), { format: "toon" });
    expect(again.criteria[0]?.method).toEqual({ kind: "schema", schema });
    // the catalog's own id and version stay strings
    expect([again.id, again.version]).toEqual(["shapes", "1.0"]);
  });
});
