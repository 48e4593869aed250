/**
 * The pieces of the LangGraph CLI and API server that decide what Studio sees, loaded the way the
 * dev server loads them: `@langchain/langgraph-api` is resolved from the CLI's own package (npm
 * nests it there), so the test calls the exact code `langgraph dev` runs.
 *
 * - `studioSchemas(graph)`: what `GET /assistants/:id/schemas` answers first — the API server's
 *   runtime schema extraction (`getRuntimeGraphSchema`). Only when it finds nothing at all does the
 *   server fall back to its static TypeScript parser.
 * - `parseLanggraphConfig(text)`: the CLI's langgraph.json validation (`getConfig`).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";

const requireHere = createRequire(import.meta.url);
const CLI_MANIFEST = requireHere.resolve("@langchain/langgraph-cli/package.json");
const requireFromCli = createRequire(CLI_MANIFEST);

/** A loaded module did not have the function the dev server calls. */
export class LanggraphToolingError extends Error {
  override readonly name = "LanggraphToolingError";
}

const JsonSchemaObject = z.looseObject({
  type: z.string().optional(),
  properties: z.record(z.string(), z.looseObject({})).optional(),
  required: z.array(z.string()).optional(),
});
export type JsonSchemaObject = z.infer<typeof JsonSchemaObject>;

const GraphSchemaSchema = z.object({
  state: JsonSchemaObject.optional(),
  input: JsonSchemaObject.optional(),
  output: JsonSchemaObject.optional(),
  config: JsonSchemaObject.optional(),
});
/** The schemas Studio shows: input form, output, state, and the run's context (`config`). */
export type GraphSchema = z.infer<typeof GraphSchemaSchema>;

async function importFunction(
  file: string,
  name: string,
): Promise<(...args: unknown[]) => unknown> {
  const mod: unknown = await import(pathToFileURL(file).href);
  const fn = typeof mod === "object" && mod !== null ? Reflect.get(mod, name) : undefined;
  if (typeof fn !== "function") {
    throw new LanggraphToolingError(`${file} does not export the function ${name}`);
  }
  return fn as (...args: unknown[]) => unknown;
}

/** The version of @langchain/langgraph-api the CLI runs. */
export function langgraphApiVersion(): string {
  const manifest = requireFromCli.resolve("@langchain/langgraph-api/package.json");
  const parsed = z
    .object({ version: z.string() })
    .parse(JSON.parse(readFileSync(manifest, "utf8")));
  return parsed.version;
}

/**
 * The schemas the dev server's runtime extraction finds for a compiled graph, or undefined when
 * it finds none (the server then parses the TypeScript source instead).
 */
export async function studioSchemas(graph: unknown): Promise<GraphSchema | undefined> {
  const file = requireFromCli.resolve("@langchain/langgraph-api/schema");
  const extract = await importFunction(file, "getRuntimeGraphSchema");
  const result = await extract(graph);
  return result === undefined ? undefined : GraphSchemaSchema.parse(result);
}

/** Parses a langgraph.json text with the CLI's own validation; throws what the CLI would. */
export async function parseLanggraphConfig(text: string): Promise<unknown> {
  const file = join(dirname(CLI_MANIFEST), "dist/utils/config.mjs");
  const getConfig = await importFunction(file, "getConfig");
  return getConfig(text);
}
