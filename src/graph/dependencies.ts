import { z } from "zod";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";
import { readRegularTextFileSync } from "../untrusted/regularFile.js";
import { GraphError } from "./errors.js";

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
