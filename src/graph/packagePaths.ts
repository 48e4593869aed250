import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const name: unknown = JSON.parse(readFileSync(manifest, "utf8")).name;
      if (name === "evalgate") return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

/** The folder of evalgate's own package.json (from src/ or from dist/src/). */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** The criteria folder this package ships. */
export const PACKAGE_CRITERIA_DIR = join(PACKAGE_ROOT, "config/evaluation/criteria");

/** The dependency map this package ships. */
export const PACKAGE_DEPENDENCIES_FILE = join(PACKAGE_ROOT, "config/dependencies.json");
