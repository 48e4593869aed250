import { type FolderFile, refused, resolveInFolder } from "./paths.js";

export interface FunctionAllowance {
  allows(ref: string): boolean;
}

export function splitFunctionRef(ref: string): { module: string; exportName: string } | undefined {
  const separator = ref.lastIndexOf(":");
  if (separator <= 0 || separator === ref.length - 1) return undefined;
  return { module: ref.slice(0, separator), exportName: ref.slice(separator + 1) };
}

const MODULE_EXTENSIONS = ["", ".js", ".mjs", ".ts"] as const;

function moduleFileNames(moduleName: string): string[] {
  const stems = [moduleName];
  if (!moduleName.includes("/") && !moduleName.includes("\\") && moduleName.includes(".")) {
    stems.push(moduleName.split(".").join("/"));
  }
  return [...new Set(stems.flatMap((stem) => MODULE_EXTENSIONS.map((ext) => `${stem}${ext}`)))];
}

/** A path leading outside is refused at once; else the first existing candidate is taken. */
export async function resolveFunctionModule(
  folder: string,
  moduleName: string,
): Promise<FolderFile> {
  let last = refused("missing", "no such file in the catalog's folder");
  for (const name of moduleFileNames(moduleName)) {
    const file = await resolveInFolder(folder, name);
    if (file.found || file.reason !== "missing") return file;
    last = file;
  }
  return last;
}
