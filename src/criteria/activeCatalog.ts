/** Where a store is configured, a gate judges with the registry's active version of its catalog. */
import type { Catalog } from "./model.js";

export interface ActiveCatalogs {
  active(id: string): Promise<Catalog | undefined>;
}

/** `budget@1.0.1`: a registry version as results and traces record it. */
export function registryVersionOf(catalog: Pick<Catalog, "id" | "version">): string {
  return `${catalog.id}@${catalog.version}`;
}

/**
 * A catalog the registry supplied already is not looked up again. The active version keeps the
 * given catalog's file as its source: its `module:function` refs resolve in that folder, as
 * without a store (a stored version has no folder of its own).
 */
export async function activeCatalog(
  catalog: Catalog,
  registry: ActiveCatalogs | undefined,
): Promise<Catalog> {
  if (registry === undefined || catalog.registryVersion !== undefined) return catalog;
  const active = await registry.active(catalog.id);
  if (active === undefined) return catalog;
  const source = catalog.source === undefined ? {} : { source: catalog.source };
  return { ...active, ...source, registryVersion: registryVersionOf(active) };
}
