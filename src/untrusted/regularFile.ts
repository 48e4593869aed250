/**
 * The one reader of files whose path a user gave: only a regular file, at most a given size, not a
 * symbolic link unless allowed, never in /proc, /sys or /dev however reached (`/proc/self/environ`
 * holds secrets), and, as text, without NUL bytes. Type, size and place are checked BEFORE the
 * file is opened (a FIFO would block, a device never ends); it is then opened non-blocking (without
 * following a link when links are refused) and checked again on the handle, so a file swapped in
 * between is refused too; at most the limit plus one byte is read.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { sep } from "node:path";

export interface LinkPolicy {
  /** Read what a link points to (default false: a link is refused). Never into /proc, /sys, /dev. */
  readonly followSymlinks?: boolean;
}

export interface TextReadOptions extends LinkPolicy {
  /** Refuse bytes that are not UTF-8 (default: they become U+FFFD). */
  readonly strictUtf8?: boolean;
}

export interface FileProblem {
  readonly kind:
    | "missing"
    | "not_regular"
    | "too_large"
    | "unreadable"
    | "symlink"
    | "kernel_file"
    | "not_text";
  readonly reason: string;
  readonly size?: number | undefined;
  readonly fileType?: string | undefined;
}

export type FileReading =
  | { readonly ok: true; readonly data: Buffer }
  | { readonly ok: false; readonly problem: FileProblem };

export type TextFileReading =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly problem: FileProblem };

/** Without blocking on a FIFO, and without making a terminal the controlling one. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const KERNEL_FOLDERS = ["/proc", "/sys", "/dev"] as const;

const LINK: FileProblem = {
  kind: "symlink",
  reason:
    "is a symbolic link: links are not followed (give the file itself, or set EVALGATE_FOLLOW_SYMLINKS=1)",
};

/** "/proc", "/sys" or "/dev" when the real path `real` is in one of them; undefined elsewhere. */
export function kernelFolderOf(real: string): string | undefined {
  return KERNEL_FOLDERS.find((f) => real === f || real.startsWith(`${f}${sep}`));
}

/** Why a file whose real path is in /proc, /sys or /dev is never read; undefined elsewhere. */
export function kernelProblem(real: string): FileProblem | undefined {
  const folder = kernelFolderOf(real);
  if (folder === undefined) return undefined;
  const shown = real.length > 80 ? `${real.slice(0, 77)}...` : real;
  return {
    kind: "kernel_file",
    reason: `is in ${folder} (${shown}): a file of the system, not a document; it is never read`,
  };
}

/** The `code` of a Node.js system error (ENOENT, ELOOP…). */
export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string"
    ? error.code
    : undefined;
}

/** Where the kernel says the open file is (Linux: a lookup in memory, never a wait on a disk). */
function openedProblem(fd: number): FileProblem | undefined {
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
  return kernelProblem(real);
}

function fileTypeOf(info: Stats): string {
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a FIFO";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

function failure(error: unknown): FileProblem {
  const code = errnoCode(error);
  if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing", reason: "no such file" };
  if (code === "EISDIR") {
    return { kind: "not_regular", fileType: "a directory", reason: "is a directory, not a file" };
  }
  if (code === "ELOOP") {
    return { kind: "symlink", reason: "is a symbolic link: links are not followed" };
  }
  return { kind: "unreadable", reason: `cannot be read (${code ?? "error"})` };
}

function checkStats(info: Stats, maxBytes: number): FileProblem | undefined {
  if (!info.isFile()) {
    const fileType = fileTypeOf(info);
    return { kind: "not_regular", fileType, reason: `is ${fileType}, not a regular file` };
  }
  if (info.size <= maxBytes) return undefined;
  const bytes = (n: number) => n.toLocaleString("en-US");
  return {
    kind: "too_large",
    size: info.size,
    reason: `is ${bytes(info.size)} bytes, over the limit of ${bytes(maxBytes)} bytes`,
  };
}

function readDescriptor(fd: number, maxBytes: number): FileReading {
  const info = fstatSync(fd);
  const problem = openedProblem(fd) ?? checkStats(info, maxBytes);
  if (problem !== undefined) return { ok: false, problem };
  // A size of 0 may still hold bytes: the buffer grows up to the limit plus one byte.
  let buffer = Buffer.alloc(Math.min(Math.max(info.size, 4096), maxBytes) + 1);
  let length = 0;
  for (;;) {
    const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
    length += bytesRead;
    if (bytesRead === 0 || length > maxBytes) break;
    if (length === buffer.length) {
      const larger = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(larger);
      buffer = larger;
    }
  }
  if (length <= maxBytes) return { ok: true, data: buffer.subarray(0, length) };
  const limit = maxBytes.toLocaleString("en-US");
  return {
    ok: false,
    problem: { kind: "too_large", reason: `is more than ${limit} bytes, over the limit` },
  };
}

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them, or why it was not read.
 * Never blocks on a FIFO or a device.
 */
export async function readRegularFile(
  path: string,
  maxBytes: number,
  policy: LinkPolicy = {},
): Promise<FileReading> {
  return readRegularFileSync(path, maxBytes, policy);
}

function readRegularFileSync(path: string, maxBytes: number, policy: LinkPolicy): FileReading {
  try {
    const before = checkStats(statSync(path), maxBytes);
    if (before !== undefined) return { ok: false, problem: before };
    // A file gone since (ENOENT) is reported by the catch below as missing.
    const link = lstatSync(path).isSymbolicLink() && policy.followSymlinks !== true;
    const place = kernelProblem(realpathSync(path)) ?? (link ? LINK : undefined);
    if (place !== undefined) return { ok: false, problem: place };
    const fd = openSync(
      path,
      policy.followSymlinks === true ? OPEN_FLAGS : OPEN_FLAGS | (constants.O_NOFOLLOW ?? 0),
    );
    try {
      return readDescriptor(fd, maxBytes);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { ok: false, problem: failure(error) };
  }
}

function asText(read: FileReading, options: TextReadOptions): TextFileReading {
  if (!read.ok) return read;
  if (read.data.includes(0)) {
    return {
      ok: false,
      problem: { kind: "not_text", reason: "contains NUL bytes: a binary file, not text" },
    };
  }
  if (options.strictUtf8 !== true) return { ok: true, text: read.data.toString("utf8") };
  try {
    return { ok: true, text: new TextDecoder("utf-8", { fatal: true }).decode(read.data) };
  } catch {
    return {
      ok: false,
      problem: { kind: "not_text", reason: "is not UTF-8 text (a binary file?)" },
    };
  }
}

export async function readRegularTextFile(
  path: string,
  maxBytes: number,
  options: TextReadOptions = {},
): Promise<TextFileReading> {
  return asText(await readRegularFile(path, maxBytes, options), options);
}

export function readRegularTextFileSync(
  path: string,
  maxBytes: number,
  options: TextReadOptions = {},
): TextFileReading {
  return asText(readRegularFileSync(path, maxBytes, options), options);
}
