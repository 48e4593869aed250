import { EvalgateError, errorGuard } from "../errors.js";

/** A blueprint cannot be used: unreadable, not JSON, or not the blueprint shape (where is named). */
export class BlueprintError extends EvalgateError {
  override name = "BlueprintError";
  /** The file (or "<blueprint>") and the path inside it, e.g. `prompts[2].points`. */
  readonly where: string;

  constructor(where: string, detail: string) {
    super("BLUEPRINT_INVALID", `${where}: ${detail}`);
    this.where = where;
  }
}

/** The codes of the blueprint errors, one per class. */
export const BLUEPRINT_ERROR_CODES = ["BLUEPRINT_INVALID"] as const;

export const isBlueprintError = errorGuard<BlueprintError>(...BLUEPRINT_ERROR_CODES);
