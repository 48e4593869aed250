import { EvalgateError, errorGuard } from "../errors.js";

/** A blueprint cannot be used: unreadable, not JSON, or not the blueprint shape (where is named). */
export class BlueprintError extends EvalgateError {
  /** The file (or "<blueprint>") and the path inside it, e.g. `prompts[2].points`. */
  readonly where: string;

  constructor(where: string, detail: string) {
    super("BLUEPRINT_INVALID", `${where}: ${detail}`);
    this.where = where;
  }
}

export const isBlueprintError = errorGuard<BlueprintError>("BLUEPRINT_INVALID");
