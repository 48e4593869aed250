import type { ActiveCatalogs } from "../criteria/activeCatalog.js";
import { type Catalog, CatalogSchema } from "../criteria/model.js";
import { type RubricSource, rubricCatalog } from "../engine/apis/rubricExecutor.js";
import { storedJson } from "../store/database.js";
import { StoreError } from "../store/errors.js";
import {
  openRegistryStore,
  type RegisteredVersion,
  type RegistryStore,
  type RegistryStoreOptions,
  type RubricVersionRow,
} from "../store/registryStore.js";
import { RubricConfigError, rubricNotFound } from "./errors.js";
import { readRubricFile } from "./rubricConfig.js";
import { decideVersion, rubricContentHash, storedRubric } from "./versioning.js";

/** Rubrics given in code, as a configuration object. */
export interface RubricConfig {
  rubrics: readonly RubricSource[];
}

export const MAX_RUBRIC_BYTES = 1024 * 1024;

/** What one registration came to: the rubric's id, its version, whether it was new. */
export type RegisteredRubric = RegisteredVersion & { id: string };

/** One stored version of a rubric. */
export interface RubricVersionInfo {
  id: string;
  version: string;
  targetType: string | undefined;
  registeredAt: string;
  contentHash: string;
  /** Whether this is the active version (never, once the rubric is deleted). */
  latest: boolean;
}

/** The active version of a rubric in a listing: read, or why its stored row cannot be. */
export type RubricListing = { id: string; version: string; targetType: string | undefined } & (
  | { rubric: Catalog; unreadable?: undefined }
  | { rubric?: undefined; unreadable: string }
);

function listingOf(row: RubricVersionRow): RubricListing {
  const at = { id: row.rubricId, version: row.version, targetType: row.targetType ?? undefined };
  try {
    return { ...at, rubric: rubricOf(row) };
  } catch (error) {
    if (!(error instanceof StoreError) || error.code !== "STORE_DATA_INVALID") throw error;
    return { ...at, unreadable: error.message };
  }
}

function rubricOf(row: RubricVersionRow): Catalog {
  return storedJson(row.body, CatalogSchema, `rubric ${row.rubricId} ${row.version}`);
}

function hasOwnId(rubric: RubricSource): boolean {
  if (typeof rubric === "string") return true; // the text's own id, checked after parsing
  const id = (rubric as { id?: unknown }).id;
  return typeof id === "string" && id.trim() !== "";
}

/**
 * Versioned rubrics in the checkpoints' database. The same content keeps its version; changed
 * content gets the version it declares when new and later, else the next (`1.0.0` → `1.0.1`).
 *
 * @example
 * const registry = await RubricRegistry.open({ sqlitePath: ".evalgate/checkpoints.sqlite" });
 * const version = await registry.register(rubric);
 */
export class RubricRegistry implements ActiveCatalogs {
  constructor(private readonly store: RegistryStore) {}

  static async open(options: RegistryStoreOptions = {}): Promise<RubricRegistry> {
    return new RubricRegistry(await openRegistryStore(options));
  }

  /** Opens the registry and registers every rubric of a file or of `{ rubrics: [...] }`. */
  static async fromConfig(
    config: string | RubricConfig,
    options: RegistryStoreOptions = {},
  ): Promise<RubricRegistry> {
    const registry = await RubricRegistry.open(options);
    try {
      if (typeof config === "string") await registry.registerFile(config);
      else await registry.registerConfig(config);
    } catch (error) {
      await registry.close();
      throw error;
    }
    return registry;
  }

  /** Registers a rubric (any catalog form); its version. */
  async register(rubric: RubricSource): Promise<string> {
    return (await this.add(rubric)).version;
  }

  /** register, under the rubric format's name. */
  async update(rubric: RubricSource): Promise<string> {
    return this.register(rubric);
  }

