/**
 * The evaluation node's few-shot option: the engine's, or a source used only for a catalog that turns
 * them on (`enabled: "catalog"`); never part of the state or a checkpoint.
 */
import type { Catalog } from "../criteria/model.js";
import type { FewShotOption } from "../engine/fewShotExamples.js";

export type EvaluationFewShot =
  | FewShotOption
  | (Omit<FewShotOption, "enabled"> & { enabled: "catalog" });

/** The engine's few-shot option for this catalog, or none (off). */
export function fewShotForCatalog(
  fewShot: EvaluationFewShot | undefined,
  catalog: Catalog,
): FewShotOption | undefined {
  if (fewShot === undefined) return undefined;
  if (fewShot.enabled !== "catalog") return fewShot;
  if (catalog.fewShot?.enabled !== true) return undefined;
  const { enabled: _catalog, ...option } = fewShot;
  return { ...option, enabled: true };
}
