import type { CatalogPath } from "./errors.js";
import { type FunctionAllowance, resolveFunctionModule, splitFunctionRef } from "./functionRefs.js";
import { compileJsonSchema, readJsonSchemaFile } from "./jsonSchema.js";
import { jsonSchemaProblemMessage } from "./jsonSchemaCheck.js";
import type { Catalog, Criterion } from "./model.js";
import { resolveInFolder } from "./paths.js";

export interface ReferenceProblem {
  message: string;
  path: CatalogPath;
}

/** The folder whose files a catalog may name, and what it is called in messages. */
interface NamedFolder {
  path: string;
  /** "the catalog's folder", "the blueprint's folder". */
  name: string;
}

async function functionProblem(
  name: string,
  folder: NamedFolder,
  functions: FunctionAllowance | undefined,
): Promise<string | undefined> {
  if (functions?.allows(name)) return undefined;
  const ref = splitFunctionRef(name);
  if (ref === undefined) return undefined; // a point function name: checked by the meta-rubric
  const file = await resolveFunctionModule(folder.path, ref.module);
  if (file.found) return undefined;
  if (file.reason === "missing") {
    return `function ${JSON.stringify(name)}: module ${JSON.stringify(ref.module)} is not a file in ${folder.name}, and no function of that name is registered in code (a package function must be allowed in code, by name)`;
  }
  return `function ${JSON.stringify(name)}: module ${JSON.stringify(ref.module)} is refused: ${file.problem}`;
}

async function criterionProblem(
  criterion: Criterion,
  folder: NamedFolder,
  functions: FunctionAllowance | undefined,
): Promise<{ message: string; field: string } | undefined> {
  const method = criterion.method;
  if (method.kind === "function") {
    const message = await functionProblem(method.name, folder, functions);
    return message === undefined ? undefined : { message, field: "name" };
  }
  if (method.kind === "schema" && method.schemaRef !== undefined) {
    const message = await schemaFileProblem(criterion.id, method.schemaRef, folder.path);
    return message === undefined ? undefined : { message, field: "schemaRef" };
  }
  return undefined;
}

/** The file is read and compiled as the criterion will when it runs. */
async function schemaFileProblem(
  criterionId: string,
  schemaRef: string,
  folder: string,
): Promise<string | undefined> {
  const file = await resolveInFolder(folder, schemaRef);
  if (!file.found) return `schemaRef ${JSON.stringify(schemaRef)} is refused: ${file.problem}`;
  const read = await readJsonSchemaFile(schemaRef, folder);
  const label = `its JSON Schema file ${JSON.stringify(schemaRef)}`;
  if (!read.ok) return jsonSchemaProblemMessage(criterionId, label, read.problem);
  const made = compileJsonSchema(read.schema);
  if ("problem" in made) return jsonSchemaProblemMessage(criterionId, label, made.problem);
  return undefined;
}

/**
 * Every file and function a catalog names, checked against its folder: a JSON Schema file is read
 * and compiled; nothing is imported.
 */
export async function checkCatalogReferences(
  catalog: Catalog,
  folder: string,
  functions?: FunctionAllowance,
  folderName = "the catalog's folder",
): Promise<ReferenceProblem[]> {
  const problems: ReferenceProblem[] = [];
  for (const [index, criterion] of catalog.criteria.entries()) {
    const named = { path: folder, name: folderName };
    const problem = await criterionProblem(criterion, named, functions);
    if (problem !== undefined) {
      problems.push({
        message: problem.message,
        path: ["criteria", index, "method", problem.field],
      });
    }
  }
  return problems;
}
