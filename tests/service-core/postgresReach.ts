/**
 * PostgreSQL run as another account (as root, the server runs as `postgres` or `nobody`) must
 * reach its binaries and its data folder: every folder on the way must let that account in. A
 * checkout under a private folder (mode 700, as /root is in most containers and CI images) does
 * not, so the binaries are copied once to a folder it can reach (the temp folder, else /tmp), in
 * a folder named by where they came from and when they were built, shared by every test process.
 */
import { createHash, randomUUID } from "node:crypto";
import { cpSync, existsSync, realpathSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, parse } from "node:path";

/** Who a program runs as: the fields of ServerAccount this needs. */
export interface AccountIds {
  uid: number;
  gid: number;
}

/** Whether `account` may search (enter) the folder with these mode bits and owners. */
function maySearch(stat: { mode: number; uid: number; gid: number }, account: AccountIds) {
  if (account.uid === 0) return true;
  if (stat.uid === account.uid) return (stat.mode & 0o100) !== 0;
  if (stat.gid === account.gid) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

/** Whether `account` can reach `path`: it may enter every folder from the root down to it. */
export function reachableBy(path: string, account: AccountIds): boolean {
  let folder = statSync(path).isDirectory() ? path : dirname(path);
  for (;;) {
    if (!maySearch(statSync(folder), account)) return false;
    const parent = dirname(folder);
    if (parent === folder || folder === parse(folder).root) return true;
    folder = parent;
  }
}

/** The temp folder when `account` can reach it, else /tmp; an error saying so when neither. */
export function reachableTemp(account: AccountIds | undefined): string {
  const candidates = [tmpdir(), "/tmp"];
  if (account === undefined) return candidates[0] ?? "/tmp";
  const found = candidates.find((folder) => existsSync(folder) && reachableBy(folder, account));
  if (found === undefined) {
    throw new Error(
      `neither ${candidates.join(" nor ")} can be entered by uid ${account.uid}: set TMPDIR to a folder it can reach`,
    );
  }
  return found;
}

/**
 * The bin folder itself when `account` can reach it; else the bin folder of a copy of its whole
 * installation (bin/, lib/, share/: the folder above bin/) in a folder it can reach, made once
 * (an atomic rename: processes that copy at once keep the first copy) and kept for later runs.
 */
export function binReachableBy(bin: string, account: AccountIds | undefined): string {
  if (account === undefined || reachableBy(bin, account)) return bin;
  const install = dirname(realpathSync(bin));
  const initdb = statSync(join(bin, "initdb"));
  const key = createHash("sha256")
    .update(`${install}\n${initdb.size}\n${initdb.mtimeMs}`)
    .digest("hex")
    .slice(0, 16);
  const target = join(reachableTemp(account), `evalgate-pg-binaries-${key}`);
  const staged = join(target, basename(bin));
  if (existsSync(join(staged, "initdb"))) return staged;
  const partial = `${target}.${process.pid}-${randomUUID()}`;
  // Copied with their modes (755 folders and programs), symlinks as they are (relative ones).
  cpSync(install, partial, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
  try {
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(join(staged, "initdb"))) throw error;
  }
  return staged;
}
