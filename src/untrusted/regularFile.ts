/**
 * The one reader of files whose path a user gave (RFPs, applicants, content, source documents,
 * catalogs, rubrics, schemas, blueprints, configuration): only a regular file, at most a given
 * size, not a symbolic link unless the caller allows links, never a file of /proc, /sys or /dev
 * (filePlace.ts), and — read as text — without NUL bytes. The type and size are checked with stat
 * BEFORE the file is opened (opening a FIFO for reading blocks until a writer appears; a device
 * never ends); the file is then opened non-blocking (and without following a link, when links are
 * refused) and checked again on the open handle (fstat, and where the kernel says it is), so a
 * file swapped in between is refused too, and at most the limit (plus one byte, to notice growth)
 * is ever read. Every refusal is a reason to follow the path in a message.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from "node:fs";
import { type FileHandle, open, stat } from "node:fs/promises";
import {
  errnoCode,
  type LinkPolicy,
  openedProblem,
  placeProblem,
  placeProblemSync,
} from "./filePlace.js";

export type { LinkPolicy } from "./filePlace.js";

/** How a text file is read: the link policy, and whether bytes that are not UTF-8 are refused. */
export interface TextReadOptions extends LinkPolicy {
  /** Refuse bytes that are not UTF-8 (default: they become U+FFFD). */
  readonly strictUtf8?: boolean;
}

/** Why a file was not read. */
export interface FileProblem {
  readonly kind:
    | "missing"
    | "not_regular"
    | "too_large"
    | "unreadable"
    | "symlink"
    | "kernel_file"
    | "not_text";
  /** What is wrong, to follow the path in a message: "is a FIFO, not a regular file". */
  readonly reason: string;
  /** The file's size in bytes, for `too_large` (unless it grew past the limit while read). */
  readonly size?: number | undefined;
  /** What the path is instead of a regular file, for `not_regular`: "a FIFO", "a directory". */
  readonly fileType?: string | undefined;
}

export type FileReading =
  | { readonly ok: true; readonly data: Buffer }
  | { readonly ok: false; readonly problem: FileProblem };

export type TextFileReading =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly problem: FileProblem };

/** Open for reading without blocking on a FIFO, and without making a terminal the controlling one. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** The open flags: without following a link at the last step, unless links are allowed. */
function openFlags(policy: LinkPolicy): number {
  return policy.followSymlinks === true ? OPEN_FLAGS : OPEN_FLAGS | (constants.O_NOFOLLOW ?? 0);
}

/** What a file that is not a regular file is: "a FIFO", "a directory", … */
function fileTypeOf(info: Stats): string {
  if (info.isFile()) return "a regular file";
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

function tooLarge(size: number, maxBytes: number): FileProblem {
  return {
    kind: "too_large",
    size,
    reason: `is ${size.toLocaleString("en-US")} bytes, over the limit of ${maxBytes.toLocaleString("en-US")} bytes`,
  };
}

/** A problem with what stat found, or undefined for a regular file within the limit. */
function checkStats(info: Stats, maxBytes: number): FileProblem | undefined {
  if (!info.isFile()) {
    const fileType = fileTypeOf(info);
    return { kind: "not_regular", fileType, reason: `is ${fileType}, not a regular file` };
  }
  return info.size > maxBytes ? tooLarge(info.size, maxBytes) : undefined;
}

/** Room for the file's bytes: its size (a size of 0 may still hold bytes) plus one, up to the limit. */
function initialCapacity(info: Stats, maxBytes: number): number {
  return Math.min(Math.max(info.size, 4096), maxBytes) + 1;
}

/** A larger buffer holding what `buffer` holds, or undefined when it is already at the limit. */
function grown(buffer: Buffer, maxBytes: number): Buffer | undefined {
  if (buffer.length > maxBytes) return undefined;
  const larger = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
  buffer.copy(larger);
  return larger;
}

function finished(buffer: Buffer, length: number, maxBytes: number): FileReading {
  if (length > maxBytes) {
    return {
      ok: false,
      problem: {
        kind: "too_large",
        reason: `is more than ${maxBytes.toLocaleString("en-US")} bytes, over the limit`,
      },
    };
  }
  return { ok: true, data: buffer.subarray(0, length) };
}

async function readHandle(handle: FileHandle, maxBytes: number): Promise<FileReading> {
  const info = await handle.stat();
  const again = checkStats(info, maxBytes);
  if (again !== undefined) return { ok: false, problem: again };
  let buffer: Buffer = Buffer.alloc(initialCapacity(info, maxBytes));
  let length = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) return finished(buffer, length, maxBytes);
    length += bytesRead;
    if (length === buffer.length) {
      const larger = grown(buffer, maxBytes);
      if (larger === undefined) return finished(buffer, length, maxBytes);
      buffer = larger;
    }
  }
}

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them, or why it was not read
 * (missing, not a regular file, too large, unreadable). Never blocks on a FIFO or a device.
 *
 * @example
 * const read = await readRegularFile(path, 2 * 1024 * 1024);
 * if (!read.ok) throw new Error(`${path} ${read.problem.reason}`);
 */
