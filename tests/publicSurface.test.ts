import { describe, expect, it } from "vitest";
import * as evalgate from "../src/index.js";

describe("the public surface (src/index.ts)", () => {
  it.each([
    "loadCatalog",
    "parseCatalog",
    "validateCatalog",
    "CatalogError",
    "decodeToon",
    "encodeToon",
    "encodeResultsToon",
    "scoreCatalogResult",
    "createChatModel",
    "FunctionRegistry",
    "runFunctionCriterion",
    "runSchemaCriterion",
    "createBm25Retriever",
  ])("exports %s", (name) => {
    expect(typeof (evalgate as Record<string, unknown>)[name]).toBe("function");
  });
});
