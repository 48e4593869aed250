/**
 * `evalgate/toon`: TOON decode (spec v4 plus the criteria-catalog dialect, with source lines for
 * error messages), encode, and token counts comparing TOON with JSON.
 */
export {
  type DecodeToonOptions,
  decodeToon,
  decodeToonWithLines,
  type LocatedToon,
} from "./decode.js";
export { encodeToon, type ToonEncodeOptions } from "./encode.js";
export { ToonError, type ToonLocation } from "./errors.js";
export type { ToonPath } from "./locate.js";
export {
  compareFormats,
  countTokens,
  type FormatTokenCounts,
  savingsPercent,
} from "./tokenCounts.js";
