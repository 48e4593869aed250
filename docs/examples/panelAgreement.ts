import {
  CriterionPanelSchema,
  krippendorffAlpha,
  type PanelOptions,
  PanelSettingsSchema,
  type PanelSummary,
  PanelSummarySchema,
  scaleAgreement,
} from "evalgate";

// Units are criteria, one value per judge (null: no answer); the metric follows the scale.
export const alpha = krippendorffAlpha(
  [
    [4, 4, 5],
    [2, 3, 2],
    [5, 5, 5],
  ],
  "interval",
);

// One criterion's agreement: three judges on a 1–5 scale.
export const oneCriterion = scaleAgreement([4, 4, 5], {
  kind: "points",
  points: [1, 2, 3, 4, 5],
  metric: "interval",
});

/** A stored result's panel read back and checked, beside the settings it was asked with. */
export function readPanel(
  stored: { panel?: unknown; criteria: { panel?: unknown }[] },
  asked: PanelOptions,
) {
  const settings = PanelSettingsSchema.parse(asked); // aggregate: "median" unless asked otherwise
  const summary: PanelSummary = PanelSummarySchema.parse(stored.panel);
  const criteria = stored.criteria.map((criterion) => CriterionPanelSchema.parse(criterion.panel));
  return { settings, summary, criteria };
}
