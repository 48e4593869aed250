/**
 * What `calibrate` reads: its options, the review store, the catalog or rubric, and the traces a
 * replay judges again.
 */
import { resolve } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { loadCatalog } from "../../criteria/load.js";
import type { Catalog } from "../../criteria/model.js";
import type { TraceStore } from "../../store/traceStore.js";
import { PostgresTraceStore, SqliteTraceStore } from "../../store/traceStore.js";
import type { CliContext } from "../context.js";
import { CliError } from "../errors.js";
import type { CalibrationFormat } from "../report/calibration/render.js";
import { type CheckpointStore, type StoreFlags, withRubricRegistry } from "../review/store.js";

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

/** The catalog --catalog names (a file) or --rubric names (the latest registered version). */
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
  if (flags.catalog !== undefined) return loadCatalog(resolve(context.cwd, flags.catalog));
  const rubric = flags.rubric as string;
  return withRubricRegistry(store, (registry) => registry.require(rubric));
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
