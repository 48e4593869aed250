/**
 * `evalgate calibrate --apply`: thresholds fitted on the period's earlier labels and measured on
 * the later (held-out) ones become a registry version once an admin confirms; a threshold whose
 * held-out agreement drops is refused unless --force.
 */
import { readCalibrationLabels, resolveScope } from "../../calibration/labels.js";
import {
  catalogWithThresholds,
  heldOutDrops,
  planThresholds,
  type ThresholdChange,
  type ThresholdPlan,
} from "../../calibration/thresholds.js";
import { formatPercent } from "../../service/pages/calibrationText.js";
import { openReviewStore } from "../../store/index.js";
import type { CliContext, StdinInput } from "../context.js";
import { EXIT_FAILED } from "../context.js";
import { CliError } from "../errors.js";
import { createLineReader } from "../review/input.js";
import { type CheckpointStore, storeConnection, withRubricRegistry } from "../review/store.js";
import { type CalibrateCommandOptions, catalogOfFlags } from "./calibrateSources.js";

function figuresText(f: Omit<ThresholdChange, "criterionId" | "from" | "to">): string {
  const kappa = (k: number | null) => (k === null ? "n/a" : k.toFixed(2));
  return `agreement ${formatPercent(f.agreementBefore)} → ${formatPercent(f.agreementAfter)}, κ ${kappa(f.kappaBefore)} → ${kappa(f.kappaAfter)}`;
}

/** One change: the held-out figures first, the in-sample ones beside them, named so. */
function changeText(c: ThresholdChange): string {
  const heldOut =
    c.heldOut === undefined
      ? ""
      : `held out (${c.heldOut.compared} later labels, decided from ${c.heldOut.since}): ${figuresText(c.heldOut)}; `;
  return `  ${c.criterionId}: ${c.from.toFixed(2)} → ${c.to.toFixed(2)}; ${heldOut}in-sample (the ${c.compared} earlier labels it was fitted on): ${figuresText(c)}`;
}

/** The plan in lines: what changes, and what is kept and why. */
function describePlan(plan: ThresholdPlan): string {
  const lines = plan.changes.map(changeText);
  lines.push(
    ...plan.kept.map((k) => `  ${k.criterionId}: stays ${k.threshold.toFixed(2)} (${k.reason})`),
  );
  return `${lines.join("\n")}\n`;
}

/** Why the version is refused: the thresholds that agree worse with the later labels. */
function dropText(drops: readonly ThresholdChange[]): string {
  const each = drops.map(
    (c) =>
      `${c.criterionId} ${c.from.toFixed(2)} → ${c.to.toFixed(2)}: ${formatPercent(c.heldOut?.agreementBefore ?? 0)} → ${formatPercent(c.heldOut?.agreementAfter ?? 0)}`,
  );
  return (
    `evalgate: refused — the held-out agreement drops (${each.join("; ")}): the new threshold fits the earlier labels ` +
    "but agrees worse with the later ones, which it never saw. No version written; --force writes it anyway.\n"
  );
}

async function confirmed(
  options: CalibrateCommandOptions,
  input: StdinInput | undefined,
  context: CliContext,
) {
  if (options.yes === true) return true;
  if (input === undefined || !input.terminal) {
    throw new CliError("--apply asks an admin to confirm at a terminal; in a script, add --yes");
  }
  context.stderr.write("Write this as a new version? [y/N] ");
  const reader = createLineReader(input.stream, context.signal);
  try {
    const answer = (await reader.next())?.trim().toLowerCase();
    return answer === "y" || answer === "yes";
  } finally {
    reader.close();
  }
}

/** The content type the catalog's labels are of: --content-type, else the only one in the labels. */
function contentTypeOf(given: string | undefined, types: readonly string[]): string {
  if (given !== undefined) return given;
  const distinct = [...new Set(types)];
  if (distinct.length === 1) return distinct[0] as string;
  throw new CliError(
    distinct.length === 0
      ? "--apply found no reviewer labels in this period"
      : `the labels are of ${distinct.length} content types (${distinct.slice(0, 8).join(", ")}): name one with --content-type`,
  );
}

export async function runCalibrateApply(
  store: CheckpointStore,
  options: CalibrateCommandOptions,
  context: CliContext,
  input: StdinInput | undefined,
): Promise<void> {
  const catalog = await catalogOfFlags(options, store, context, "--apply");
  const scope = resolveScope(options);
  const reviews = await openReviewStore(storeConnection(store));
  const labels = await readCalibrationLabels(reviews, scope).finally(() => reviews.close());
  const contentType = contentTypeOf(
    options.contentType,
    labels.map((l) => l.contentType),
  );
  const plan = planThresholds(catalog, labels, contentType);
  context.stdout.write(
    `Thresholds of ${catalog.id} ${catalog.version} (${contentType}), fitted on the earlier labels and measured on the later ones:\n${describePlan(plan)}`,
  );
  if (plan.changes.length === 0) {
    context.stderr.write("nothing to change: no version written\n");
    return;
  }
  const drops = heldOutDrops(plan);
  if (drops.length > 0 && options.force !== true) {
    context.stderr.write(dropText(drops));
    context.exitCode = EXIT_FAILED;
    return;
  }
  if (!(await confirmed(options, input, context))) {
    context.stderr.write("not confirmed: no version written\n");
    return;
  }
  const next = catalogWithThresholds(catalog, plan, {
    since: scope.since ?? null,
    until: scope.until ?? null,
    contentType,
    appliedAt: new Date().toISOString(),
    ...(context.env.USER === undefined ? {} : { appliedBy: context.env.USER }),
  });
  const added = await withRubricRegistry(store, async (registry) => {
    // A file the registry does not hold yet is registered as it is first: both versions are kept.
    if (options.catalog !== undefined && catalog.registryVersion === undefined) {
      await registry.add(catalog);
    }
    return registry.add(next);
  });
  context.stdout.write(`registered ${added.id} version ${added.version}\n`);
}
