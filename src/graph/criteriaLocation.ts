import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { defaultCatalog } from "../criteria/defaultCatalog.js";
import { loadCatalog } from "../criteria/load.js";
import type { Catalog } from "../criteria/model.js";
import { PACKAGE_CRITERIA_DIR } from "./packagePaths.js";

/** Where criteria files are looked for, in order, for a relative `criteriaPath`. */
export function criteriaSearchPath(criteriaDir?: string): string[] {
  const dirs = [
    ...(criteriaDir === undefined ? [] : [resolve(criteriaDir)]),
    resolve("config/evaluation/criteria"),
    PACKAGE_CRITERIA_DIR,
  ];
  return [...new Set(dirs)];
}

/**
 * The file a `criteriaPath` names: an absolute path as is; a relative one against the working
 * directory, then each criteria folder (config/evaluation/criteria/{type}.json).
 * Undefined when no such file exists anywhere.
 */
export function resolveCriteriaFile(
  criteriaPath: string,
  criteriaDir?: string,
): string | undefined {
  if (isAbsolute(criteriaPath)) return existsSync(criteriaPath) ? criteriaPath : undefined;
  const candidates = [
    resolve(criteriaPath),
    ...criteriaSearchPath(criteriaDir).map((d) => join(d, criteriaPath)),
  ];
  return candidates.find((c) => existsSync(c));
}

export interface LoadedStageCatalog {
  catalog: Catalog;
  /** The file read, or undefined when the built-in defaults were used. */
  file: string | undefined;
}

/**
 * Loads a stage's catalog. Built-in defaults only when no file exists at all; a file that exists
 * but is invalid throws its CatalogError (never a silent fallback).
 */
export async function loadStageCatalog(
  criteriaPath: string,
  contentType: string,
  criteriaDir?: string,
): Promise<LoadedStageCatalog> {
  const file = resolveCriteriaFile(criteriaPath, criteriaDir);
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
