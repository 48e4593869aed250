/**
 * The dialect layer every store is written once over (SQLite or PostgreSQL). Transaction bodies
 * are generators, so one body runs synchronously on SQLite and step by step on PostgreSQL.
 */
import type Database from "better-sqlite3";
import { Kysely, PostgresDialect, type RawBuilder, SqliteDialect, sql } from "kysely";
import type pg from "pg";
import { z } from "zod";
import { parseUntrustedJson } from "../untrusted/json.js";
import {
  asStoreFailure,
  CONFLICT_ATTEMPTS,
  conflictPause,
  isTransactionConflict,
} from "./databaseFailures.js";
import { storeDataInvalid } from "./errors.js";

export type DialectName = "sqlite" | "postgres";

export type NativeConnection =
  | { dialect: "sqlite"; db: Database.Database }
  | { dialect: "postgres"; pool: pg.Pool };

export interface SchemaWords {
  dialect: DialectName;
  serialKey: string;
  keyValueTable: string;
}

export const SCHEMA_WORDS: Readonly<Record<DialectName, SchemaWords>> = {
  sqlite: {
    dialect: "sqlite",
    serialKey: "INTEGER PRIMARY KEY AUTOINCREMENT",
    keyValueTable: " WITHOUT ROWID",
  },
  postgres: { dialect: "postgres", serialKey: "BIGSERIAL PRIMARY KEY", keyValueTable: "" },
};

// Every row read is checked with a zod schema (rowReader), so Kysely needs no table types.
type NoTables = Record<string, never>;

export const now = () => new Date().toISOString();

/** A boolean as either database gives it back: SQLite has no boolean values (1 or 0). */
export const BooleanColumnSchema = z
  .union([z.boolean(), z.number()])
  .transform((v) => v === true || v === 1);

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A reader of rows into `schema`'s records: columns camelCased (or `renamed`), `json` columns
 * parsed; a row of another shape is STORE_DATA_INVALID naming `named`.
 */
export function rowReader<T extends z.ZodType>(
  schema: T,
  named: string | ((row: Record<string, unknown>) => string),
  options: { json?: readonly string[]; renamed?: Readonly<Record<string, string>> } = {},
): (row: unknown) => z.output<T> {
  return (row) => {
    const what = typeof named === "string" ? named : named(row as Record<string, unknown>);
    const fields: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row as object)) {
      const json = options.json?.includes(column) === true && typeof value === "string";
      fields[options.renamed?.[column] ?? camel(column)] = json
        ? parseUntrustedJson(value, (_problem, description) =>
            storeDataInvalid(`${what}: ${column} is not usable JSON: ${description}`),
          )
        : value;
    }
    const parsed = schema.safeParse(fields);
    if (!parsed.success) throw storeDataInvalid(`${what}: ${z.prettifyError(parsed.error)}`);
    return parsed.data;
  };
}

