/** The configuration files the package ships: the proposal's sections and the dependency map. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";
import { readRegularTextFileSync } from "../untrusted/regularFile.js";
import { GraphError } from "./errors.js";

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

function findPackageRoot(start: string): string {
  let dir = start;
  for (;;) {
    const manifest = join(dir, "package.json");
    if (existsSync(manifest)) {
      const name: unknown = JSON.parse(readFileSync(manifest, "utf8")).name;
      if (name === "evalgate") return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) return start;
    dir = parent;
  }
}

/** The folder of evalgate's own package.json (from src/ or from dist/src/). */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** The criteria folder this package ships. */
export const PACKAGE_CRITERIA_DIR = join(PACKAGE_ROOT, "config/evaluation/criteria");

/** The dependency map this package ships. */
export const PACKAGE_DEPENDENCIES_FILE = join(PACKAGE_ROOT, "config/dependencies.json");

const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/**
 * A regular configuration file of at most MAX_CONFIG_FILE_BYTES, parsed with prototype-poisoning
 * protection and checked by `schema`; `refuse` makes the error of what is wrong (`read` prefixes a
 * file that cannot be read or parsed).
 */
export function readConfigJson<T>(
  path: string,
  schema: z.ZodType<T>,
  refuse: (problem: string) => Error,
  read = "",
): T {
  const file = readRegularTextFileSync(path, MAX_CONFIG_FILE_BYTES);
  if (!file.ok) throw refuse(`${read}${file.problem.reason}`);
  const json = readUntrustedJson(file.text);
  if (!json.ok) throw refuse(`${read}${describeJsonProblem(json.problem)}`);
  const parsed = schema.safeParse(json.value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw refuse(`${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`);
}

/** config/dependencies.json: which content depends directly on which. */
export const DependencyMapSchema = z.object({
  version: z.number().int().optional(),
  dependents: z.record(z.string(), z.array(z.string())),
});
export type DependencyMap = z.infer<typeof DependencyMapSchema>;

export function loadDependencyMap(path: string): DependencyMap {
  const refuse = (problem: string) =>
    new GraphError("DEPENDENCY_MAP_INVALID", `${path}: ${problem}`);
  return readConfigJson(path, DependencyMapSchema, refuse, "cannot read the dependency map: ");
}

/** Every content that depends on `id`, directly or through others, in breadth-first order. */
export function transitiveDependents(map: DependencyMap, id: string): string[] {
  const out: string[] = [];
  const seen = new Set([id]);
  const queue = [...(map.dependents[id] ?? [])];
  while (queue.length > 0) {
    const next = queue.shift();
    if (next === undefined || seen.has(next)) continue;
    seen.add(next);
    out.push(next);
    queue.push(...(map.dependents[next] ?? []));
  }
  return out;
}
