/**
 * The project as its users receive it: packed by `npm pack` from a copy of this repository as a
 * fresh clone has it (so the `prepack` build runs from nothing), and installed into a fresh project in the system's temp
 * folder, outside the repository, with `npm ci --offline` (npm's cache holds every package the
 * repository's own install fetched; see consumerLock.ts).
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { promisify } from "node:util";
import { z } from "zod";
import { consumerLock, lockedVersion } from "./consumerLock.js";

const run = promisify(execFile);
export const ROOT = join(import.meta.dirname, "../..");

const ManifestSchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  bin: z.record(z.string(), z.string()),
  dependencies: z.record(z.string(), z.string()),
  devDependencies: z.record(z.string(), z.string()).optional(),
  optionalDependencies: z.record(z.string(), z.string()).default({}),
});

/** The environment for a child npm: none of the settings `npm test` passes to its scripts. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key) && key !== "INIT_CWD"),
  );
  return { ...env, ...extra };
}

export async function npm(args: readonly string[], cwd: string): Promise<string> {
  return (await npmOutput(args, cwd)).stdout;
}

/** A child npm's stdout and stderr (its warnings). */
export async function npmOutput(
  args: readonly string[],
  cwd: string,
): Promise<{ stdout: string; stderr: string }> {
  const { stdout, stderr } = await run("npm", [...args], {
    cwd,
    env: cleanEnv(),
    maxBuffer: 64 * 1024 * 1024,
  });
  return { stdout, stderr };
}

const LEFT_HOME = new Set([
  "node_modules",
  "dist",
  ".git",
  ".evalgate",
  ".langgraph_api",
  "coverage",
]);

/** What the clone's first `evalgate` run printed (it builds dist/ first). */
export interface FirstRun {
  stdout: string;
  stderr: string;
}

export interface PackedRepository {
  tarball: string;
  /** `node bin/evalgate.mjs --version` in the copy before it was packed: no dist/ there yet. */
  firstRun: FirstRun;
}

/**
 * Packs a copy of the repository as a fresh clone has it (no dist/): first runs `evalgate
 * --version` there, which builds dist/ from the source, then `npm pack` (its prepack builds
 * dist/ anew); the tarball's path and what the first run printed.
 */
export async function packRepository(into: string): Promise<PackedRepository> {
  const copy = mkdtempSync(join(tmpdir(), "evalgate-source-"));
  try {
    cpSync(ROOT, copy, {
      recursive: true,
      filter: (source) => {
        const rel = relative(ROOT, source);
        const top = rel.split(/[\\/]/)[0] ?? "";
        return !LEFT_HOME.has(top) && !rel.endsWith(".tgz") && !rel.includes("node_modules");
      },
    });
    symlinkSync(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
    const firstRun = await run(process.execPath, [join(copy, "bin/evalgate.mjs"), "--version"], {
      cwd: copy,
      env: cleanEnv(),
      maxBuffer: 64 * 1024 * 1024,
    });
    const packed = z
      .array(z.object({ filename: z.string() }))
      .parse(JSON.parse(await npm(["pack", "--json", "--pack-destination", into], copy)));
    const file = packed[0]?.filename;
    if (file === undefined) throw new Error("npm pack made no tarball");
    return {
      tarball: join(into, basename(file)),
      firstRun: { stdout: firstRun.stdout, stderr: firstRun.stderr },
    };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

export interface ConsumerProject {
  dir: string;
  remove(): void;
}

/**
 * A fresh project in the temp folder: the files of `template` (a folder with a package.json that
 * depends on `evalgate` as `file:<tarball>`), the tarball, TypeScript and Node's types as its
 * development dependencies, installed offline.
 */
export async function installConsumer(template: string, tarball: string): Promise<ConsumerProject> {
  const dir = mkdtempSync(join(tmpdir(), "evalgate-consumer-"));
  cpSync(template, dir, {
    recursive: true,
    filter: (source) => !/node_modules|\.sqlite|\.thread$|\.tgz$/.test(relative(template, source)),
  });
  const name = basename(tarball);
  cpSync(tarball, join(dir, name));
  const repositoryLock: unknown = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8"));
  const evalgate = ManifestSchema.parse(
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")),
  );
  const consumer = ManifestSchema.partial({ version: true, bin: true }).parse(
    JSON.parse(readFileSync(join(dir, "package.json"), "utf8")),
  );
  const devDependencies = {
    typescript: lockedVersion(repositoryLock, "typescript"),
    "@types/node": lockedVersion(repositoryLock, "@types/node"),
  };
  const manifest = {
    ...consumer,
    dependencies: { ...consumer.dependencies, evalgate: `file:${name}` },
    devDependencies,
  };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  const lock = consumerLock({
    repositoryLock,
    evalgate: { ...evalgate, tarball: name },
    consumer: manifest,
    registry: (await npm(["config", "get", "registry"], dir)).trim(),
  });
  writeFileSync(join(dir, "package-lock.json"), `${JSON.stringify(lock, null, 2)}\n`);
  await npm(["ci", "--offline", "--no-audit", "--no-fund"], dir);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
