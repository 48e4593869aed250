import type { Level, Scale } from "../criteria/model.js";
import { ScoringError, type ScoringErrorLocation } from "./errors.js";

/** A scale, or a value on one, that cannot be used (`SCALE_INVALID`). */
export const scaleInvalid = (message: string, location: ScoringErrorLocation = {}) =>
  new ScoringError(message, location, { code: "SCALE_INVALID" });

/** Decimals kept by {@link roundScore}: enough for any score, few enough to drop float noise. */
const SCORE_DECIMALS = 10;

/** Rounds away float noise: 0.4·4 + 0.6·3 is 3.4, not 3.4000000000000004. */
export function roundScore(value: number, decimals: number = SCORE_DECIMALS): number {
  if (!Number.isFinite(value)) {
    throw scaleInvalid(`cannot round ${String(value)}: not a finite number`);
  }
  const factor = 10 ** decimals;
  const rounded = Math.round(value * factor) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}

function assertFinite(value: number, what: string, location: ScoringErrorLocation): void {
  if (!Number.isFinite(value)) {
    throw scaleInvalid(`${what} must be a finite number, got ${String(value)}`, location);
  }
}

function assertScale(scale: Scale, location: ScoringErrorLocation): void {
  assertFinite(scale.min, "scale min", location);
  assertFinite(scale.max, "scale max", location);
  if (!(scale.max > scale.min)) {
    throw scaleInvalid(
      `scale max (${scale.max}) must be greater than min (${scale.min})`,
      location,
    );
  }
}

/** Brings a native value into [min, max] of its scale. */
export function clampToScale(
  value: number,
  scale: Scale,
  location: ScoringErrorLocation = {},
): number {
  assertFinite(value, "value", location);
  assertScale(scale, location);
  return Math.min(scale.max, Math.max(scale.min, value));
}

/** A native value as 0–1, clamped to the scale first: 4 on 1–5 is 0.75. */
export function toUnit(value: number, scale: Scale, location: ScoringErrorLocation = {}): number {
  const clamped = clampToScale(value, scale, location);
  return roundScore((clamped - scale.min) / (scale.max - scale.min));
}

/** A 0–1 score on a native scale: min + unit · (max − min), so 0.6 on 1–5 is 3.4. */
export function fromUnit(unit: number, scale: Scale, location: ScoringErrorLocation = {}): number {
  assertFinite(unit, "unit score", location);
  assertScale(scale, location);
  if (unit < 0 || unit > 1) {
    throw scaleInvalid(`unit score must be within 0–1, got ${unit}`, location);
  }
  return roundScore(scale.min + unit * (scale.max - scale.min));
}

type CheckResult = "pass" | "fail";

/** A pass/fail answer as 0–1. */
export function checkToUnit(result: CheckResult): 0 | 1 {
  return result === "pass" ? 1 : 0;
}

/** The level with the highest score (the first such, when several share it). */
export function topLevel(levels: readonly Level[]): Level | undefined {
  return levels.reduce<Level | undefined>(
    (best, level) => (best === undefined || level.score > best.score ? level : best),
    undefined,
  );
}
