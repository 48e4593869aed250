/**
 * What `calibrate` reads: its options, the review store, the catalog or rubric, and the traces a
 * replay judges again.
 */
import { resolve } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { loadCatalog } from "../../criteria/load.js";
import type { Catalog } from "../../criteria/model.js";
import { RubricRegistry } from "../../rubrics/rubricRegistry.js";
import type { TraceStore } from "../../store/traceStore.js";
import { PostgresTraceStore, SqliteTraceStore } from "../../store/traceStore.js";
import type { CliContext } from "../context.js";
import { CliError } from "../errors.js";
import { writeFileAtomically } from "../outputFile.js";
import type { CalibrationFormat } from "../report/calibration/render.js";
import type { CheckpointStore } from "../review/store.js";

export interface CalibrateCommandOptions {
  db?: string;
  databaseUrl?: string;
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

export function registryOptions(store: CheckpointStore) {
  return store.kind === "sqlite" ? { sqlitePath: store.path } : { databaseUrl: store.url };
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
  const registry = await RubricRegistry.open(registryOptions(store));
  try {
    return await registry.require(flags.rubric as string);
  } finally {
    await registry.close();
  }
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

/** The report on stdout, or in the file --out names (said on stderr). */
export async function writeReport(
  text: string,
  what: string,
  options: CalibrateCommandOptions,
  context: CliContext,
): Promise<void> {
  if (options.out === undefined) return void context.stdout.write(text);
  await writeFileAtomically(resolve(context.cwd, options.out), text);
  context.stderr.write(`wrote the ${options.format} ${what} to ${options.out}\n`);
}
