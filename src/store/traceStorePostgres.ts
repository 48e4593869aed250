/** The trace store on PostgreSQL, on a pool that is open already (the checkpoints' database). */
import type pg from "pg";
import { StoreDatabase } from "./database.js";
import { SqlTraceStore } from "./traceStore.js";

export class PostgresTraceStore extends SqlTraceStore {
  constructor(pool: pg.Pool) {
    super(StoreDatabase.on({ dialect: "postgres", pool }, false));
  }
}
