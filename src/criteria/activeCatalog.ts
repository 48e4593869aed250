/**
 * The registry is the catalogs' home: where a store is configured, a gate judges with the active
 * registry version of its catalog (the version `calibrate --apply` wrote, or the one
 * `rubrics activate` chose) and records it as `id@version`; a catalog the registry does not hold
 * is judged as its file gives it. Every gate reaches the registry through `activeCatalog`.
 */
import type { Catalog } from "./model.js";

/** What a gate asks the registry: the active version of a catalog, by id (RubricRegistry has it). */
export interface ActiveCatalogs {
  active(id: string): Promise<Catalog | undefined>;
}

/** `budget@1.0.1`: a registry version as results and traces record it. */
export function registryVersionOf(catalog: Pick<Catalog, "id" | "version">): string {
  return `${catalog.id}@${catalog.version}`;
}

/**
 * The catalog a gate judges with: the registry's active version of `catalog.id` when there is a
 * registry and it holds one (marked with `registryVersion`), else `catalog` as given. A catalog
 * the registry supplied already is not looked up again.
 */
export async function activeCatalog(
  catalog: Catalog,
  registry: ActiveCatalogs | undefined,
): Promise<Catalog> {
  if (registry === undefined || catalog.registryVersion !== undefined) return catalog;
  const active = await registry.active(catalog.id);
  if (active === undefined) return catalog;
  return { ...active, registryVersion: registryVersionOf(active) };
}
