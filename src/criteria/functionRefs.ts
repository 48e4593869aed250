import { type FolderFile, resolveInFolder } from "./paths.js";

/** Who may supply a function beyond the catalog's folder: what the application allows in code. */
export interface FunctionAllowance {
  /** True when `ref` is registered in code, built in, or a package function allowed by name. */
  allows(ref: string): boolean;
}

/** A `module:function` reference split at its last colon, or undefined when it is not one. */
export function splitFunctionRef(ref: string): { module: string; exportName: string } | undefined {
  const separator = ref.lastIndexOf(":");
  if (separator <= 0 || separator === ref.length - 1) return undefined;
  return { module: ref.slice(0, separator), exportName: ref.slice(separator + 1) };
}

const MODULE_EXTENSIONS = ["", ".js", ".mjs", ".ts"] as const;

/** File names a module may be written as: as given, with extensions, and dotted as a path. */
function moduleFileNames(moduleName: string): string[] {
  const stems = [moduleName];
  if (!moduleName.includes("/") && !moduleName.includes("\\") && moduleName.includes(".")) {
    stems.push(moduleName.split(".").join("/"));
  }
  return [...new Set(stems.flatMap((stem) => MODULE_EXTENSIONS.map((ext) => `${stem}${ext}`)))];
}

/**
 * The file of a function module inside `folder` (real path, no symbolic link out of it). A path
 * leading outside is refused at once; otherwise the first existing candidate file is taken.
 */
export async function resolveFunctionModule(
  folder: string,
  moduleName: string,
): Promise<FolderFile> {
  let last: FolderFile = {
    found: false,
    reason: "missing",
    problem: "no such file in the catalog's folder",
  };
  for (const name of moduleFileNames(moduleName)) {
    const file = await resolveInFolder(folder, name);
    if (file.found || file.reason !== "missing") return file;
    last = file;
  }
  return last;
}
