import { z } from "zod";
import { type CatalogInput, CatalogSchema } from "../model.js";
import { type CatalogForm, firstCriterion, VersionSchema } from "./common.js";

/** evalgate's own catalog model, written as JSON or TOON (what `catalog convert` produces). */
const NativeCatalogSchema = CatalogSchema.extend({
  id: z.string().min(1).optional(),
  version: VersionSchema,
});
type NativeCatalog = z.infer<typeof NativeCatalogSchema>;

export const nativeForm: CatalogForm<NativeCatalog> = {
  label: "an evalgate catalog",
  matches(value) {
    const first = firstCriterion(value);
    return first !== undefined && Object.hasOwn(first, "method");
  },
  schema: NativeCatalogSchema,
  toCatalog(raw, context): CatalogInput {
    const { source: _source, warnings: _warnings, ...catalog } = raw;
    return { ...catalog, id: raw.id ?? context.fallbackId };
  },
};