/** JSON text kept in the store, checked by `schema` (else STORE_DATA_INVALID naming `what`). */
export function storedJson<T extends z.ZodType>(
  text: string,
  schema: T,
  what: string,
): z.output<T> {
  const value = parseUntrustedJson(text, (_problem, description) =>
    storeDataInvalid(`${what} is not usable JSON: ${description}`),
  );
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw storeDataInvalid(`${what}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

export type Statement =
  | { query: RawBuilder<unknown>; script?: undefined }
  | { script: string; query?: undefined };

export interface StatementResult {
  rows: unknown[];
  changes: number;
}

export type Step<T> = Generator<Statement, T, StatementResult>;

export interface Transaction {
  readonly dialect: DialectName;
  readonly words: SchemaWords;
  bool(value: boolean): boolean | number;
  all(query: RawBuilder<unknown>): Step<unknown[]>;
  first(query: RawBuilder<unknown>): Step<unknown>;
  run(query: RawBuilder<unknown>): Step<number>;
  script(text: string): Step<void>;
  /** An advisory lock on PostgreSQL until the end; SQLite's transaction holds the write lock already. */
  lockUntilCommit(key: string | number): Step<void>;
  /**
   * PostgreSQL's `synchronous_commit = off` for this transaction: only for rows whose loss in a
   * server crash costs nothing (a status the next settlement writes again, an event log entry).
   */
  commitWithoutFlush(): Step<void>;
}

export type TransactionBody<T> = (tx: Transaction) => Step<T>;

/** At most this many prepared SQLite statements are kept per connection. */
const STATEMENTS_KEPT = 256;

export class StoreDatabase {
  private closing: Promise<void> | undefined;
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(
    readonly native: NativeConnection,
    private readonly kysely: Kysely<NoTables>,
    private readonly owned: boolean,
  ) {}

  static on(native: NativeConnection, owned: boolean): StoreDatabase {
    const dialect =
      native.dialect === "sqlite"
        ? new SqliteDialect({ database: native.db })
        : new PostgresDialect({ pool: native.pool });
    return new StoreDatabase(native, new Kysely<NoTables>({ dialect }), owned);
  }

  get dialect(): DialectName {
    return this.native.dialect;
  }

  get words(): SchemaWords {
    return SCHEMA_WORDS[this.dialect];
  }

  bool(value: boolean): boolean | number {
    return this.dialect === "sqlite" ? Number(value) : value;
  }

  async all(query: RawBuilder<unknown>): Promise<unknown[]> {
    return (await this.statement({ query })).rows;
  }

  async first(query: RawBuilder<unknown>): Promise<unknown> {
    return (await this.all(query))[0];
  }

  async run(query: RawBuilder<unknown>): Promise<number> {
    return (await this.statement({ query })).changes;
  }

  /** Statements separated by semicolons, without values (schema changes). */
  async script(text: string): Promise<void> {
    await this.statement({ script: text });
  }

  private statement(statement: Statement): Promise<StatementResult> {
    return this.again(() => this.execute(statement, this.kysely));
  }

  /** Runs `work` again (bounded, after a pause) while PostgreSQL breaks up a conflict. */
  private async again<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        if (!isTransactionConflict(error) || attempt >= CONFLICT_ATTEMPTS) {
          throw asStoreFailure(error);
        }
        await conflictPause(attempt);
      }
    }
  }

  /**
   * Runs the body in one transaction. On SQLite the whole body runs synchronously under BEGIN
   * IMMEDIATE and never yields while holding the write lock: a checkpointer's connection of this
   * process waiting for it would block the thread in its busy wait. On PostgreSQL a transaction
   * rolled back to break a conflict runs again from the start of its body.
   */
  async transaction<T>(body: TransactionBody<T>): Promise<T> {
    const native = this.native;
    if (native.dialect === "sqlite") {
      const run = native.db.transaction(() => {
        const steps = body(this.steps());
        let step = steps.next();
        while (step.done !== true) step = steps.next(this.executeNow(step.value));
        return step.value;
      });
      try {
        return run.immediate();
      } catch (error) {
        throw asStoreFailure(error);
      }
    }
    return this.again(() =>
      this.kysely.transaction().execute(async (trx) => {
        const steps = body(this.steps());
        let step = steps.next();
        while (step.done !== true) step = steps.next(await this.execute(step.value, trx));
        return step.value;
      }),
    );
  }

  private steps(): Transaction {
    const { dialect, words } = this;
    const bool = (value: boolean) => this.bool(value);
    return {
      dialect,
      words,
      bool,
      *all(query) {
        return (yield { query }).rows;
      },
      *first(query) {
        return (yield { query }).rows[0];
      },
      *run(query) {
        return (yield { query }).changes;
      },
      *script(text) {
        yield { script: text };
      },
      *commitWithoutFlush() {
        if (dialect === "sqlite") return;
        yield { script: "SET LOCAL synchronous_commit = off" };
      },
      *lockUntilCommit(key) {
        if (dialect === "sqlite") return;
        yield {
          query:
            typeof key === "number"
              ? sql`SELECT pg_advisory_xact_lock(${key})`
              : sql`SELECT pg_advisory_xact_lock(hashtext(${key}))`,
        };
      },
    };
  }

  private async execute(
    statement: Statement,
    executor: Kysely<NoTables>,
  ): Promise<StatementResult> {
    if (this.native.dialect === "sqlite") return this.executeNow(statement);
    if (statement.script !== undefined) {
      await sql.raw(statement.script).execute(executor);
      return { rows: [], changes: 0 };
    }
    const result = await statement.query.execute(executor);
    return { rows: result.rows, changes: Number(result.numAffectedRows ?? 0n) };
  }

  private executeNow(statement: Statement): StatementResult {
    const native = this.native;
    if (native.dialect !== "sqlite") throw new Error("only a SQLite statement runs at once");
    if (statement.script !== undefined) {
      native.db.exec(statement.script);
      return { rows: [], changes: 0 };
    }
    const { sql: text, parameters } = statement.query.compile(this.kysely);
    let prepared = this.statements.get(text);
    if (prepared === undefined) {
      if (this.statements.size >= STATEMENTS_KEPT) this.statements.clear();
      prepared = native.db.prepare(text);
      this.statements.set(text, prepared);
    }
    if (prepared.reader) return { rows: prepared.all(...parameters), changes: 0 };
    return { rows: [], changes: prepared.run(...parameters).changes };
  }

  async hasTable(name: string): Promise<boolean> {
    if (this.dialect === "sqlite") {
      const row = await this.first(
        sql`SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ${name}`,
      );
      return row !== undefined;
    }
    const row = await this.first(sql`SELECT to_regclass(${name})::text AS found`);
    return typeof (row as { found?: unknown } | undefined)?.found === "string";
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.first(sql`SELECT 1 AS ok`)) !== undefined;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    if (!this.owned) return Promise.resolve();
    const native = this.native;
    if (native.dialect === "postgres") {
      this.closing ??= native.pool.end();
      return this.closing;
    }
    if (native.db.open) native.db.close();
    return Promise.resolve();
  }
}
