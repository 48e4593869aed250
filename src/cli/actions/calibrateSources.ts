/**
 * What `calibrate` reads: its options, the review store, the catalog or rubric, and the traces a
 * replay judges again.
 */
import { resolve } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { activeCatalog } from "../../criteria/activeCatalog.js";
import { loadCatalog } from "../../criteria/load.js";
import type { Catalog } from "../../criteria/model.js";
import type { TraceStore } from "../../store/traceStore.js";
import { PostgresTraceStore, SqliteTraceStore } from "../../store/traceStore.js";
import type { CliContext } from "../context.js";
import { CliError } from "../errors.js";
import type { CalibrationFormat } from "../report/calibration/render.js";
import {
  type CheckpointStore,
  describeStore,
  type StoreFlags,
  withRubricRegistry,
} from "../review/store.js";

export interface CalibrateCommandOptions extends StoreFlags {
  /** ISO instants (the command has parsed dates and durations). */
  since?: string;
  until?: string;
  contentType?: string;
  format: CalibrationFormat;
  out?: string;
  compare?: boolean;
  apply?: boolean;
  catalog?: string;
  rubric?: string;
  model?: string;
  yes?: boolean;
  /** With apply: write thresholds whose held-out agreement drops. */
  force?: boolean;
}

/**
 * The catalog --rubric names (its active version), or --catalog names: the file, unless the
 * store's registry holds its id — then its active version, which the store's gates judge with.
 */
export async function catalogOfFlags(
  flags: CalibrateCommandOptions,
  store: CheckpointStore,
  context: CliContext,
  what: string,
): Promise<Catalog> {
  if ((flags.catalog === undefined) === (flags.rubric === undefined)) {
    throw new CliError(
      `${what} needs the catalog its labels were judged with: --catalog <file> or --rubric <id>`,
    );
  }
  const rubric = flags.rubric;
  if (rubric !== undefined) return withRubricRegistry(store, (r) => r.require(rubric));
  const file = await loadCatalog(resolve(context.cwd, flags.catalog as string));
  const catalog = await withRubricRegistry(store, (registry) => activeCatalog(file, registry));
  if (catalog.registryVersion !== undefined) {
    context.stderr.write(
      `${what} uses ${catalog.registryVersion}, the active version in the rubric registry of ${describeStore(store, context.cwd)}, which gates judge with instead of ${flags.catalog}\n`,
    );
  }
  return catalog;
}

/** The trace store of the database, and how to close what was opened for it. */
export function openTraceStore(store: CheckpointStore): {
  traces: TraceStore;
  close(): Promise<void>;
} {
  if (store.kind === "sqlite") {
    const db = new Database(store.path, { fileMustExist: true });
    db.pragma("busy_timeout = 10000");
    return { traces: new SqliteTraceStore(db), close: async () => void db.close() };
  }
  const pool = new pg.Pool({ connectionString: store.url, max: 2 });
  return { traces: new PostgresTraceStore(pool), close: () => pool.end() };
}
