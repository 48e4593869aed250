/**
 * What can go wrong with the cache folder itself, said in the user's terms: a disk that fills
 * during the download is reported as a full disk.
 */
import { errnoCode } from "../../untrusted/regularFile.js";
import { formatSize } from "./defaultModel.js";
import { ModelDownloadError } from "./errors.js";

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
