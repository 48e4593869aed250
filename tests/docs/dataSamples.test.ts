/**
 * Every ```json / ```toon block of README.md and docs/*.md that is a catalog, a rubric or a
 * blueprint loads with the product's own loaders, from a file as a user's would be: a documented
 * catalog that does not load fails here. TOON blocks are catalogs. A JSON block is a blueprint when
 * it has `prompts`, a catalog or rubric when it has `criteria`, `points` or `rubrics`; other JSON
 * (API bodies) is not data to load. A block that is deliberately partial says so with
 * `<!-- docs-test: fragment … -->`; a JSON block that does not parse must be marked.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadBlueprint } from "../../src/blueprints/index.js";
import { FunctionRegistry } from "../../src/checks/registry.js";
import { loadCatalog } from "../../src/criteria/index.js";
import { allSamples, type DocSample } from "./docSamples.js";

const root = join(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "evalgate-doc-data-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The functions the docs' catalogs name that an application registers in code, as the docs say
 * it must ("deterministic criteria call a registered function").
 */
const functions = new FunctionRegistry();
functions.register("scoring:check_question_count", () => true);

type Kind = "catalog" | "blueprint" | "not data" | "unparsed";

function kindOf(sample: DocSample): Kind {
  if (sample.language === "toon") return "catalog";
  let value: unknown;
  try {
    value = JSON.parse(sample.text);
  } catch {
    return "unparsed";
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not data";
  if ("prompts" in value) return "blueprint";
  if ("criteria" in value || "points" in value || "rubrics" in value) return "catalog";
  return "not data";
}

describe("the classification of data blocks", () => {
  const sample = (language: string, text: string): DocSample => ({
    doc: "t.md",
    line: 1,
    language,
    text,
  });
  it.each([
    [sample("toon", "meta{id}:\nx"), "catalog"],
    [sample("json", '{ "id": "b", "prompts": [] }'), "blueprint"],
    [sample("json", '{ "id": "c", "points": ["x"] }'), "catalog"],
    [sample("json", '{ "id": "r", "rubrics": [] }'), "catalog"],
    [sample("json", '{ "error": { "code": "X" } }'), "not data"],
    [sample("json", '"scoring_method": { "type": "llm_decode" }'), "unparsed"],
  ] as const)("%#: %s", (given, expected) => {
    expect(kindOf(given)).toBe(expected);
  });
});

describe("the documented catalogs, rubrics and blueprints load", () => {
  const data = allSamples(root).filter(
    (sample) => sample.language === "json" || sample.language === "toon",
  );
  const unmarked = data.filter((sample) => sample.marker === undefined);
  it("finds them", () => {
    expect(unmarked.filter((sample) => kindOf(sample) === "catalog").length).toBeGreaterThan(4);
    expect(unmarked.filter((sample) => kindOf(sample) === "blueprint").length).toBeGreaterThan(0);
  });
  it.each(unmarked.map((sample) => [`${sample.doc}:${sample.line}`, sample] as const))(
    "%s",
    async (place, sample) => {
      const kind = kindOf(sample);
      expect(
        kind,
        "a JSON block that does not parse is marked <!-- docs-test: fragment … -->",
      ).not.toBe("unparsed");
      const file = join(dir, `${place.replace(/[^\w]+/g, "-")}.${sample.language}`);
      writeFileSync(file, sample.text);
      if (kind === "catalog") {
        const catalog = await loadCatalog(file, { functions });
        expect(catalog.criteria.length).toBeGreaterThan(0);
      }
      if (kind === "blueprint") {
        const blueprint = await loadBlueprint(file);
        expect(blueprint.prompts.length).toBeGreaterThan(0);
      }
    },
  );
  it.each(
    data
      .filter((sample) => sample.marker !== undefined)
      .map((s) => [`${s.doc}:${s.line}`, s] as const),
  )("%s is marked as a fragment", (_place, sample) => {
    expect(sample.marker).toMatch(/^fragment\b.{8,}/);
  });
});
