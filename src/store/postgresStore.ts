/**
 * The review store on PostgreSQL (pg), in the checkpoints' database, shared by any number of
 * replicas. Migrations run under an advisory lock, so replicas starting together do not race; a
 * thread's lock is a session advisory lock on a connection held while the job runs.
 */
import { openMigratedPostgres } from "./connections.js";
import { SqlReviewStore } from "./reviewStore.js";

export class PostgresReviewStore extends SqlReviewStore {
  /** The store on a pool of `poolSize` connections to `url`, its schema up to date. */
  static async open(url: string, poolSize = 10): Promise<PostgresReviewStore> {
    return new PostgresReviewStore(await openMigratedPostgres(url, poolSize));
  }
}
