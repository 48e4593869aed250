import { isAbsolute, relative } from "node:path";

/** A path as messages show it: relative to the working folder when inside it, else absolute. */
export function displayPath(path: string, cwd: string): string {
  if (!isAbsolute(path)) return path;
  const inside = relative(cwd, path);
  return inside !== "" && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}
