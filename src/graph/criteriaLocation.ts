import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { type ActiveCatalogs, activeCatalog } from "../criteria/activeCatalog.js";
import { defaultCatalog } from "../criteria/defaultCatalog.js";
import { loadCatalog } from "../criteria/load.js";
import type { Catalog } from "../criteria/model.js";
import { isInside } from "../criteria/paths.js";
import { EvaluationError } from "../engine/errors.js";
import { PACKAGE_CRITERIA_DIR } from "./proposalConfig.js";

function criteriaSearchPath(criteriaDir?: string): string[] {
  const dirs = [
    ...(criteriaDir === undefined ? [] : [resolve(criteriaDir)]),
    resolve("config/evaluation/criteria"),
    PACKAGE_CRITERIA_DIR,
  ];
  return [...new Set(dirs)];
}

/**
 * The file a `criteriaPath` names: absolute as is; relative against the working directory, then each
 * criteria folder. Undefined when none exists.
 */
function resolveCriteriaFile(criteriaPath: string, criteriaDir?: string): string | undefined {
  if (isAbsolute(criteriaPath)) return existsSync(criteriaPath) ? criteriaPath : undefined;
  const candidates = [
    resolve(criteriaPath),
    ...criteriaSearchPath(criteriaDir).map((d) => join(d, criteriaPath)),
  ];
  return candidates.find((c) => existsSync(c));
}

/**
 * The file a criteriaPath from outside names: only a relative path inside a criteria folder (real
 * paths compared, so no link out); absolute and `../` paths are refused without reading anything.
 */
function confinedCriteriaFile(criteriaPath: string, criteriaDir?: string): string | undefined {
  const refuse = (why: string) =>
    new EvaluationError(
      "input",
      `criteriaPath ${JSON.stringify(criteriaPath)} is refused: ${why}; name a catalog file inside a criteria folder`,
    );
  if (isAbsolute(criteriaPath)) throw refuse("an absolute path");
  for (const folder of criteriaSearchPath(criteriaDir)) {
    const candidate = resolve(folder, criteriaPath);
    if (!isInside(folder, candidate)) throw refuse("the path leads outside the criteria folder");
    if (!existsSync(candidate)) continue;
    if (!isInside(realpathSync(folder), realpathSync(candidate))) {
      throw refuse("a symbolic link leads outside the criteria folder");
    }
    return candidate;
  }
  return undefined;
}

export interface LoadedStageCatalog {
  catalog: Catalog;
  file: string | undefined;
}

/**
 * Loads a stage's catalog: the registry's active version when it holds one, else the file; built-in
 * defaults only when no file exists (an invalid file throws, never a silent fallback).
 */
export async function loadStageCatalog(
  criteriaPath: string,
  contentType: string,
  criteriaDir?: string,
  confined = false,
  registry?: ActiveCatalogs,
): Promise<LoadedStageCatalog> {
  const loaded = await stageCatalogFile(criteriaPath, contentType, criteriaDir, confined);
  return { ...loaded, catalog: await activeCatalog(loaded.catalog, registry) };
}

async function stageCatalogFile(
  criteriaPath: string,
  contentType: string,
  criteriaDir: string | undefined,
  confined: boolean,
): Promise<LoadedStageCatalog> {
  const file = confined
    ? confinedCriteriaFile(criteriaPath, criteriaDir)
    : resolveCriteriaFile(criteriaPath, criteriaDir);
  if (file === undefined) {
    const catalog = defaultCatalog(contentType);
    const tried = criteriaSearchPath(criteriaDir).join(", ");
    catalog.warnings.push(
      `no criteria file "${criteriaPath}" found (looked in the working directory and ${tried}): the built-in default criteria were used`,
    );
    return { catalog, file: undefined };
  }
  return { catalog: await loadCatalog(file), file };
}
