import { calibrationReport } from "evalgate";
import { openReviewStore } from "evalgate/store";

/** Where the judge and the reviewers disagreed on budgets since October 2026. */
export async function budgetDisagreements(sqlitePath = ".evalgate/checkpoints.sqlite") {
  const store = await openReviewStore({ sqlitePath });
  try {
    const report = await calibrationReport({ store, since: "2026-10-01", contentType: "budget" });
    for (const row of report.disagreements)
      console.log(row.criterionId, row.disagreed, row.compared);
    return report;
  } finally {
    await store.close();
  }
}
