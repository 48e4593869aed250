/** Catalog text at the edges: a UTF-8 byte-order mark, and nesting deep enough to overflow a parser. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CatalogError } from "../../src/criteria/errors.js";
import { loadCatalog } from "../../src/criteria/load.js";
import { parseCatalog } from "../../src/criteria/parse.js";

const CATALOG = JSON.stringify({
  id: "bom",
  name: "BOM",
  version: "1",
  criteria: [
    { id: "c1", title: "One", description: "Checked.", weight: 1, method: { kind: "check" } },
  ],
});

describe("catalog text", () => {
  it("a UTF-8 BOM before the JSON is accepted", () => {
    const catalog = parseCatalog(`\uFEFF${CATALOG}`, { format: "json", source: "bom.json" });
    expect(catalog.id).toBe("bom");
  });

  it("200,000 nested [ are a catalog error with the line, not a stack overflow", () => {
    const text = `{\n"criteria":\n${"[".repeat(200_000)}`;
    const error = (() => {
      try {
        parseCatalog(text, { format: "json", source: "deep.json" });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).line).toBe(3);
    expect((error as CatalogError).detail).toMatch(/nested/);
  });

  it("nesting inside strings does not count", () => {
    const deepString = JSON.stringify({ ...JSON.parse(CATALOG), description: "[".repeat(10_000) });
    expect(parseCatalog(deepString, { format: "json", source: "s.json" }).id).toBe("bom");
  });
});

describe("point function arguments", () => {
  it("an invalid regular expression is a catalog error naming where it is", () => {
    const text = JSON.stringify({
      id: "re",
      points: [{ fn: "matches", fnArgs: "(unclosed" }, "Clear aims."],
    });
    const error = (() => {
      try {
        parseCatalog(text, { format: "json", source: "re.json" });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(CatalogError);
    expect((error as CatalogError).detail).toMatch(/regular expression/);
    expect((error as CatalogError).path?.[0]).toBe("points");
  });
});

describe("deterministic check arguments", () => {
  it("an empty string among contains_any_of's terms is named by its place", () => {
    const text = JSON.stringify({
      id: "terms",
      name: "Terms",
      version: "1",
      criteria: [
        {
          id: "c1",
          title: "Names the costs",
          description: "Checked.",
          weight: 1,
          method: {
            kind: "function",
            name: "contains_any_of",
            args: ["budget", "costs", "", "funding", "staff", "risk"],
          },
        },
      ],
    });
    expect(() => parseCatalog(text, { format: "json", source: "terms.json" })).toThrow(
      "got an array of 6 items (item 3 is empty)",
    );
  });
});

describe("a catalog file in YAML", () => {
  it.each(["catalog.yaml", "catalog.yml"])(
    "%s is refused as YAML, not read as broken TOON",
    async (name) => {
      const dir = await mkdtemp(join(tmpdir(), "evalgate-yaml-"));
      const path = join(dir, name);
      const yaml = "name: Budget\nversion: '1'\ncriteria:\n  - id: costs\n    name: Costs\n";
      await writeFile(path, yaml);
      const error = await loadCatalog(path).catch((e: unknown) => e);
      await rm(dir, { recursive: true, force: true });
      expect(error).toBeInstanceOf(CatalogError);
      expect((error as CatalogError).message).toBe(
        `${path}: YAML is not read: write the catalog as TOON or JSON`,
      );
    },
  );
});
