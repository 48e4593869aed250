/**
 * `evaluate --few-shot`: the store's reviewer corrections, opened only when the flag or the catalog
 * asks.
 */
import { existsSync } from "node:fs";
import type { Catalog } from "../criteria/model.js";
import type { FewShotOption } from "../engine/fewShotExamples.js";
import { CliError, InputFileError } from "./errors.js";

export interface FewShotFlags {
  fewShot?: boolean;
  db?: string;
}

export interface OpenedFewShot {
  option?: FewShotOption;
  close(): Promise<void>;
}

const NONE: OpenedFewShot = { close: async () => {} };

export async function openFewShot(
  flags: FewShotFlags,
  catalog: Catalog,
  at: (path: string) => string,
): Promise<OpenedFewShot> {
  const wanted = flags.fewShot === true || catalog.fewShot?.enabled === true;
  if (!wanted) return NONE;
  if (flags.db === undefined) {
    if (flags.fewShot === true) {
      throw new CliError("--few-shot reads the reviewers' corrections from a --db <file>");
    }
    return NONE;
  }
  const path = at(flags.db);
  if (!existsSync(path)) throw new InputFileError("--db file", flags.db, "does not exist");
  const [{ openReviewStore, SqliteTraceStore }, { storeExampleSource }, { default: Database }] =
    await Promise.all([
      import("../store/index.js"),
      import("../calibration/fewShot.js"),
      import("better-sqlite3"),
    ]);
  const store = await openReviewStore({ sqlitePath: path });
  const db = new Database(path, { fileMustExist: true });
  return {
    option: {
      source: storeExampleSource(store, new SqliteTraceStore(db)),
      ...(flags.fewShot === true ? { enabled: true } : {}),
    },
    close: async () => {
      db.close();
      await store.close();
    },
  };
}
