/** Which database the checkpoints and the store live in, decided in one place for both. */
import { isAbsolute, resolve } from "node:path";

/** Where the SQLite checkpoints (and the store beside them) go by default, relative to the working directory. */
export const DEFAULT_SQLITE_PATH = ".evalgate/checkpoints.sqlite";

export interface DatabaseOptions {
  /** SQLite file (relative to `cwd`), or `:memory:`. Default: `.evalgate/checkpoints.sqlite`. */
  sqlitePath?: string;
  /** A PostgreSQL URL; wins over everything else. */
  databaseUrl?: string;
  /** Where DATABASE_URL is read from (default: process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The working directory a relative sqlitePath is resolved against (default: process.cwd()). */
  cwd?: string;
}

export type DatabaseLocation = { kind: "sqlite"; path: string } | { kind: "postgres"; url: string };

export function databaseLocation(options: DatabaseOptions = {}): DatabaseLocation {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const explicitUrl = options.databaseUrl?.trim();
  if (explicitUrl !== undefined && explicitUrl !== "")
    return { kind: "postgres", url: explicitUrl };
  if (options.sqlitePath === undefined) {
    const envUrl = env.DATABASE_URL?.trim();
    if (envUrl !== undefined && envUrl !== "") return { kind: "postgres", url: envUrl };
  }
  const path = options.sqlitePath ?? DEFAULT_SQLITE_PATH;
  return {
    kind: "sqlite",
    path: path === ":memory:" || isAbsolute(path) ? path : resolve(cwd, path),
  };
}
