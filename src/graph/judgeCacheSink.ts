/**
 * The judge-call cache of an evaluation node: by default the checkpointer's own database (its
 * SQLite file or PostgreSQL pool, handed to the run as its RunSinks), so every usable answer is on file as soon as it is known and a
 * run killed in the middle of an evaluation is resumed with only the criteria still to judge. A
 * graph with an in-memory checkpointer, or none, has no cache unless one is given.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { JudgeCacheSetting } from "../engine/judgeCache.js";
import { runSinksOf } from "./runSinks.js";

/**
 * The cache an evaluation node uses under this run: `false` turns it off; a setting with a store
 * uses that store; otherwise (with the setting's TTL) the checkpointer's database, when the run
 * has one.
 */
export function judgeCacheFor(
  setting: JudgeCacheSetting | undefined,
  config: LangGraphRunnableConfig | undefined,
): JudgeCacheSetting {
  if (setting === false) return false;
  if (setting?.store !== undefined) return setting;
  const store = runSinksOf(config).judgeCache;
  return store === undefined ? false : { ...setting, store };
}
