/**
 * Where a file a user named really is, before it is read: not a symbolic link (unless the caller
 * allows links), and never inside the kernel's file systems — /proc (`/proc/self/environ` is the
 * process's environment, secrets included), /sys or /dev — however it is reached (a direct path,
 * a link, a linked folder). The real path is resolved with realpath before the file is opened, and
 * the open file is checked again by the path the kernel gives its descriptor, so a file swapped
 * for a link in between is refused too.
 */
import { lstatSync, readlinkSync, realpathSync } from "node:fs";
import { lstat, readlink, realpath } from "node:fs/promises";
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

function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

/** The problem with reading `path` (before it is opened), or undefined. Missing files pass. */
export async function placeProblem(
  path: string,
  policy: LinkPolicy = {},
): Promise<PlaceProblem | undefined> {
  try {
    const link = (await lstat(path)).isSymbolicLink();
    const real = await realpath(path);
    const folder = kernelFolderOf(real);
    if (folder !== undefined) return kernelFile(real, folder);
    return link && policy.followSymlinks !== true ? LINK : undefined;
  } catch (error) {
    // A missing file (or a dangling link) is for the reader to report.
    if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") return undefined;
    throw error;
  }
}

/** placeProblem for the readers that must stay synchronous. */
export function placeProblemSync(path: string, policy: LinkPolicy = {}): PlaceProblem | undefined {
  try {
    const link = lstatSync(path).isSymbolicLink();
    const real = realpathSync(path);
    const folder = kernelFolderOf(real);
    if (folder !== undefined) return kernelFile(real, folder);
    return link && policy.followSymlinks !== true ? LINK : undefined;
  } catch (error) {
    if (errnoCode(error) === "ENOENT" || errnoCode(error) === "ENOTDIR") return undefined;
    throw error;
  }
}

/** Where the kernel says an open descriptor's file is (Linux), when it can say. */
function descriptorPath(fd: number, read: (path: string) => string): string | undefined {
  try {
    return read(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
}

/** The problem with the file open as `fd` (it is in a kernel folder), or undefined. */
export async function openedProblem(fd: number): Promise<PlaceProblem | undefined> {
  let real: string | undefined;
  try {
    real = await readlink(`/proc/self/fd/${fd}`);
  } catch {
    real = undefined;
  }
  const folder = real === undefined ? undefined : kernelFolderOf(real);
  return real === undefined || folder === undefined ? undefined : kernelFile(real, folder);
}

/** openedProblem for the synchronous readers. */
export function openedProblemSync(fd: number): PlaceProblem | undefined {
  const real = descriptorPath(fd, (path) => readlinkSync(path));
  const folder = real === undefined ? undefined : kernelFolderOf(real);
  return real === undefined || folder === undefined ? undefined : kernelFile(real, folder);
}
