/** The sections the proposal graph writes (config/proposal.json), and its first step's name. */
import { join } from "node:path";
import { z } from "zod";
import { readConfigJson } from "./dependencies.js";
import { PACKAGE_ROOT } from "./packagePaths.js";

/** A section the proposal graph writes (config/proposal.json). */
export const SectionConfigSchema = z.object({
  id: z.string().regex(/^[a-z][a-z0-9_]*$/, "section ids are snake_case"),
  title: z.string().min(1),
  description: z.string().min(1),
});
export type SectionConfig = z.infer<typeof SectionConfigSchema>;

const ProposalConfigSchema = z.object({ sections: z.array(SectionConfigSchema).min(1) });

export function loadProposalConfig(
  path = join(PACKAGE_ROOT, "config/proposal.json"),
): SectionConfig[] {
  const refuse = (problem: string) => new Error(`${path}: ${problem}`);
  return readConfigJson(path, ProposalConfigSchema, refuse).sections;
}

/** The graph's first step: it reads the request for proposals. */
export const LOAD_RFP_NODE = "loadRfp";
