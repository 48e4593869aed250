/**
 * The cache folder: made with its missing parents (those made are removed after a failure), and
 * what can go wrong with it, said in the user's terms: a folder of the system
 * (/proc, /sys, /dev — Node's recursive mkdir never returns in /proc) is refused before anything
 * is created, and a disk that fills during the download is reported as a full disk.
 */
import { realpathSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
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

export interface DiskFullContext {
  cacheDir: string;
  url: string;
  /** The model's size in bytes, when the server or the pinned model says it. */
  neededBytes: number | undefined;
  /** Bytes of the model on disk when the disk filled, when known. */
  writtenBytes?: number;
  /** The `.part` file is deleted: its last bytes may not have reached the disk. */
  partDeleted?: boolean;
}

/** The disk of the cache folder is full: how much was needed, and the setting that moves it. */
export function diskFullError(context: DiskFullContext, cause: unknown): ModelDownloadError {
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