export async function readRegularFile(
  path: string,
  maxBytes: number,
  policy: LinkPolicy = {},
): Promise<FileReading> {
  try {
    const before = checkStats(await stat(path), maxBytes);
    if (before !== undefined) return { ok: false, problem: before };
    const place = await placeProblem(path, policy);
    if (place !== undefined) return { ok: false, problem: place };
    const handle = await open(path, openFlags(policy));
    try {
      const opened = openedProblem(handle.fd);
      if (opened !== undefined) return { ok: false, problem: opened };
      return await readHandle(handle, maxBytes);
    } finally {
      await handle.close();
    }
  } catch (error) {
    return { ok: false, problem: failure(error) };
  }
}

/** The bytes as text: NUL bytes refused, and bytes that are not UTF-8 when `strictUtf8`. */
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

/**
 * readRegularFile, decoded as UTF-8 text (a BOM is kept): a file with NUL bytes is refused, and
 * invalid bytes become U+FFFD (or are refused, with `strictUtf8`).
 */
export async function readRegularTextFile(
  path: string,
  maxBytes: number,
  options: TextReadOptions = {},
): Promise<TextFileReading> {
  return asText(await readRegularFile(path, maxBytes, options), options);
}

function readDescriptorSync(fd: number, maxBytes: number): FileReading {
  const info = fstatSync(fd);
  const again = checkStats(info, maxBytes);
  if (again !== undefined) return { ok: false, problem: again };
  let buffer: Buffer = Buffer.alloc(initialCapacity(info, maxBytes));
  let length = 0;
  for (;;) {
    const bytesRead = readSync(fd, buffer, length, buffer.length - length, length);
    if (bytesRead === 0) return finished(buffer, length, maxBytes);
    length += bytesRead;
    if (length === buffer.length) {
      const larger = grown(buffer, maxBytes);
      if (larger === undefined) return finished(buffer, length, maxBytes);
      buffer = larger;
    }
  }
}

/** readRegularTextFile for the few callers that must stay synchronous (configuration files). */
export function readRegularTextFileSync(
  path: string,
  maxBytes: number,
  options: TextReadOptions = {},
): TextFileReading {
  try {
    const before = checkStats(statSync(path), maxBytes);
    if (before !== undefined) return { ok: false, problem: before };
    const place = placeProblemSync(path, options);
    if (place !== undefined) return { ok: false, problem: place };
    const fd = openSync(path, openFlags(options));
    try {
      const opened = openedProblem(fd);
      if (opened !== undefined) return { ok: false, problem: opened };
      return asText(readDescriptorSync(fd, maxBytes), options);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { ok: false, problem: failure(error) };
  }
}
