/**
 * A blueprint: prompts with the points a good answer covers and avoids. Each prompt's points
 * become a catalog whose text points carry the prompt, so the judge sees what was asked.
 */
import { z } from "zod";
import { isCatalogError } from "../criteria/errors.js";
import type { Catalog, Criterion } from "../criteria/model.js";
import { parseCatalog } from "../criteria/parse.js";
import { parseModelSpec } from "../llm/spec.js";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";
import { readRegularTextFile } from "../untrusted/regularFile.js";
import { BlueprintError } from "./errors.js";
import { multiplierOf, type PointPlan, planPoints } from "./pointPlan.js";

const MAX_BLUEPRINT_BYTES = 5_000_000;

const PointSchema = z.union([
  z.string().min(1),
  z.array(z.unknown()).min(1),
  z.record(z.string(), z.unknown()),
]);

export const BlueprintPromptSchema = z
  .looseObject({
    id: z.string().min(1).optional(),
    /** The prompt sent to every candidate model (`prompt` is read as well). */
    promptText: z.string().min(1).optional(),
    prompt: z.string().min(1).optional(),
    /** A system prompt for the candidate models, for this prompt only. */
    system: z.string().optional(),
    /** What a good answer covers (`should` is read as well). */
    points: z.array(PointSchema).min(1).optional(),
    should: z.array(PointSchema).min(1).optional(),
    /** What a good answer does not do: each point counts 1 − its score. */
    should_not: z.array(PointSchema).min(1).optional(),
    /** The reference of the reference-based point functions (`idealResponse` is read as well). */
    ideal: z.string().min(1).optional(),
    idealResponse: z.string().min(1).optional(),
  })
  .refine((p) => p.points === undefined || p.should === undefined, {
    message: "give the points as `points` or as `should`, not both",
  })
  .refine((p) => p.points ?? p.should ?? p.should_not, {
    message: "a prompt needs points: `points` (or `should`), `should_not`, or both",
  });

/**
 * Whether a blueprint's model names no server: a blueprint file is untrusted, and a server it
 * named would be sent the user's OPENAI_COMPATIBLE_API_KEY. Servers come from the user.
 */
function namesNoServer(spec: string): boolean {
  try {
    return parseModelSpec(spec).servers === undefined;
  } catch {
    return true; // not a model spec: refused where the models are checked, with its own message
  }
}

export const BlueprintSchema = z.looseObject({
  id: z.string().min(1).optional(),
  configId: z.string().min(1).optional(),
  title: z.string().optional(),
  configTitle: z.string().optional(),
  description: z.string().optional(),
  /** Candidate models (`provider:model`), used when the run names none. */
  models: z
    .array(
      z.string().min(1).refine(namesNoServer, {
        message:
          "a blueprint names models, not their servers (no @<url>): give servers with --models, OLLAMA_BASE_URL or the models option",
      }),
    )
    .optional(),
  /** A system prompt for the candidate models. */
  system: z.string().optional(),
  prompts: z.array(BlueprintPromptSchema).min(1),
});
export type Blueprint = z.infer<typeof BlueprintSchema>;
export type BlueprintPrompt = z.infer<typeof BlueprintPromptSchema>;

/** One prompt, ready to run: its points as a catalog, and how they combine. */
export interface PreparedPrompt {
  id: string;
  text: string;
  system?: string;
  catalog: Catalog;
  /** Each point's multiplier as written (default 1), in the catalog's criteria order. */
  multipliers: number[];
  plan: PointPlan;
  /** The ideal answer. */
  reference?: string;
}

function withPrompt(criterion: Criterion, prompt: string): Criterion {
  const method = criterion.method;
  return method.kind === "point" ? { ...criterion, method: { ...method, prompt } } : criterion;
}

/** The points as a catalog; an error names where the point at fault is written. */
function pointsCatalog(id: string, plan: PointPlan, where: string): Catalog {
  try {
    const text = JSON.stringify({ id, name: id, points: plan.points });
    return parseCatalog(text, { format: "json", source: where });
  } catch (error) {
    if (!isCatalogError(error)) throw error;
    const [list, index, ...inside] = error.path ?? [];
    if (list !== "points") throw error;
    if (typeof index !== "number") throw new BlueprintError(where, error.detail);
    const at = plan.placement[index]?.at ?? `points[${index}]`;
    const rest = inside.map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`));
    throw new BlueprintError(`${where}.${at}${rest.join("")}`, error.detail);
  }
}

function preparePrompt(prompt: BlueprintPrompt, index: number, source: string): PreparedPrompt {
  const id = prompt.id ?? `prompt-${index + 1}`;
  const text = prompt.promptText ?? prompt.prompt;
  const where = `${source} › prompts[${index}]`;
  if (text === undefined) throw new BlueprintError(where, "a prompt needs promptText");
  const shouldKey = prompt.points === undefined ? "should" : "points";
  const should = prompt.points ?? prompt.should;
  const plan = planPoints(
    {
      ...(should === undefined ? {} : { should: { key: shouldKey, entries: should } }),
      ...(prompt.should_not === undefined ? {} : { shouldNot: prompt.should_not }),
    },
    where,
  );
  const catalog = pointsCatalog(id, plan, where);
  const reference = prompt.ideal ?? prompt.idealResponse;
  return {
    id,
    text,
    ...(prompt.system === undefined ? {} : { system: prompt.system }),
    catalog: { ...catalog, criteria: catalog.criteria.map((c) => withPrompt(c, text)) },
    multipliers: plan.points.map(multiplierOf),
    plan,
    ...(reference === undefined ? {} : { reference }),
  };
}

function checkedBlueprint(input: unknown, where: string): Blueprint {
  const parsed = BlueprintSchema.safeParse(input);
  if (!parsed.success) throw new BlueprintError(where, z.prettifyError(parsed.error));
  return parsed.data;
}

/** Validates a blueprint and prepares its prompts; errors name the place (`prompts[1].points`). */
export function prepareBlueprint(
  input: unknown,
  source = "<blueprint>",
): { blueprint: Blueprint; prompts: PreparedPrompt[] } {
  const blueprint = checkedBlueprint(input, source);
  const prompts = blueprint.prompts.map((p, i) => preparePrompt(p, i, source));
  const seen = new Set<string>();
  for (const prompt of prompts) {
    if (seen.has(prompt.id)) {
      throw new BlueprintError(source, `prompt id '${prompt.id}' appears more than once`);
    }
    seen.add(prompt.id);
  }
  return { blueprint, prompts };
}

/** Reads a blueprint JSON file: a bounded regular file, parsed with prototype-poisoning protection. */
export async function loadBlueprint(path: string): Promise<Blueprint> {
  const read = await readRegularTextFile(path, MAX_BLUEPRINT_BYTES);
  if (!read.ok) throw new BlueprintError(path, read.problem.reason);
  const parsed = readUntrustedJson(read.text, { refuseDuplicateKeys: true });
  if (!parsed.ok) throw new BlueprintError(path, describeJsonProblem(parsed.problem));
  return checkedBlueprint(parsed.value, path);
}
