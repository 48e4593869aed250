/** `evalgate/criteria`: the catalog model, loaders for every catalog form, the meta-rubric. */
export { normaliseWeights } from "./catalogWeights.js";
export * from "./errors.js";
export { loadCatalog } from "./load.js";
export * from "./model.js";
export * from "./outOfRange.js";
export { type CatalogFormat, type ParseCatalogOptions, parseCatalog } from "./parse.js";
export * from "./thresholdCalibration.js";
export { type FindingSeverity, type ValidationFinding, validateCatalog } from "./validate.js";
