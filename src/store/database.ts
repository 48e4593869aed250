/**
 * The dialect layer every store is written once over, on a better-sqlite3 connection or a pg pool
 * (the store's own, or a checkpointer's, shared and left open). Statements are written with
 * Kysely's `sql` tag and compiled by Kysely for the database; PostgreSQL runs them through
 * Kysely's pg driver, SQLite on better-sqlite3 directly and synchronously (see transaction()).
 * Transaction bodies are generators (`yield* tx.run(...)`), so one body runs synchronously on
 * SQLite and step by step on PostgreSQL. The layer also holds what the databases say differently:
 * booleans, multi-statement scripts, whether a table exists, transaction-scoped locks, schema words.
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

/** The connection under a store: a SQLite file's, or a PostgreSQL pool. */
export type NativeConnection =
  | { dialect: "sqlite"; db: Database.Database }
  | { dialect: "postgres"; pool: pg.Pool };

/** The words a schema is written with where the two databases differ. */
export interface SchemaWords {
  dialect: DialectName;
  /** An auto-numbered 64-bit primary key column's type. */
  serialKey: string;
  /** What follows a key-value table's closing parenthesis. */
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

// The stores write SQL with the `sql` tag and check every row they read with a zod schema
// (rows.ts), so Kysely needs no table types.
type NoTables = Record<string, never>;

export const now = () => new Date().toISOString();

/** A boolean as either database gives it back: SQLite has no boolean values (1 or 0). */
export const BooleanColumnSchema = z
  .union([z.boolean(), z.number()])
  .transform((v) => v === true || v === 1);

const camel = (column: string) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A reader of rows into the records `schema` describes: each column under its camelCase name
 * (or the name `renamed` gives it), the `json` columns parsed first, columns the schema does not
 * name dropped. A row of another shape is STORE_DATA_INVALID naming `named` (or what it gives for the row).
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

/** One statement of a transaction body: a query, or a script of schema statements. */
export type Statement =
  | { query: RawBuilder<unknown>; script?: undefined }
  | { script: string; query?: undefined };

/** What a statement gave: its rows (for a query that returns rows) and the rows it changed. */
export interface StatementResult {
  rows: unknown[];
  changes: number;
}

/** A step of a transaction body: `const rows = yield* tx.all(query)`. */
export type Step<T> = Generator<Statement, T, StatementResult>;

/** What a transaction body may do; each method is a step the body runs with `yield*`. */
export interface Transaction {
  readonly dialect: DialectName;
  readonly words: SchemaWords;
  readonly booleans: "integer" | "boolean";
  bool(value: boolean): boolean | number;
  all(query: RawBuilder<unknown>): Step<unknown[]>;
  first(query: RawBuilder<unknown>): Step<unknown>;
  run(query: RawBuilder<unknown>): Step<number>;
  script(text: string): Step<void>;
  /**
   * Waits for, then holds until the transaction ends, the lock named by `key`: on PostgreSQL an
   * advisory lock (a number, or the hash of a text); SQLite's transaction holds the file's write
   * lock already.
   */
  lockUntilCommit(key: string | number): Step<void>;
  /**
   * Lets this transaction's commit return before its WAL record reaches the disk (PostgreSQL's
   * `SET LOCAL synchronous_commit = off`; SQLite keeps its connection's setting). Only for rows
   * whose loss in a crash of the database server costs nothing (a status the next settlement
   * writes again, an entry of a thread's event log): a process dying keeps the commit, and any
   * later commit that waits for the disk makes it durable too (the WAL is flushed in order).
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

  /** The layer on a connection; closing it closes the connection only when `owned`. */
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

  /** How a boolean is written: SQLite has no boolean values. */
  get booleans(): "integer" | "boolean" {
    return this.dialect === "sqlite" ? "integer" : "boolean";
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

  /** Runs a statement; the number of rows it changed. */
  async run(query: RawBuilder<unknown>): Promise<number> {
    return (await this.statement({ query })).changes;
  }

  /** Runs statements separated by semicolons, without values (schema changes). */
  async script(text: string): Promise<void> {
    await this.statement({ script: text });
  }

  /** One statement on its own, run again when PostgreSQL broke it up in a conflict. */
  private statement(statement: Statement): Promise<StatementResult> {
    return this.again(() => this.execute(statement, this.kysely));
  }

  /**
   * Runs `work`, again (a bounded number of times, after a short pause) while PostgreSQL rolls it
   * back to break a deadlock or a serialization failure; an unreachable database is thrown as
   * STORE_UNAVAILABLE.
   */
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
   * Runs the body in one transaction; any error rolls everything back. On SQLite the whole body
   * runs synchronously in a BEGIN IMMEDIATE transaction: it takes the file's write lock before
   * its first read and never yields to the event loop while holding it — another connection of
   * this process (a checkpointer's) that waited for the lock would block the thread in its busy
   * wait, and the transaction could never finish. On PostgreSQL the steps run one by one on one
   * pooled connection; a transaction PostgreSQL rolls back to break a deadlock or a serialization
   * failure runs again from the start of its body (bodies only read and write the database), so
   * such a conflict never reaches the caller.
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
    const { dialect, words, booleans } = this;
    const bool = (value: boolean) => this.bool(value);
    return {
      dialect,
      words,
      booleans,
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

  /** A statement on the SQLite connection, at once (compiled by Kysely, run by better-sqlite3). */
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

  /** Closes the connection when the layer owns it (once, however often it is called). */
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
