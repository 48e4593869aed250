import type { CatalogPath } from "./errors.js";
import { type FunctionAllowance, resolveFunctionModule, splitFunctionRef } from "./functionRefs.js";
import type { Catalog, Criterion } from "./model.js";
import { resolveInFolder } from "./paths.js";

export interface ReferenceProblem {
  message: string;
  path: CatalogPath;
}

async function functionProblem(
  name: string,
  folder: string,
  functions: FunctionAllowance | undefined,
): Promise<string | undefined> {
  if (functions?.allows(name)) return undefined;
  const ref = splitFunctionRef(name);
  if (ref === undefined) return undefined; // a point function name: checked by the meta-rubric
  const file = await resolveFunctionModule(folder, ref.module);
  if (file.found) return undefined;
  if (file.reason === "missing") {
    return `function ${JSON.stringify(name)}: module ${JSON.stringify(ref.module)} is not a file in the catalog's folder, and no function of that name is registered in code (a package function must be allowed in code, by name)`;
  }
  return `function ${JSON.stringify(name)}: module ${JSON.stringify(ref.module)} is refused: ${file.problem}`;
}

async function criterionProblem(
  criterion: Criterion,
  folder: string,
  functions: FunctionAllowance | undefined,
): Promise<{ message: string; field: string } | undefined> {
  const method = criterion.method;
  if (method.kind === "function") {
    const message = await functionProblem(method.name, folder, functions);
    return message === undefined ? undefined : { message, field: "name" };
  }
  if (method.kind === "schema" && method.schemaRef !== undefined) {
    const file = await resolveInFolder(folder, method.schemaRef);
    if (file.found) return undefined;
    return {
      message: `schemaRef ${JSON.stringify(method.schemaRef)} is refused: ${file.problem}`,
      field: "schemaRef",
    };
  }
  return undefined;
}

/** Every file and function a catalog names, checked against its folder; nothing is imported or read. */
export async function checkCatalogReferences(
  catalog: Catalog,
  folder: string,
  functions?: FunctionAllowance,
): Promise<ReferenceProblem[]> {
  const problems: ReferenceProblem[] = [];
  for (const [index, criterion] of catalog.criteria.entries()) {
    const problem = await criterionProblem(criterion, folder, functions);
    if (problem !== undefined) {
      problems.push({
        message: problem.message,
        path: ["criteria", index, "method", problem.field],
      });
    }
  }
  return problems;
}
