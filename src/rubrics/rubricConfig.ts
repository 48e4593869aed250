/**
 * Reading a rubric file for the registry (JSON or TOON, one rubric or `{ rubrics: [...] }`): a
 * regular file under a size limit, its schema_ref files inside its folder and stored inline.
 */
import { basename, dirname, extname, isAbsolute } from "node:path";
import { CheckError } from "../checks/errors.js";
import { loadJsonSchema } from "../checks/schemaCriterion.js";
import { CatalogError, type CatalogPath } from "../criteria/errors.js";
import { splitFunctionRef } from "../criteria/functionRefs.js";
import { catalogFormatOf } from "../criteria/load.js";
import type { Catalog, Criterion } from "../criteria/model.js";
import { catalogOfLocatedValue } from "../criteria/parse.js";
import { type LocatedValue, readJson, readToon } from "../criteria/sourceText.js";
import { isRecord, withoutBom } from "../untrusted/json.js";
import { readRegularTextFile } from "../untrusted/regularFile.js";
import { RubricConfigError } from "./errors.js";

const MAX_RUBRIC_FILE_BYTES = 4 * 1024 * 1024;
const MAX_RUBRICS_PER_FILE = 500;

/** The text of a regular file of at most MAX_RUBRIC_FILE_BYTES, else RUBRIC_CONFIG_INVALID. */
async function readRubricText(path: string): Promise<string> {
  const read = await readRegularTextFile(path, MAX_RUBRIC_FILE_BYTES);
  if (read.ok) return withoutBom(read.text);
  const { kind, reason } = read.problem;
  throw new RubricConfigError(
    path,
    kind === "missing" ? `the rubric file: ${reason}` : `the rubric file ${reason}`,
  );
}

function located(path: string, text: string): LocatedValue {
  const ext = extname(path).toLowerCase();
  if (ext === ".yaml" || ext === ".yml") {
    throw new RubricConfigError(path, "YAML is not read: write the rubric file as JSON or TOON");
  }
  return catalogFormatOf(path, text) === "json" ? readJson(text, path) : readToon(text, path);
}

function escapingFunctionRef(ref: string): boolean {
  const module = splitFunctionRef(ref)?.module;
  return module !== undefined && (isAbsolute(module) || module.split(/[\\/]/).includes(".."));
}

async function inlineSchema(c: Criterion, folder: string, where: string): Promise<Criterion> {
  if (c.method.kind !== "schema" || c.method.schemaRef === undefined) return c;
  const { schemaRef, ...method } = c.method;
  try {
    return { ...c, method: { ...method, schema: await loadJsonSchema(schemaRef, folder) } };
  } catch (error) {
    if (!(error instanceof CheckError && error.code === "SCHEMA_UNREADABLE")) throw error;
    throw new RubricConfigError(where, `criterion ${c.id}: ${error.message}`, {
      cause: error,
    });
  }
}

async function settleReferences(catalog: Catalog, folder: string, where: string) {
  for (const c of catalog.criteria) {
    if (c.method.kind === "function" && escapingFunctionRef(c.method.name)) {
      throw new RubricConfigError(
        where,
        `criterion ${c.id}: function "${c.method.name}" leads outside its folder`,
      );
    }
  }
  const criteria = await Promise.all(catalog.criteria.map((c) => inlineSchema(c, folder, where)));
  return { ...catalog, criteria };
}

function rubricAt(whole: LocatedValue, index: number, path: string): Catalog {
  const prefix: CatalogPath = ["rubrics", index];
  const value = (whole.value as { rubrics: unknown[] }).rubrics[index];
  if (!isRecord(value) || typeof value.id !== "string" || value.id.trim() === "") {
    throw new CatalogError("a rubric in a list needs an id", {
      source: path,
      line: whole.lineOf(prefix),
      path: prefix,
    });
  }
  const entry: LocatedValue = { value, lineOf: (p) => whole.lineOf([...prefix, ...p]) };
  try {
    return catalogOfLocatedValue(entry, { source: path }).catalog;
  } catch (error) {
    if (!(error instanceof CatalogError)) throw error;
    throw new CatalogError(
      error.detail,
      { source: path, line: error.line, path: [...prefix, ...(error.path ?? [])] },
      { cause: error },
    );
  }
}

/** The rubrics of a file, checked like any catalog; a bad file is refused whole. */
export async function readRubricFile(path: string): Promise<Catalog[]> {
  const text = await readRubricText(path);
  const whole = located(path, text);
  const folder = dirname(path);
  if (isRecord(whole.value) && Array.isArray(whole.value.rubrics)) {
    const count = whole.value.rubrics.length;
    if (count === 0) throw new RubricConfigError(path, "`rubrics` is an empty list");
    if (count > MAX_RUBRICS_PER_FILE) {
      throw new RubricConfigError(
        path,
        `${count} rubrics, over the limit of ${MAX_RUBRICS_PER_FILE}`,
      );
    }
    const rubrics: Catalog[] = [];
    for (let i = 0; i < count; i++) {
      const where = `${path} ($.rubrics[${i}])`;
      rubrics.push(await settleReferences(rubricAt(whole, i, path), folder, where));
    }
    return rubrics;
  }
  const fallbackId = basename(path, extname(path));
  const { catalog } = catalogOfLocatedValue(whole, { source: path, fallbackId });
  return [await settleReferences(catalog, folder, path)];
}
