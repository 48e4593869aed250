import { type Catalog, CatalogSchema } from "../../criteria/model.js";
import { parseCatalog } from "../../criteria/parse.js";
import { requireUsableCatalog } from "../../criteria/validate.js";

/** What RubricExecutor accepts as a rubric. */
export type RubricSource = Catalog | Record<string, unknown> | string;

function looksLikeJson(text: string): boolean {
  const start = text.trimStart();
  return start.startsWith("{") || start.startsWith("[");
}

/**
 * The rubric as a catalog: a `Catalog` value checked as a file would be; a levels rubric object
 * (or any other catalog form) through parseCatalog as JSON; a text as JSON or TOON by its first character. Invalid
 * rubrics throw the loader's CatalogError, naming the path and what was expected.
 */
export function rubricCatalog(rubric: RubricSource, source = "<rubric>"): Catalog {
  if (typeof rubric === "string") {
    return parseCatalog(rubric, { format: looksLikeJson(rubric) ? "json" : "toon", source });
  }
  const asCatalog = CatalogSchema.safeParse(rubric);
  // A catalog value is decided as a file with the same content would be.
  if (asCatalog.success) return requireUsableCatalog(asCatalog.data, source);
  return parseCatalog(JSON.stringify(rubric), { format: "json", source });
}
