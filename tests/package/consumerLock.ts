/**
 * A lockfile for a fresh project that depends on the packed evalgate tarball, cut from this
 * repository's package-lock.json: the tarball, and every package its production dependency tree
 * (and the extra development packages asked for) needs, at the versions this repository locked.
 * With it, `npm ci --offline` installs the tarball from npm's cache alone (the repository's own
 * `npm ci` put every one of those packages there): no network, the same versions the suite ran.
 */
import { z } from "zod";

const LockEntrySchema = z.looseObject({
  version: z.string().optional(),
  resolved: z.string().optional(),
  integrity: z.string().optional(),
  dev: z.boolean().optional(),
  optional: z.boolean().optional(),
  devOptional: z.boolean().optional(),
  peer: z.boolean().optional(),
  link: z.boolean().optional(),
  dependencies: z.record(z.string(), z.string()).optional(),
  optionalDependencies: z.record(z.string(), z.string()).optional(),
  peerDependencies: z.record(z.string(), z.string()).optional(),
  peerDependenciesMeta: z
    .record(z.string(), z.looseObject({ optional: z.boolean().optional() }))
    .optional(),
});
type LockEntry = z.infer<typeof LockEntrySchema>;

export const LockfileSchema = z.looseObject({
  lockfileVersion: z.literal(3),
  packages: z.record(z.string(), LockEntrySchema),
});
export type Lockfile = z.infer<typeof LockfileSchema>;

/** Where node would find `name` from the package installed at `from` ("" is the project). */
function locate(packages: Lockfile["packages"], from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (base === "") return undefined;
    const cut = base.lastIndexOf("/node_modules/");
    base = cut === -1 ? "" : base.slice(0, cut);
  }
}

function dependencyNames(entry: LockEntry): string[] {
  const peers = Object.keys(entry.peerDependencies ?? {}).filter(
    (name) => entry.peerDependenciesMeta?.[name]?.optional !== true,
  );
  return [
    ...Object.keys(entry.dependencies ?? {}),
    ...Object.keys(entry.optionalDependencies ?? {}),
    ...peers,
  ];
}

/** The lock paths reachable from `roots` (package names at the top level). */
function closure(packages: Lockfile["packages"], roots: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const queue = roots.map((name) => `node_modules/${name}`);
  while (queue.length > 0) {
    const path = queue.pop() as string;
    if (seen.has(path)) continue;
    const entry = packages[path];
    if (entry === undefined) continue;
    seen.add(path);
    for (const name of dependencyNames(entry)) {
      const found = locate(packages, path, name);
      if (found !== undefined) queue.push(found);
    }
  }
  return seen;
}

/** The packed evalgate, as its package.json describes it. */
export interface PackedEvalgate {
  version: string;
  bin: Readonly<Record<string, string>>;
  dependencies: Readonly<Record<string, string>>;
  optionalDependencies: Readonly<Record<string, string>>;
  /** The tarball's file name, relative to the consumer project. */
  tarball: string;
}

/** The consumer's package.json, as far as the lock must match it. */
export interface ConsumerManifest {
  name: string;
  /** evalgate (as `file:<tarball>`) and the consumer's other dependencies. */
  dependencies: Readonly<Record<string, string>>;
  devDependencies?: Readonly<Record<string, string>>;
}

export interface ConsumerLockOptions {
  /** The repository's package-lock.json, parsed. */
  repositoryLock: unknown;
  evalgate: PackedEvalgate;
  consumer: ConsumerManifest;
  /** The registry the repository installed from (its tarballs are in npm's cache under it). */
  registry: string;
}

/**
 * The registry address of a locked package's tarball. The repository's lock leaves it out (npm's
 * omit-lockfile-registry-resolved); written in, npm finds the tarball in its cache by address and
 * integrity without asking the registry for the package's metadata.
 */
function registryAddress(path: string, entry: LockEntry, registry: string): { resolved?: string } {
  if (entry.version === undefined || entry.integrity === undefined || entry.link === true)
    return {};
  const alias = typeof entry.name === "string" ? entry.name : undefined;
  const name = alias ?? path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
  const base = name.startsWith("@") ? name.slice(name.indexOf("/") + 1) : name;
  return { resolved: `${registry.replace(/\/$/, "")}/${name}/-/${base}-${entry.version}.tgz` };
}

/** The consumer's lockfile: evalgate from the tarball, everything else as the repository locked it. */
export function consumerLock(options: ConsumerLockOptions): Lockfile {
  const repository = LockfileSchema.parse(options.repositoryLock);
  const { evalgate, consumer } = options;
  const own = Object.keys(consumer.dependencies).filter((name) => name !== "evalgate");
  const prodPaths = closure(repository.packages, [
    ...Object.keys(evalgate.dependencies),
    ...Object.keys(evalgate.optionalDependencies),
    ...own,
  ]);
  const devPaths = closure(repository.packages, Object.keys(consumer.devDependencies ?? {}));
  const packages: Lockfile["packages"] = {
    "": {
      name: consumer.name,
      dependencies: { ...consumer.dependencies },
      devDependencies: { ...consumer.devDependencies },
    },
    "node_modules/evalgate": {
      version: evalgate.version,
      resolved: `file:${evalgate.tarball}`,
      dependencies: { ...evalgate.dependencies },
      optionalDependencies: { ...evalgate.optionalDependencies },
      bin: { ...evalgate.bin },
    },
  };
  for (const path of [...new Set([...prodPaths, ...devPaths])].sort()) {
    const { dev, devOptional, optional, ...entry } = repository.packages[path] as LockEntry;
    const onlyDev = !prodPaths.has(path);
    packages[path] = {
      ...entry,
      ...(entry.resolved === undefined ? registryAddress(path, entry, options.registry) : {}),
      ...(onlyDev ? { dev: true } : {}),
      ...(optional === true || (devOptional === true && !onlyDev) ? { optional: true } : {}),
    };
  }
  return { lockfileVersion: 3, requires: true, name: consumer.name, packages };
}

/** The version the repository locked for a top-level package (for a consumer's devDependencies). */
export function lockedVersion(repositoryLock: unknown, name: string): string {
  const version = LockfileSchema.parse(repositoryLock).packages[`node_modules/${name}`]?.version;
  if (version === undefined) throw new Error(`${name} is not in the repository's lock`);
  return version;
}
