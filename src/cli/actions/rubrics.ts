import { resolve } from "node:path";
import type { Catalog } from "../../criteria/model.js";
import { rubricNotFound } from "../../rubrics/errors.js";
import type { RubricListing, RubricRegistry } from "../../rubrics/rubricRegistry.js";
import type { CliContext } from "../context.js";
import { displayPath, EXIT_FAILED, evalgateCommand } from "../context.js";
import { CliError } from "../errors.js";
import { renderColumns } from "../review/display.js";
import {
  describeStore,
  type StoreFlags,
  storeExists,
  storeOfFlags,
  withRubricRegistry,
} from "../review/store.js";

/**
 * Works with the registry of --db / --database-url. Opening a SQLite file that is not there makes
 * one: only `register` does; the others get `absent` (a typo is not answered with a new file).
 */
async function withRegistry<T>(
  flags: StoreFlags,
  context: CliContext,
  work: (registry: RubricRegistry, where: string) => Promise<T>,
  absent?: (where: string) => T,
): Promise<T> {
  const location = storeOfFlags(flags, context.env, context.cwd);
  const where = describeStore(location, context.cwd);
  if (absent !== undefined && !storeExists(location)) return absent(where);
  return withRubricRegistry(location, (registry) => work(registry, where));
}

/** Throws RUBRIC_NOT_FOUND for a store that is not there. */
const notIn = (id: string, version?: string) => (where: string) => {
  throw rubricNotFound(id, version, `${where} (no such file)`);
};

export async function listRubrics(
  options: StoreFlags & { target?: string; json?: boolean },
  context: CliContext,
) {
  const listed = await withRegistry(
    options,
    context,
    async (registry, where) => ({
      where,
      missing: false,
      rubrics: await registry.listing(options.target),
    }),
    (where) => ({ where, missing: true, rubrics: [] }),
  );
  printRubrics(listed, options, context);
  // Every readable version is listed; a stored one that cannot be read is a problem found.
  if (listed.rubrics.some((r) => r.unreadable !== undefined)) context.exitCode = EXIT_FAILED;
}

/** Why an active version's stored row cannot be read, and what to do about it. */
function unreadableNote(r: RubricListing, env: CliContext["env"]): string {
  const activate = `${evalgateCommand(env)} rubrics activate ${r.id} <version>`;
  return `${r.id} ${r.version} cannot be read: ${r.unreadable}; \`${activate}\` another.`;
}

function printRubrics(
  {
    rubrics,
    where,
    missing,
  }: { rubrics: readonly RubricListing[]; where: string; missing: boolean },
  options: { target?: string; json?: boolean },
  context: CliContext,
) {
  if (options.json === true) {
    const listed = rubrics.map((r) => ({
      id: r.id,
      version: r.version,
      name: r.rubric?.name ?? null,
      targetType: r.targetType ?? null,
      criteria: r.rubric?.criteria.length ?? null,
      unreadable: r.unreadable ?? null,
    }));
    context.stdout.write(`${JSON.stringify({ store: where, rubrics: listed }, null, 2)}\n`);
    return;
  }
  if (rubrics.length === 0) {
    const which = options.target === undefined ? "" : ` for target type "${options.target}"`;
    context.stdout.write(
      `No rubrics${which} in ${where}${missing ? " (no such file)" : ""}: register some with \`${evalgateCommand(context.env)} rubrics register <file>\`.\n`,
    );
    return;
  }
  const rows = rubrics.map((r) => [
    r.id,
    r.version,
    r.targetType ?? "-",
    r.rubric === undefined ? "-" : String(r.rubric.criteria.length),
    r.rubric?.name ?? "(cannot be read, see below)",
  ]);
  const header = ["id", "version", "target", "criteria", "name"];
  const notes = rubrics.filter((r) => r.unreadable !== undefined);
  const below = notes.length === 0 ? [] : ["", ...notes.map((r) => unreadableNote(r, context.env))];
  context.stdout.write(`${[...renderColumns(header, rows), ...below].join("\n")}\n`);
}

