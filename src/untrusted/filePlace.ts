/**
 * Where a file a user named really is, before it is read: not a symbolic link (unless the caller
 * allows links), and never inside the kernel's file systems — /proc (`/proc/self/environ` is the
 * process's environment, secrets included), /sys or /dev — however it is reached (a direct path,
 * a link, a linked folder). The real path is resolved with realpath before the file is opened, and
 * the open file is checked again by the path the kernel gives its descriptor, so a file swapped
 * for a link in between is refused too.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { lstat, realpath } from "node:fs/promises";
import { sep } from "node:path";

/** The kernel's file systems: what is there is the system's, never a user's document. */
const KERNEL_FOLDERS = ["/proc", "/sys", "/dev"] as const;

/** How a reader treats symbolic links. */
export interface LinkPolicy {
  /** Read what a link points to (default false: a link is refused). Never into /proc, /sys, /dev. */
  readonly followSymlinks?: boolean;
}

/** Why a place is refused. */
export interface PlaceProblem {
  readonly kind: "symlink" | "kernel_file";
  readonly reason: string;
}

/** The kernel folder `real` is in, if any. */
function kernelFolderOf(real: string): string | undefined {
  return KERNEL_FOLDERS.find((folder) => real === folder || real.startsWith(`${folder}${sep}`));
}

function kernelFile(real: string, folder: string): PlaceProblem {
  const shown = real.length > 80 ? `${real.slice(0, 77)}...` : real;
  return {
    kind: "kernel_file",
    reason: `is in ${folder} (${shown}): a file of the system, not a document; it is never read`,
  };
}

const LINK: PlaceProblem = {
  kind: "symlink",
  reason:
    "is a symbolic link: links are not followed (give the file itself, or set EVALGATE_FOLLOW_SYMLINKS=1)",
};

/** The Node.js error code of a failed file system call ("ENOENT"), if it has one. */
export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

/** The problem with a path that is (or is not) a link and really is at `real`, or undefined. */
function placeOf(link: boolean, real: string, policy: LinkPolicy): PlaceProblem | undefined {
  const folder = kernelFolderOf(real);
  if (folder !== undefined) return kernelFile(real, folder);
  return link && policy.followSymlinks !== true ? LINK : undefined;
}

/** A missing file (or a dangling link) is for the reader to report. */
function missing(error: unknown): undefined {
  if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") return undefined;
  throw error;
}

/** The problem with reading `path` (before it is opened), or undefined. Missing files pass. */
export async function placeProblem(
  path: string,
  policy: LinkPolicy = {},
): Promise<PlaceProblem | undefined> {
  try {
    return placeOf((await lstat(path)).isSymbolicLink(), await realpath(path), policy);
  } catch (error) {
    return missing(error);
  }
}

/** placeProblem for the readers that must stay synchronous. */
export function placeProblemSync(path: string, policy: LinkPolicy = {}): PlaceProblem | undefined {
  try {
    return placeOf(lstatSync(path).isSymbolicLink(), realpathSync(path), policy);
  } catch (error) {
    return missing(error);
  }
}

/**
 * The problem with the file open as `fd` (it is in a kernel folder), or undefined. Where the
 * kernel says the descriptor's file is (Linux) is a lookup in memory, never a wait on a disk.
 */
export function openedProblem(fd: number): PlaceProblem | undefined {
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
  const folder = kernelFolderOf(real);
  return folder === undefined ? undefined : kernelFile(real, folder);
}
