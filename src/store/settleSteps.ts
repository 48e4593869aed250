/** The steps of a thread's settlement that read before they write. */
import { sql } from "kysely";
import type { Step, Transaction } from "./database.js";
import { decisionOf } from "./rows.js";
import type { DecisionRow, PendingRow, ThreadSettlement } from "./types.js";

export function* decisionsOn(
  tx: Transaction,
  threadId: string,
  interruptIds: readonly string[],
): Step<DecisionRow[]> {
  const rows = yield* tx.all(
    sql`SELECT * FROM decisions
        WHERE thread_id = ${threadId} AND interrupt_id IN (${sql.join(interruptIds)})`,
  );
  return rows.map(decisionOf);
}

export function* pendingInterrupts(tx: Transaction, threadId: string): Step<string[]> {
  const rows = yield* tx.all(
    sql`SELECT interrupt_id FROM pending_reviews WHERE thread_id = ${threadId}`,
  );
  return rows.map((row) => String((row as { interrupt_id: unknown }).interrupt_id));
}

/** Whether the index lists exactly the reviews of `rows` (in any order). */
export function sameInterrupts(listed: readonly string[], rows: readonly PendingRow[]): boolean {
  const wanted = new Set(rows.map((row) => row.interruptId));
  return listed.length === wanted.size && listed.every((id) => wanted.has(id));
}

export function* markDecisions(
  tx: Transaction,
  settlement: ThreadSettlement,
  at: string,
): Step<void> {
  if (settlement.applied.length > 0) {
    yield* tx.run(
      sql`UPDATE decisions SET applied_at = ${at}
          WHERE id IN (${sql.join(settlement.applied)}) AND applied_at IS NULL`,
    );
  }
  for (const refused of settlement.refused ?? []) {
    yield* tx.run(
      sql`UPDATE decisions SET refused_at = ${at}, refusal = ${refused.reason}
          WHERE id = ${refused.id}`,
    );
    yield* tx.run(sql`DELETE FROM calibration_labels WHERE decision_id = ${refused.id}`);
  }
}