  async add(rubric: RubricSource): Promise<RegisteredRubric> {
    if (!hasOwnId(rubric)) {
      throw new RubricConfigError("<rubric>", "a rubric needs an id to be registered");
    }
    return this.registerCatalog(rubricCatalog(rubric));
  }

  /** All are checked before the first is stored. */
  async registerFile(file: string): Promise<RegisteredRubric[]> {
    return this.registerAll(await readRubricFile(file));
  }

  /** All are checked before the first is stored. */
  async registerConfig(config: RubricConfig): Promise<RegisteredRubric[]> {
    return this.registerAll(
      config.rubrics.map((rubric, index) => {
        const where = `<config> ($.rubrics[${index}])`;
        if (!hasOwnId(rubric)) throw new RubricConfigError(where, "a rubric needs an id");
        return rubricCatalog(rubric, where);
      }),
    );
  }

  private async registerAll(catalogs: readonly Catalog[]): Promise<RegisteredRubric[]> {
    const registered: RegisteredRubric[] = [];
    for (const catalog of catalogs) registered.push(await this.registerCatalog(catalog));
    return registered;
  }

  private async registerCatalog(catalog: Catalog): Promise<RegisteredRubric> {
    const contentHash = rubricContentHash(catalog);
    const size = Buffer.byteLength(JSON.stringify(storedRubric(catalog, catalog.version)));
    if (size > MAX_RUBRIC_BYTES) {
      throw new RubricConfigError(
        catalog.source ?? catalog.id,
        `rubric ${catalog.id} is ${size} bytes as JSON, over the limit of ${MAX_RUBRIC_BYTES}`,
      );
    }
    const decided = await this.store.registerRubric(
      {
        rubricId: catalog.id,
        contentHash,
        targetType: catalog.targetType ?? null,
        bodyOf: (version) => JSON.stringify(storedRubric(catalog, version)),
      },
      (latest, isTaken, active) =>
        decideVersion(latest, catalog.version, contentHash, isTaken, active),
    );
    return { id: catalog.id, ...decided };
  }

  /** The active version of a rubric, or the version asked for. */
  async get(id: string, version?: string): Promise<Catalog | undefined> {
    const row = await this.store.rubricVersion(id, version);
    return row === undefined ? undefined : rubricOf(row);
  }

  /** The version gates judge with: the latest registered, or the one `activate` chose. */
  async active(id: string): Promise<Catalog | undefined> {
    return this.get(id);
  }

  /** Makes a stored version the active one (a roll-back); RUBRIC_NOT_FOUND when there is none. */
  async activate(id: string, version: string): Promise<void> {
    if (!(await this.store.activateRubric(id, version))) throw rubricNotFound(id, version);
  }

  async require(id: string, version?: string): Promise<Catalog> {
    const rubric = await this.get(id, version);
    if (rubric === undefined) throw rubricNotFound(id, version);
    return rubric;
  }

  async getForTarget(targetType: string): Promise<Catalog[]> {
    return (await this.store.latestRubrics(targetType)).map(rubricOf);
  }

  async listAll(): Promise<Catalog[]> {
    return (await this.store.latestRubrics()).map(rubricOf);
  }

  /** Every active version (of a target type): one whose stored row cannot be read says why. */
  async listing(targetType?: string): Promise<RubricListing[]> {
    return (await this.store.latestRubrics(targetType)).map(listingOf);
  }

  /** Every stored version, oldest first (a deleted rubric's too). */
  async versions(id: string): Promise<RubricVersionInfo[]> {
    const rows = await this.store.rubricVersions(id);
    const latest = await this.store.rubricVersion(id);
    return rows.map((row) => ({
      id: row.rubricId,
      version: row.version,
      targetType: row.targetType ?? undefined,
      registeredAt: row.registeredAt,
      contentHash: row.contentHash,
      latest: latest?.version === row.version,
    }));
  }

  /** Hides a rubric (its versions stay readable by version). */
  async delete(id: string): Promise<boolean> {
    return this.store.hideRubric(id);
  }

  async close(): Promise<void> {
    await this.store.close();
  }
}
