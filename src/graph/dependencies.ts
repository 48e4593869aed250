import { z } from "zod";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";
import { readRegularTextFileSync } from "../untrusted/regularFile.js";
import { GraphError } from "./errors.js";

const MAX_CONFIG_FILE_BYTES = 1024 * 1024;

/** A regular configuration file of at most MAX_CONFIG_FILE_BYTES, parsed with prototype-poisoning protection. */
export function readConfigJson(path: string, refuse: (reason: string) => Error): unknown {
  const read = readRegularTextFileSync(path, MAX_CONFIG_FILE_BYTES);
  if (!read.ok) throw refuse(read.problem.reason);
  const parsed = readUntrustedJson(read.text);
  if (!parsed.ok) throw refuse(describeJsonProblem(parsed.problem));
  return parsed.value;
}

/** config/dependencies.json: which content depends directly on which. */
export const DependencyMapSchema = z.object({
  version: z.number().int().optional(),
  dependents: z.record(z.string(), z.array(z.string())),
});
export type DependencyMap = z.infer<typeof DependencyMapSchema>;

export function loadDependencyMap(path: string): DependencyMap {
  const raw = readConfigJson(
    path,
    (reason) =>
      new GraphError(
        "DEPENDENCY_MAP_INVALID",
        `${path}: cannot read the dependency map: ${reason}`,
      ),
  );
  const parsed = DependencyMapSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GraphError(
      "DEPENDENCY_MAP_INVALID",
      `${path}: ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
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
