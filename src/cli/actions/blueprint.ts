import { resolve } from "node:path";
import type { CliContext } from "../context.js";
import { EXIT_OK } from "../exitCodes.js";
import { writeFileAtomically } from "../outputFile.js";

export interface BlueprintRunCommandOptions {
  models?: string;
  judge?: string;
  format: "json" | "toon";
  out?: string;
  seed?: number;
  timeout?: number;
}

/** `evalgate blueprint run <file>`: the comparison document as JSON or TOON. */
export async function runBlueprintCommand(
  file: string,
  options: BlueprintRunCommandOptions,
  context: CliContext,
): Promise<void> {
  const [{ loadBlueprint, runBlueprint }, { encodeToon }] = await Promise.all([
    import("../../blueprints/index.js"),
    import("../../toon/index.js"),
  ]);
  const blueprint = await loadBlueprint(resolve(context.cwd, file));
  const models = options.models
    ?.split(",")
    .map((spec) => spec.trim())
    .filter((spec) => spec !== "");
  const run = await runBlueprint(blueprint, {
    env: context.env,
    ...(models === undefined || models.length === 0 ? {} : { models }),
    ...(options.judge === undefined ? {} : { judge: options.judge }),
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout }),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  const text =
    options.format === "toon" ? `${encodeToon(run)}\n` : `${JSON.stringify(run, null, 2)}\n`;
  if (options.out === undefined) {
    context.stdout.write(text);
  } else {
    await writeFileAtomically(resolve(context.cwd, options.out), text);
    context.stderr.write(`wrote the ${options.format} result to ${options.out}\n`);
  }
  context.exitCode = EXIT_OK;
}
