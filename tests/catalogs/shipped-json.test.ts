import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { STAGE_IDS as CONTENT_IDS } from "../proposalStages.js";

/**
 * Structural checks on the shipped JSON configuration: the evaluation node's criteria catalogs in
 * config/evaluation/criteria/ and the stale-marking dependency map in config/dependencies.json.
 * These read the files as plain JSON on purpose; loading through the catalog loader is tested
 * separately.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const criteriaDir = join(root, "config", "evaluation", "criteria");
const dependenciesPath = join(root, "config", "dependencies.json");

const BANDS = ["excellent", "good", "adequate", "poor", "inadequate"] as const;

/** The evaluation node's EvaluationCriteria shape, exactly: no missing and no extra fields. */
const GuidelinesShape = z.strictObject({
  excellent: z.string(),
  good: z.string(),
  adequate: z.string(),
  poor: z.string(),
  inadequate: z.string(),
});

const CriterionShape = z.strictObject({
  id: z.string().regex(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/, "criterion ids are snake_case"),
  name: z.string().min(1),
  description: z.string().min(1),
  weight: z.number().gt(0).max(1),
  isCritical: z.boolean(),
  passingThreshold: z.number().min(0).max(1),
  scoringGuidelines: GuidelinesShape,
});

const CatalogShape = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  version: z.string().regex(/^\d+\.\d+\.\d+$/, "version is semver"),
  description: z.string().min(1),
  criteria: z.array(CriterionShape).min(4).max(6),
  passingThreshold: z.number().min(0).max(1),
});
type CatalogShape = z.infer<typeof CatalogShape>;

const DependenciesShape = z.strictObject({
  version: z.literal(1),
  dependents: z.record(z.string(), z.array(z.string())),
});

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const value of values) {
    const key = value.trim().toLowerCase();
    if (seen.has(key)) repeated.add(value);
    seen.add(key);
  }
  return [...repeated];
}

/** A cycle in a dependents graph as a path of ids (first id repeated at the end), or null. */
function findCycle(graph: Readonly<Record<string, readonly string[]>>): string[] | null {
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    const mark = state.get(node);
    if (mark === "done") return null;
    if (mark === "visiting") return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, "visiting");
    stack.push(node);
    for (const next of graph[node] ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of Object.keys(graph)) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

const catalogFiles = readdirSync(criteriaDir)
  .filter((name) => name.endsWith(".json"))
  .sort();

describe("config/evaluation/criteria", () => {
  it("ships exactly one catalog per content type", () => {
    expect(catalogFiles).toEqual([...CONTENT_IDS].map((id) => `${id}.json`).sort());
  });

  describe.each(catalogFiles)("%s", (file) => {
    const path = join(criteriaDir, file);
    const load = (): CatalogShape => CatalogShape.parse(readJson(path));

    it("parses as JSON with the evaluation node's EvaluationCriteria shape", () => {
      const parsed = CatalogShape.safeParse(readJson(path));
      expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    });

    it("is identified by its content type", () => {
      expect(load().id).toBe(basename(file, ".json"));
    });

    it("has weights summing to 1", () => {
      const total = load().criteria.reduce((sum, c) => sum + c.weight, 0);
      expect(Math.abs(total - 1)).toBeLessThan(1e-9);
    });

    it("has unique criterion ids, names and descriptions", () => {
      const { criteria } = load();
      expect(duplicates(criteria.map((c) => c.id))).toEqual([]);
      expect(duplicates(criteria.map((c) => c.name))).toEqual([]);
      expect(duplicates(criteria.map((c) => c.description))).toEqual([]);
    });

    it("has at least one critical criterion, and sensible thresholds", () => {
      const catalog = load();
      const critical = catalog.criteria.filter((c) => c.isCritical);
      expect(critical.length).toBeGreaterThanOrEqual(1);
      for (const c of critical) {
        expect(c.passingThreshold, c.id).toBeGreaterThanOrEqual(0.5);
        expect(c.passingThreshold, c.id).toBeLessThanOrEqual(0.7);
      }
      for (const c of catalog.criteria.filter((x) => !x.isCritical)) {
        expect(c.passingThreshold, c.id).toBeGreaterThanOrEqual(0.5);
        expect(c.passingThreshold, c.id).toBeLessThanOrEqual(0.6);
      }
      const expected = catalog.id === "budget" ? [0.7, 0.75] : [0.7];
      expect(expected).toContain(catalog.passingThreshold);
    });

    it("gives every criterion five non-empty, distinct scoring bands", () => {
      for (const c of load().criteria) {
        const texts = BANDS.map((band) => c.scoringGuidelines[band].trim());
        for (const [i, text] of texts.entries()) {
          expect(text.length, `${c.id}.${BANDS[i]}`).toBeGreaterThan(0);
        }
        expect(duplicates(texts), c.id).toEqual([]);
      }
    });

    it("does not reuse a band text across criteria", () => {
      const all = load().criteria.flatMap((c) => BANDS.map((band) => c.scoringGuidelines[band]));
      expect(duplicates(all)).toEqual([]);
    });
  });
});

describe("config/dependencies.json", () => {
  const load = () => DependenciesShape.parse(readJson(dependenciesPath));

  /** The direct dependencies the proposal graph is built on: content → what it depends on. */
  const DEPENDS_ON: Readonly<Record<(typeof CONTENT_IDS)[number], readonly string[]>> = {
    research: [],
    solution: ["research"],
    connection_pairs: ["research", "solution"],
    problem_statement: ["solution", "connection_pairs"],
    methodology: ["problem_statement"],
    budget: ["methodology"],
    timeline: ["methodology"],
    conclusion: ["problem_statement", "methodology", "budget", "timeline"],
  };

  it("has the expected shape and lists every content id as a key", () => {
    expect(Object.keys(load().dependents).sort()).toEqual([...CONTENT_IDS].sort());
  });

  it("names only known ids, without self-references or repeats", () => {
    const known = new Set<string>(CONTENT_IDS);
    for (const [id, dependents] of Object.entries(load().dependents)) {
      expect(
        dependents.filter((d) => !known.has(d)),
        id,
      ).toEqual([]);
      expect(dependents, id).not.toContain(id);
      expect(duplicates(dependents), id).toEqual([]);
    }
  });

  it("has no cycle", () => {
    expect(findCycle(load().dependents)).toBeNull();
  });

  it("records exactly the direct dependencies of the proposal graph", () => {
    const { dependents } = load();
    const derived: Record<string, string[]> = {};
    for (const id of CONTENT_IDS) derived[id] = [];
    for (const [source, targets] of Object.entries(dependents)) {
      for (const target of targets) derived[target]?.push(source);
    }
    for (const id of CONTENT_IDS) {
      expect([...(derived[id] ?? [])].sort(), id).toEqual([...DEPENDS_ON[id]].sort());
    }
  });
});

describe("findCycle (the detector the dependency test relies on)", () => {
  it("reports a cycle when there is one", () => {
    expect(findCycle({ a: ["b"], b: ["c"], c: ["a"] })).toEqual(["a", "b", "c", "a"]);
    expect(findCycle({ a: ["a"] })).toEqual(["a", "a"]);
  });

  it("accepts a diamond without reporting a cycle", () => {
    expect(findCycle({ a: ["b", "c"], b: ["d"], c: ["d"], d: [] })).toBeNull();
  });
});