function describeRubric(rubric: Catalog): string[] {
  const lines = [
    `${rubric.name} (${rubric.id} ${rubric.version})`,
    ...(rubric.description === undefined ? [] : [rubric.description]),
    `target type: ${rubric.targetType ?? "-"}   pass threshold: ${rubric.passingThreshold}`,
    "",
  ];
  const rows = rubric.criteria.map((c) => [
    c.id,
    c.method.kind,
    String(Math.round(c.weight * 1000) / 1000),
    c.title,
  ]);
  return [...lines, ...renderColumns(["criterion", "method", "weight", "name"], rows)];
}

/**
 * The id and version of `id@version` (`content_quality@1.0.0`), or of the id and a version given
 * apart (`other`, which the refusal names as `given`); two different versions are refused.
 */
function versionOf(ref: string, other: string | undefined, given: string) {
  const at = ref.lastIndexOf("@");
  const split =
    at <= 0 || at === ref.length - 1
      ? { id: ref, version: undefined }
      : { id: ref.slice(0, at), version: ref.slice(at + 1) };
  const value = other?.trim();
  if (value === undefined || value === "") return split;
  if (split.version !== undefined && split.version !== value) {
    throw new CliError(`${ref} names version ${split.version}, ${given} ${value}: give one`);
  }
  return { id: split.id, version: value };
}

export async function showRubric(
  ref: string,
  options: StoreFlags & { json?: boolean; version?: string },
  context: CliContext,
) {
  const { id, version } = versionOf(ref, options.version, "--version");
  await withRegistry(
    options,
    context,
    async (registry, where) => {
      const rubric = await registry.get(id, version);
      if (rubric === undefined) throw rubricNotFound(id, version, where);
      if (options.json === true) {
        context.stdout.write(`${JSON.stringify(rubric, null, 2)}\n`);
        return;
      }
      const versions = (await registry.versions(id)).map(
        (v) => `${v.version}${v.latest ? " (active)" : ""} registered ${v.registeredAt}`,
      );
      context.stdout.write(
        `${[...describeRubric(rubric), "", "versions:", ...versions.map((v) => `  ${v}`)].join("\n")}\n`,
      );
    },
    notIn(id, version),
  );
}

export async function registerRubrics(file: string, options: StoreFlags, context: CliContext) {
  const path = resolve(context.cwd, file);
  await withRegistry(options, context, async (registry, where) => {
    const registered = await registry.registerFile(path);
    for (const r of registered) {
      const again = r.previous === undefined ? "kept" : `active again (was ${r.previous})`;
      const what = r.created ? "registered" : `unchanged, ${again}`;
      context.stdout.write(`${r.id} ${r.version}: ${what}\n`);
    }
    context.stdout.write(
      `${registered.length} rubric${registered.length === 1 ? "" : "s"} from ${displayPath(path, context.cwd)} in ${where}.\n`,
    );
  });
}

/** Makes a stored version the one gates judge with: a roll-back, or forward again. */
export async function activateRubric(
  ref: string,
  given: string | undefined,
  options: StoreFlags,
  context: CliContext,
) {
  const { id, version } = versionOf(ref, given, "the next argument");
  if (version === undefined) {
    throw new CliError(`rubrics activate needs a version: ${id} <version>, or ${id}@<version>`);
  }
  await withRegistry(
    options,
    context,
    async (registry, where) => {
      const versions = await registry.versions(id);
      if (!versions.some((v) => v.version === version)) throw rubricNotFound(id, version, where);
      const before = versions.find((v) => v.latest)?.version;
      await registry.activate(id, version);
      const was = before === undefined || before === version ? "" : ` (was ${before})`;
      context.stdout.write(`${id}@${version} is active in ${where}${was}: gates judge with it.\n`);
    },
    notIn(id, version),
  );
}

export async function deleteRubric(id: string, options: StoreFlags, context: CliContext) {
  await withRegistry(
    options,
    context,
    async (registry, where) => {
      if (!(await registry.delete(id))) throw rubricNotFound(id, undefined, where);
      const versions = await registry.versions(id);
      const last = versions.at(-1)?.version ?? "";
      context.stdout.write(
        `Deleted ${id} from the list; its ${versions.length} version${versions.length === 1 ? "" : "s"} stay readable (${evalgateCommand(context.env)} rubrics show ${id}@${last}).\n`,
      );
    },
    notIn(id),
  );
}
