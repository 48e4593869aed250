import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CatalogError, formatCatalogPath, loadCatalog } from "../../src/criteria/index.js";

const dir = join(import.meta.dirname, "../fixtures/catalogs/invalid");
const expectations = JSON.parse(
  readFileSync(join(dir, "../invalid-expectations.json"), "utf8"),
) as Record<string, { line?: number; path?: string; message: string }>;
const files = readdirSync(dir).sort();

describe("malformed catalogs", () => {
  it("has at least 40 fixtures, each with an expectation", () => {
    expect(files.length).toBeGreaterThanOrEqual(40);
    expect(Object.keys(expectations).sort()).toEqual(files);
  });

  it.each(files)("%s gives a CatalogError with its location", async (file) => {
    const expected = expectations[file];
    const path = join(dir, file);
    const error = await loadCatalog(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(CatalogError);
    if (!(error instanceof CatalogError)) return;
    expect(error.source).toBe(path);
    expect(error.message.startsWith(path)).toBe(true);
    expect(error.message).toContain(expected?.message ?? "");
    if (expected?.line !== undefined) expect(error.line).toBe(expected.line);
    if (expected?.path !== undefined) {
      expect(error.path && formatCatalogPath(error.path)).toBe(expected.path);
    }
    // every error names a line or a JSON path
    expect(error.line !== undefined || (error.path?.length ?? 0) > 0).toBe(true);
  });
});
