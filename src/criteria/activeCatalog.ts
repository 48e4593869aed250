/** Where a store is configured, a gate judges with the registry's active version of its catalog. */
import type { Catalog } from "./model.js";

export interface ActiveCatalogs {
  active(id: string): Promise<Catalog | undefined>;
}

/** `budget@1.0.1`: a registry version as results and traces record it. */
export function registryVersionOf(catalog: Pick<Catalog, "id" | "version">): string {
  return `${catalog.id}@${catalog.version}`;
}

/** A catalog the registry supplied already is not looked up again. */
export async function activeCatalog(
  catalog: Catalog,
  registry: ActiveCatalogs | undefined,
): Promise<Catalog> {
  if (registry === undefined || catalog.registryVersion !== undefined) return catalog;
  const active = await registry.active(catalog.id);
  if (active === undefined) return catalog;
  return { ...active, registryVersion: registryVersionOf(active) };
}
