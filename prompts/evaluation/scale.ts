/** How a native scale is written in a prompt. */
export interface PromptScale {
  min: number;
  max: number;
  integer: boolean;
}

/** A number as a prompt shows it: at most two decimals, no trailing zeros (4.6, 0.29, 5). */
export function formatNumber(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/** "a whole number from 1 to 5" or "a number from 0.0 to 1.0". */
export function describeScale(scale: PromptScale): string {
  if (scale.integer) {
    return `a whole number from ${formatNumber(scale.min)} to ${formatNumber(scale.max)}`;
  }
  return `a number from ${formatDecimal(scale.min)} to ${formatDecimal(scale.max)}`;
}

/** A decimal-scale bound with at least one decimal (0.0, 1.0, 0.25). */
function formatDecimal(value: number): string {
  const text = formatNumber(value);
  return text.includes(".") ? text : `${text}.0`;
}

/** A 0–1 value placed on a native scale: min + value · (max − min). */
export function onScale(unit: number, scale: PromptScale): number {
  return scale.min + unit * (scale.max - scale.min);
}
