/**
 * The time split of the calibration measures: a label decided at time t is measured only with
 * what was learned from labels decided strictly before t, never from itself or anything later.
 * `calibrate --compare` shows each evaluation only the corrections decided before it;
 * `calibrate --apply` fits thresholds on the earlier labels and measures them on the later ones.
 */

/** What the split reads of a label. */
export interface Decided {
  decidedAt: string;
  decisionId: string;
}

function instant(text: string): number {
  return Date.parse(text);
}

/** Whether a label was decided strictly before `time`: what a label decided at `time` may use. */
export function decidedBefore(label: Decided, time: string): boolean {
  return instant(label.decidedAt) < instant(time);
}

/** Oldest decision first; ties by decision id, so the order never depends on the input's. */
export function inDecisionOrder<T extends Decided>(labels: readonly T[]): T[] {
  return [...labels].sort(
    (a, b) =>
      instant(a.decidedAt) - instant(b.decidedAt) ||
      (a.decisionId < b.decisionId ? -1 : a.decisionId > b.decisionId ? 1 : 0),
  );
}

/** The labels of each decision (one evaluation each), oldest decision first. */
export function byDecision<T extends Decided & { evaluationId: string }>(
  labels: readonly T[],
): T[][] {
  const groups = new Map<string, T[]>();
  for (const label of inDecisionOrder(labels)) {
    const key = `${label.decisionId}\u0000${label.evaluationId}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [label]);
    else group.push(label);
  }
  return [...groups.values()];
}

export interface TimeSplit<T> {
  /** Decided strictly before `from`: what is learned from. */
  earlier: T[];
  /** Decided at `from` or later: what it is measured on. */
  later: T[];
  /** The decision time the later part starts at (ISO 8601). */
  from: string;
}

/**
 * The labels split in time near the middle: the later part starts at the decision time of the
 * label in the middle (the ⌈n/2⌉+1-th, oldest first), labels decided at that same time included,
 * so no label is learned from and measured on at once. Undefined for fewer than 2 labels.
 */
export function splitInTime<T extends Decided>(labels: readonly T[]): TimeSplit<T> | undefined {
  const ordered = inDecisionOrder(labels);
  const middle = ordered[Math.ceil(ordered.length / 2)];
  if (ordered.length < 2 || middle === undefined) return undefined;
  const from = middle.decidedAt;
  return {
    earlier: ordered.filter((label) => decidedBefore(label, from)),
    later: ordered.filter((label) => !decidedBefore(label, from)),
    from,
  };
}
