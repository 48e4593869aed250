/**
 * Opens the rubric and artifact registries' store in the database of the checkpoints: PostgreSQL
 * when a URL is given (or DATABASE_URL is set and no SQLite path is), otherwise SQLite in the
 * checkpoints' file — the choice openReviewStore makes.
 */
import { type ReviewStoreOptions, reviewStoreLocation } from "./index.js";
import { PostgresRegistryStore } from "./postgresRegistryStore.js";
import type { RegistryStore } from "./registryTypes.js";
import { SqliteRegistryStore } from "./sqliteRegistryStore.js";

export type RegistryStoreOptions = ReviewStoreOptions;

export async function openRegistryStore(
  options: RegistryStoreOptions = {},
): Promise<RegistryStore> {
  const location = reviewStoreLocation(options);
  if (location.kind === "postgres") return PostgresRegistryStore.open(location.url);
  return SqliteRegistryStore.open(location.path);
}
