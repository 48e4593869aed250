/**
 * The cache folder: made with its missing parents (those made are removed after a failure), and
 * what can go wrong with it, said in the user's terms: a folder of the system
 * (/proc, /sys, /dev — Node's recursive mkdir never returns in /proc) is refused before anything
 * is created, and a disk that fills during the download is reported as a full disk. One download
 * at a time per model file across processes: a lock file created with `wx`, touched by its holder;
 * one whose process is gone or untouched for `staleMs` is taken over. A note is kept beside a model
 * file once its SHA-256 matched (digest, size, mtime), so later runs need not hash it again.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, realpathSync } from "node:fs";
import { mkdir, open, readFile, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { errnoCode, kernelFolderOf } from "../../untrusted/regularFile.js";
import { formatSize } from "./defaultModel.js";
import { ModelDownloadError } from "./errors.js";

/** The real path `path` would have: its nearest existing folder resolved, the rest appended. */
function realPathToBe(path: string): string {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...missing.reverse());
    } catch (error) {
      const code = errnoCode(error);
      if ((code !== "ENOENT" && code !== "ENOTDIR") || dirname(at) === at) return resolve(path);
      missing.push(basename(at));
    }
  }
}

/** Refuses a cache folder in /proc, /sys or /dev (however reached) before anything is created. */
export function checkCacheFolder(cacheDir: string, url: string): void {
  const lexical = resolve(cacheDir);
  const real = kernelFolderOf(lexical) === undefined ? realPathToBe(cacheDir) : lexical;
  const folder = kernelFolderOf(real);
  if (folder === undefined) return;
  const where = real === cacheDir ? "" : ` (${real})`;
  throw new ModelDownloadError(
    "write-failed",
    url,
    `the cache folder ${cacheDir}${where} is in ${folder}: a folder of the system, not a place ` +
      "to keep the embedded model; set EVALGATE_CACHE_DIR to a folder on a disk",
  );
}

/** `dir` made with its missing parents; those it made, outermost first. */
export async function createDirs(dir: string): Promise<string[]> {
  const first = await mkdir(dir, { recursive: true });
  const created: string[] = [];
  for (let at = dir; first !== undefined && at.length >= first.length; at = dirname(at)) {
    created.unshift(at);
  }
  return created;
}

/** True for "no space left on the device" and "disk quota exceeded". */
export function isNoSpace(error: unknown): boolean {
  const code = errnoCode(error);
  return code === "ENOSPC" || code === "EDQUOT";
}

/**
 * The disk of the cache folder is full: how much was needed (`neededBytes`, when the server or the
 * pinned model says it), how much was written, and the setting that moves it. `partDeleted`: its
 * last bytes may not have reached the disk.
 */
export function diskFullError(
  context: {
    cacheDir: string;
    url: string;
    neededBytes: number | undefined;
    writtenBytes?: number;
    partDeleted?: boolean;
  },
  cause: unknown,
): ModelDownloadError {
  const quota = errnoCode(cause) === "EDQUOT" ? "your disk quota is used up" : "the disk is full";
  const needs =
    context.neededBytes === undefined
      ? ""
      : `; the model needs ${formatSize(context.neededBytes)} (${context.neededBytes.toLocaleString("en-US")} bytes)`;
  const written =
    context.writtenBytes === undefined
      ? ""
      : `, ${context.writtenBytes.toLocaleString("en-US")} bytes were written before it filled`;
  return new ModelDownloadError(
    "disk-full",
    context.url,
    `cannot download the embedded model from ${context.url}: ${quota} where the cache folder ` +
      `${context.cacheDir} is${needs}${written}.${context.partDeleted ? " The partial file is deleted." : ""} ` +
      "Free space on that disk, or set EVALGATE_CACHE_DIR to a folder on a disk with room, and run again",
    { cause },
  );
}

export interface HeldLock {
  touch(): Promise<void>;
  release(): Promise<void>;
}

function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function isStale(path: string, staleMs: number): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    const pid = Number.parseInt(text.split("\n")[0] ?? "", 10);
    if (!processAlive(pid)) return true;
    return Date.now() - info.mtimeMs > staleMs;
  } catch {
    return false; // gone already, or being written: not stale, try again
  }
}

export async function tryLock(path: string, staleMs: number): Promise<HeldLock | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, "wx");
      await handle.writeFile(`${process.pid}\n${new Date().toISOString()}\n`);
      await handle.close();
      let held = true;
      return {
        touch: async () => {
          const now = new Date();
          await utimes(path, now, now).catch(() => {});
        },
        // Once only: a second release must not remove the lock another run took since.
        release: async () => {
          if (!held) return;
          held = false;
          await unlink(path).catch(() => {});
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (attempt === 0 && (await isStale(path, staleMs))) {
        await unlink(path).catch(() => {});
        continue;
      }
      return undefined;
    }
  }
  return undefined;
}

export async function waitForUnlock(
  path: string,
  options: { staleMs: number; intervalMs?: number; signal?: AbortSignal },
): Promise<void> {
  const interval = options.intervalMs ?? 250;
  for (;;) {
    options.signal?.throwIfAborted();
    try {
      await stat(path);
    } catch {
      return;
    }
    if (await isStale(path, options.staleMs)) return;
    await delay(interval);
  }
}

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** A verified file is recorded beside it (digest, size, mtime) so later runs need not re-hash. */
export async function isVerified(path: string, sha256: string): Promise<boolean> {
  if (!existsSync(path)) return false;
  const info = await stat(path);
  try {
    const note = JSON.parse(await readFile(`${path}.verified`, "utf8")) as Record<string, unknown>;
    if (note.sha256 === sha256 && note.size === info.size && note.mtimeMs === info.mtimeMs) {
      return true;
    }
  } catch {
    // no note, or an unreadable one: hash the file
  }
  if ((await sha256Of(path)) !== sha256) return false;
  await writeVerifiedNote(path, sha256);
  return true;
}

export async function writeVerifiedNote(path: string, sha256: string): Promise<void> {
  const info = await stat(path);
  await writeFile(
    `${path}.verified`,
    JSON.stringify({ sha256, size: info.size, mtimeMs: info.mtimeMs }),
  );
}
