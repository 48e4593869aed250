/**
 * How the registry numbers rubric versions. A rubric's content is everything but its version, the
 * file it came from and its loader warnings; its hash is SHA-256 over canonical JSON (keys
 * sorted), so the same rubric registered twice is recognised whatever the key order.
 */
import { createHash } from "node:crypto";
import type { Catalog } from "../criteria/model.js";
import { canonicalJson } from "../engine/judgeCache.js";

/** The rubric as it is stored: without the file it was read from or the registry version it was. */
export function storedRubric(catalog: Catalog, version: string): Catalog {
  const { source: _source, registryVersion: _registered, ...rest } = catalog;
  return { ...rest, version };
}

/** SHA-256 of the rubric's content (not its version, source, registry version or warnings). */
export function rubricContentHash(catalog: Catalog): string {
  const {
    version: _version,
    source: _source,
    warnings: _warnings,
    registryVersion: _registered,
    ...content
  } = catalog;
  return createHash("sha256").update(canonicalJson(content)).digest("hex");
}

/** The numbers in a version (`v1.2.0` → [1, 2, 0]), or undefined when it has none. */
function numbersOf(version: string): number[] | undefined {
  const match = /(\d+(?:\.\d+)*)/.exec(version);
  return match?.[1]?.split(".").map(Number);
}

/** Whether `a` is a later version than `b`, by their numbers (false when either has none). */
export function isLaterVersion(a: string, b: string): boolean {
  const x = numbersOf(a);
  const y = numbersOf(b);
  if (x === undefined || y === undefined) return false;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return false;
}

/** The next version: its last number plus one (`1.0.0` → `1.0.1`), or `.1` appended. */
export function nextVersion(version: string): string {
  const match = /(\d+)(\D*)$/.exec(version);
  if (match?.[1] === undefined) return `${version}.1`;
  const bumped = String(Number(match[1]) + 1);
  return `${version.slice(0, match.index)}${bumped}${match[2] ?? ""}`;
}

/** The latest registered version of a rubric, as the version decision needs it. */
export interface LatestVersion {
  version: string;
  contentHash: string;
}

/**
 * The version a registration gets. Unchanged content (the latest version's hash) keeps the latest
 * version. Changed content gets the version it declares when that is new and later than the
 * latest; otherwise the next version after the latest (skipping any taken).
 */
export function decideVersion(
  latest: LatestVersion | undefined,
  declared: string,
  contentHash: string,
  isTaken: (version: string) => boolean,
): { version: string; created: boolean } {
  if (latest === undefined) return { version: declared, created: true };
  if (latest.contentHash === contentHash) return { version: latest.version, created: false };
  if (!isTaken(declared) && isLaterVersion(declared, latest.version)) {
    return { version: declared, created: true };
  }
  let version = nextVersion(latest.version);
  while (isTaken(version)) version = nextVersion(version);
  return { version, created: true };
}
