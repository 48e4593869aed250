import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog, validateCatalog } from "../../src/criteria/index.js";
import { STAGE_IDS } from "../proposalStages.js";

const root = join(import.meta.dirname, "../..");
const shipped = [
  ...readdirSync(join(root, "config/evaluation/criteria"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => join("config/evaluation/criteria", f)),
  ...readdirSync(join(root, "data/criteria"))
    .filter((f) => f.endsWith(".toon") || f.endsWith(".json"))
    .map((f) => join("data/criteria", f)),
].sort();

describe("shipped catalogs", () => {
  it("include the eight evaluation node content types and the TOON criteria dialect catalog", () => {
    for (const name of STAGE_IDS) {
      expect(shipped).toContain(join("config/evaluation/criteria", `${name}.json`));
    }
    expect(shipped).toContain(join("data/criteria", "ifb_profi.toon"));
  });

  it.each(shipped)("%s loads with no validation errors or warnings", async (file) => {
    const catalog = await loadCatalog(join(root, file));
    expect(catalog.criteria.length).toBeGreaterThan(0);
    expect(catalog.warnings).toEqual([]);
    const findings = validateCatalog(catalog).filter((f) => f.severity !== "info");
    expect(findings).toEqual([]);
  });
});
