/** How the registry numbers rubric versions; a rubric's hash ignores key order. */
import { createHash } from "node:crypto";
import type { Catalog } from "../criteria/model.js";
import { canonicalJson } from "../engine/judgeCache.js";

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

function numbersOf(version: string): number[] | undefined {
  const match = /(\d+(?:\.\d+)*)/.exec(version);
  return match?.[1]?.split(".").map(Number);
}

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

export function nextVersion(version: string): string {
  const match = /(\d+)(\D*)$/.exec(version);
  if (match?.[1] === undefined) return `${version}.1`;
  const bumped = String(Number(match[1]) + 1);
  return `${version.slice(0, match.index)}${bumped}${match[2] ?? ""}`;
}

export interface LatestVersion {
  version: string;
  contentHash: string;
}

/**
 * The active or the latest version's content keeps that version; else the declared one if new and
 * later, else the next.
 */
export function decideVersion(
  latest: LatestVersion | undefined,
  declared: string,
  contentHash: string,
  isTaken: (version: string) => boolean,
  active?: LatestVersion,
): { version: string; created: boolean } {
  if (active?.contentHash === contentHash) return { version: active.version, created: false };
  if (latest === undefined) return { version: declared, created: true };
  if (latest.contentHash === contentHash) return { version: latest.version, created: false };
  if (!isTaken(declared) && isLaterVersion(declared, latest.version)) {
    return { version: declared, created: true };
  }
  let version = nextVersion(latest.version);
  while (isTaken(version)) version = nextVersion(version);
  return { version, created: true };
}
