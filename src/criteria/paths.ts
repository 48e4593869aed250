import { realpath, stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { errnoCode } from "../untrusted/regularFile.js";

export type FolderFile =
  | { found: true; path: string }
  | { found: false; reason: "outside" | "missing" | "not_a_file"; problem: string };

export const refused = (
  reason: "outside" | "missing" | "not_a_file",
  problem: string,
): FolderFile => ({
  found: false,
  reason,
  problem,
});

export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** No absolute path, no `..` out of the folder, no symbolic link out of it (real paths compared). */
export async function resolveInFolder(folder: string, ref: string): Promise<FolderFile> {
  if (isAbsolute(ref)) {
    return refused("outside", "an absolute path: name a file relative to the catalog's folder");
  }
  const lexical = resolve(folder, ref);
  if (!isInside(resolve(folder), lexical)) {
    return refused("outside", "the path leads outside the catalog's folder");
  }
  let real: string;
  try {
    real = await realpath(lexical);
  } catch (error) {
    const code = errnoCode(error);
    if (code === "ENOENT" || code === "ENOTDIR") {
      return refused("missing", "no such file in the catalog's folder");
    }
    return refused("missing", `the file cannot be reached (${code ?? "error"})`);
  }
  if (!isInside(await realpath(folder), real)) {
    return refused("outside", "a symbolic link leads outside the catalog's folder");
  }
  if (!(await stat(real)).isFile()) {
    return refused("not_a_file", "not a regular file");
  }
  return { found: true, path: real };
}
