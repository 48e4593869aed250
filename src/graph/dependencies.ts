import { readFileSync } from "node:fs";
import { z } from "zod";
import { DependencyMapError } from "./errors.js";

/** config/dependencies.json: which content depends directly on which. */
export const DependencyMapSchema = z.object({
  version: z.number().int().optional(),
  dependents: z.record(z.string(), z.array(z.string())),
});
export type DependencyMap = z.infer<typeof DependencyMapSchema>;

/** Reads and checks a dependency map file (unknown shape → error naming the path and field). */
export function loadDependencyMap(path: string): DependencyMap {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new DependencyMapError(`${path}: cannot read the dependency map: ${String(error)}`, {
      cause: error,
    });
  }
  const parsed = DependencyMapSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DependencyMapError(
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
