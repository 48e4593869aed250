/**
 * How a prompt's points combine. A `should_not` point counts 1 − its score; an alternative group
 * (`[[…path], […path]]` or `{ "alternatives": […] }`) scores its best path in `should`, its worst
 * in `should_not` (every forbidden path must be avoided). Every point is listed once, flat.
 */
import { isBuiltInPointFunctionName } from "../pointFunctions/builtIn.js";
import { isRecord } from "../untrusted/json.js";
import { BlueprintError } from "./errors.js";

export type Block = "should" | "should_not";

export type PlanItem =
  | { kind: "point"; index: number; block: Block }
  | {
      kind: "alternatives";
      /** 1-based, in the order the groups are written across both blocks. */
      group: number;
      block: Block;
      /** Each path's points, as indexes into the flat list. */
      paths: number[][];
      multiplier: number;
    };

export interface PointPlan {
  /** Every point as written, in order (a group's paths' points where the group stands). */
  points: unknown[];
  /** Each flat point's block, group and path (1-based), and where it is written. */
  placement: Array<{ block: Block; group?: number; path?: number; at: string }>;
  /** The prompt's score: one item per point or group written in a block. */
  items: PlanItem[];
}

type Entry = unknown;

interface WrittenGroup {
  paths: unknown;
  multiplier: unknown;
  /** What is wrong with the group object as written. */
  problem?: string;
}

function groupPaths(entry: Entry): WrittenGroup | undefined {
  if (Array.isArray(entry) && entry.length > 0 && Array.isArray(entry[0])) {
    return { paths: entry, multiplier: undefined };
  }
  if (isRecord(entry) && Object.hasOwn(entry, "alternatives")) {
    const extra = Object.keys(entry).filter(
      (key) => key !== "alternatives" && key !== "multiplier",
    );
    if (extra.length > 0) {
      return { paths: undefined, multiplier: undefined, problem: `unknown key "${extra[0]}"` };
    }
    return { paths: entry.alternatives, multiplier: entry.multiplier };
  }
  return undefined;
}

/** A tuple whose name is a sentence: most likely a path written one level too shallow. */
function sentenceTupleProblem(entry: Entry): string | undefined {
  if (!Array.isArray(entry) || typeof entry[0] !== "string") return undefined;
  const name = entry[0];
  if (isBuiltInPointFunctionName(name) || name.includes(":") || !/\s/.test(name.trim())) {
    return undefined;
  }
  return (
    `${JSON.stringify(name.slice(0, 60))} is not a point function: a list starting with text is ` +
    `a ["fn", arg] tuple. For alternative paths write [["point", …], ["other point", …]] or ` +
    `{ "alternatives": [[…], […]] }`
  );
}

class PlanBuilder {
  readonly points: unknown[] = [];
  readonly placement: PointPlan["placement"] = [];
  readonly items: PlanItem[] = [];
  private groups = 0;

  constructor(private readonly where: string) {}

  add(block: Block, key: string, entries: readonly Entry[]): void {
    entries.forEach((entry, index) => {
      const at = `${key}[${index}]`;
      const group = groupPaths(entry);
      if (group === undefined) {
        const problem = sentenceTupleProblem(entry);
        if (problem !== undefined) throw new BlueprintError(`${this.where}.${at}`, problem);
        this.items.push({ kind: "point", index: this.point(entry, { block, at }), block });
      } else {
        this.items.push(this.group(block, group, at));
      }
    });
  }

  private point(entry: Entry, place: PointPlan["placement"][number]): number {
    this.points.push(entry);
    this.placement.push(place);
    return this.points.length - 1;
  }

  private group(block: Block, written: WrittenGroup, at: string): PlanItem {
    const { paths, multiplier, problem } = written;
    const here = `${this.where}.${at}`;
    if (problem !== undefined) throw new BlueprintError(here, problem);
    if (multiplier !== undefined && !(typeof multiplier === "number" && multiplier >= 0)) {
      throw new BlueprintError(
        here,
        `a group's multiplier must be a number ≥ 0, not ${JSON.stringify(multiplier) ?? String(multiplier)}`,
      );
    }
    if (!Array.isArray(paths) || paths.length < 2) {
      throw new BlueprintError(
        here,
        "an alternative group needs at least two paths (lists of points); for one path, list its points directly",
      );
    }
    this.groups += 1;
    const group = this.groups;
    const indexes = paths.map((path: unknown, p) =>
      this.path(path, { block, group, path: p + 1, at: `${at}[${p}]` }),
    );
    return { kind: "alternatives", group, block, paths: indexes, multiplier: multiplier ?? 1 };
  }

  private path(path: unknown, place: PointPlan["placement"][number]): number[] {
    const here = `${this.where}.${place.at}`;
    if (!Array.isArray(path) || path.length === 0) {
      throw new BlueprintError(here, "a path is a non-empty list of points");
    }
    if (typeof path[0] === "string" && isBuiltInPointFunctionName(path[0])) {
      throw new BlueprintError(
        here,
        `a path is a list of points, and ${JSON.stringify(path[0])} names a point function: write the function point inside the path as [[${JSON.stringify(path[0])}, …]]`,
      );
    }
    return path.map((entry: unknown, index) => {
      const at = `${place.at}[${index}]`;
      if (groupPaths(entry) !== undefined) {
        throw new BlueprintError(
          `${this.where}.${at}`,
          "alternative groups cannot be nested in a path",
        );
      }
      return this.point(entry, { ...place, at });
    });
  }
}

interface PromptBlocks {
  /** The key it was written under is `points` or `should`. */
  should?: { key: string; entries: readonly unknown[] };
  shouldNot?: readonly unknown[];
}

/** A point's multiplier as written (default 1; one the catalog will refuse counts 1 here). */
export function multiplierOf(point: unknown): number {
  if (!isRecord(point)) return 1;
  const value = point.multiplier;
  return typeof value === "number" && value >= 0 ? value : 1;
}

/** A total of multipliers that can weigh: over 0 (else nothing counts, silently) and finite. */
function checkTotal(total: number, what: string, where: string): void {
  if (total > 0 && Number.isFinite(total)) return;
  const problem = total > 0 ? "are too large to add up" : "sum to 0: nothing can be weighed";
  throw new BlueprintError(where, `the multipliers of ${what} ${problem}`);
}

/** The prompt's points and groups, and each path's points, weigh something. */
function checkWeights(plan: PointPlan, where: string): void {
  const sum = (indexes: readonly number[]) =>
    indexes.reduce((total, i) => total + multiplierOf(plan.points[i]), 0);
  let counted = 0;
  for (const item of plan.items) {
    if (item.kind === "point") {
      counted += sum([item.index]);
      continue;
    }
    for (const path of item.paths) {
      const at = plan.placement[path[0] ?? 0]?.at.replace(/\[\d+\]$/, "");
      checkTotal(sum(path), "the path's points", `${where}.${at}`);
    }
    counted += item.multiplier;
  }
  checkTotal(counted, "its points and groups", where);
}

/** The plan of a prompt's blocks; errors name the place (`prompts[1].should_not[0][1]`). */
export function planPoints(blocks: PromptBlocks, where: string): PointPlan {
  const builder = new PlanBuilder(where);
  if (blocks.should !== undefined) builder.add("should", blocks.should.key, blocks.should.entries);
  builder.add("should_not", "should_not", blocks.shouldNot ?? []);
  const plan = { points: builder.points, placement: builder.placement, items: builder.items };
  checkWeights(plan, where);
  return plan;
}
