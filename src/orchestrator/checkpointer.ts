import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import pg from "pg";
import { errorMessageOf } from "../pointFunctions/contract.js";
import { redactSecretText } from "../redact.js";
import { surviveConnectionLoss } from "../store/connections.js";
import { storeDataInvalid } from "../store/errors.js";
import { type DatabaseOptions, databaseLocation } from "../store/location.js";
import { CheckpointerError } from "./errors.js";

export type CheckpointerOptions = DatabaseOptions;

/** An open checkpoint store: the LangGraph saver, what it is, and how to close it. */
export interface Checkpointer {
  readonly saver: BaseCheckpointSaver;
  readonly kind: "sqlite" | "postgres";
  readonly location: string;
  close(): Promise<void>;
}

function once(action: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= action();
    return closing;
  };
}

/** Runs `step`; its failure is a CheckpointerError saying what could not be done, after `undo`. */
async function attempt<T>(
  location: string,
  what: string,
  step: () => T | Promise<T>,
  undo?: () => Promise<void>,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    await undo?.().catch(() => undefined);
    throw new CheckpointerError(location, `${what}: ${errorMessageOf(error)}`, { cause: error });
  }
}

async function openSqlite(location: string): Promise<Checkpointer> {
  if (location !== ":memory:") {
    await attempt(location, "cannot create its folder", () =>
      mkdirSync(dirname(location), { recursive: true }),
    );
  }
  const db = await attempt(location, "cannot open the SQLite file", () => new Database(location));
  // Checkpoints deflated (a third of the bytes); rows written without it are read as they are.
  const saver = new SqliteSaver(db, new DeflatedJsonSerializer());
  const close = once(async () => {
    db.close();
  });
  const setUp = async () => {
    // Creates the tables now, so an unusable file is reported here and not on first use.
    await saver.getTuple({ configurable: { thread_id: "" } });
    // The checkpoint connection commits without waiting for the disk (WAL, `synchronous = NORMAL`):
    // only a power loss can take back the last commits, and no decision is lost with them — the
    // review store records it (waiting for the disk) before it is accepted, and the runner applies
    // again any decision the checkpoint does not show. Waiting for the disk was most of a resume's
    // database time.
    db.pragma("synchronous = NORMAL");
  };
  await attempt(location, "not a usable SQLite database", setUp, close);
  return { saver, kind: "sqlite", location, close };
}

/**
 * PostgreSQL's counterpart of SQLite's `synchronous = NORMAL` (`synchronous_commit = off`): only a database crash takes
 * back the last commits, in order, and the review store's own connections still wait for the flush.
 */
const ASYNCHRONOUS_COMMIT = "-c synchronous_commit=off";

async function openPostgres(url: string): Promise<Checkpointer> {
  const location = redactSecretText(url);
  // Its connections are cut when the server restarts: the pool listens, the process lives on.
  const saver = await attempt(location, "invalid PostgreSQL URL", () => {
    const options = { connectionString: url, options: ASYNCHRONOUS_COMMIT };
    return new PostgresSaver(surviveConnectionLoss(new pg.Pool(options)));
  });
  const close = once(() => saver.end());
  await attempt(location, "cannot set up the checkpoint tables", () => saver.setup(), close);
  return { saver, kind: "postgres", location, close };
}

/**
 * Opens the checkpoint store: PostgreSQL when `databaseUrl` (or, without `sqlitePath`, DATABASE_URL)
 * is given, else SQLite at `.evalgate/checkpoints.sqlite` under the working directory.
 */
export async function createCheckpointer(options: CheckpointerOptions = {}): Promise<Checkpointer> {
  if (options.sqlitePath?.trim() === "" && !options.databaseUrl?.trim()) {
    throw new CheckpointerError("(sqlite)", "the SQLite path is empty");
  }
  const location = databaseLocation(options);
  return location.kind === "postgres" ? openPostgres(location.url) : openSqlite(location.path);
}

/** The row type of a deflated checkpoint, write or metadata. */
export const DEFLATED_JSON = "deflated-json";

/** A stored value never expands beyond this (a row that would is refused, not inflated). */
const MAX_CHECKPOINT_BYTES = 256 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

type Serializer = Pick<JsonPlusSerializer, "dumpsTyped" | "loadsTyped">;

/**
 * The SQLite checkpointer's serializer: LangGraph's own JSON, deflated to about a third and kept as
 * base64 text (the saver reads pending writes through `CAST(value AS TEXT)`); `json` rows read as
 * they are. PostgreSQL keeps LangGraph's serializer, which compresses large values itself.
 */
export class DeflatedJsonSerializer implements Serializer {
  private readonly json = new JsonPlusSerializer();
  private readonly maxBytes: number;

  constructor(options: { maxBytes?: number } = {}) {
    this.maxBytes = options.maxBytes ?? MAX_CHECKPOINT_BYTES;
  }

  async dumpsTyped(value: unknown): Promise<[string, Uint8Array]> {
    const [type, data] = await this.json.dumpsTyped(value);
    if (type !== "json") return [type, data];
    const deflated = deflateRawSync(
      typeof data === "string" ? new TextEncoder().encode(data) : data,
    ).toString("base64");
    return [DEFLATED_JSON, new TextEncoder().encode(deflated)];
  }

  async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    if (type !== DEFLATED_JSON) return this.json.loadsTyped(type, data);
    const text = typeof data === "string" ? data : new TextDecoder().decode(data);
    if (!BASE64.test(text)) {
      throw storeDataInvalid("a stored checkpoint is not readable: its text is not base64");
    }
    let json: Buffer;
    try {
      json = inflateRawSync(Buffer.from(text, "base64"), { maxOutputLength: this.maxBytes });
    } catch (error) {
      const reason =
        error instanceof RangeError
          ? `it expands beyond ${this.maxBytes} bytes`
          : "its deflated data is damaged";
      throw storeDataInvalid(`a stored checkpoint is not readable: ${reason}`, { cause: error });
    }
    return this.json.loadsTyped("json", json);
  }
}
