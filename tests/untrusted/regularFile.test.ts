/**
 * The one reader of files whose path a user gave: regular files only (type checked before the
 * file is opened, so a FIFO never blocks), at most a limit, with a reason naming what the path is.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FileReading,
  readRegularFile,
  readRegularTextFile,
  readRegularTextFileSync,
  type TextFileReading,
  type TextReadOptions,
} from "../../src/untrusted/regularFile.js";

let dir: string;
let socketServer: Server;
const paths: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "evalgate-files-"));
  paths.fifo = join(dir, "pipe.json");
  execFileSync("mkfifo", [paths.fifo]);
  paths.linkToFifo = join(dir, "link.json");
  await symlink(paths.fifo, paths.linkToFifo);
  paths.socket = join(dir, "service.sock");
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer.listen(paths.socket!, resolve));
  paths.folder = join(dir, "folder");
  await mkdir(paths.folder);
  paths.small = join(dir, "small.txt");
  await writeFile(paths.small, "twelve bytes");
  paths.empty = join(dir, "empty.txt");
  await writeFile(paths.empty, "");
  paths.utf8 = join(dir, "umlaut.txt");
  await writeFile(paths.utf8, "Grüße aus Köln");
  paths.links = join(dir, "links");
  await mkdir(paths.links);
  // A regular file under /dev (a tmpfs): refused for where it is, not for what it is.
  await writeFile("/dev/shm/evalgate-regular-file-test", "in /dev");
});

afterAll(async () => {
  await rm("/dev/shm/evalgate-regular-file-test", { force: true });
  await new Promise<void>((resolve) => socketServer.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

function problemOf(read: FileReading | TextFileReading) {
  if (read.ok) throw new Error("expected a refusal");
  return read.problem;
}

describe.each([
  [
    "readRegularTextFile",
    (path: string, max: number, options?: TextReadOptions) =>
      readRegularTextFile(path, max, options),
  ],
  [
    "readRegularTextFileSync",
    async (path: string, max: number, options?: TextReadOptions) =>
      readRegularTextFileSync(path, max, options),
  ],
])("%s", (name, read) => {
  it.each([
    ["fifo", "a FIFO"],
    ["linkToFifo", "a FIFO"],
    ["socket", "a socket"],
    ["folder", "a directory"],
  ])("refuses a %s as %s, without blocking", async (key, fileType) => {
    const problem = problemOf(await read(paths[key]!, 1024));
    expect(problem).toEqual({
      kind: "not_regular",
      fileType,
      reason: `is ${fileType}, not a regular file`,
    });
  });

  it.each(["/dev/zero", "/dev/null", "/dev/urandom"])("refuses the device %s", async (device) => {
    expect(problemOf(await read(device, 1024))).toMatchObject({
      kind: "not_regular",
      reason: "is a character device, not a regular file",
    });
  });

  it("reports a missing file, and a path through a file, as missing", async () => {
    expect(problemOf(await read(join(dir, "absent.json"), 1024))).toEqual({
      kind: "missing",
      reason: "no such file",
    });
    expect(problemOf(await read(join(paths.small!, "inside"), 1024)).kind).toBe("missing");
  });

  it("reads a file of exactly the limit, and refuses one byte more before reading", async () => {
    expect(await read(paths.small!, 12)).toEqual({ ok: true, text: "twelve bytes" });
    expect(problemOf(await read(paths.small!, 11))).toEqual({
      kind: "too_large",
      size: 12,
      reason: "is 12 bytes, over the limit of 11 bytes",
    });
  });

  it("reads empty files and UTF-8 text", async () => {
    expect(await read(paths.empty!, 10)).toEqual({ ok: true, text: "" });
    expect(await read(paths.utf8!, 100)).toEqual({ ok: true, text: "Grüße aus Köln" });
  });

  it.each(["/proc/self/environ", "/proc/self/status", "/dev/shm/evalgate-regular-file-test"])(
    "never reads %s: a file of the system, however it is reached",
    async (kernelFile) => {
      const linked = join(paths.links!, `${name}-to-${kernelFile.replace(/\//g, "-")}`);
      await symlink(kernelFile, linked);
      for (const path of [kernelFile, linked]) {
        for (const followSymlinks of [false, true]) {
          const problem = problemOf(await read(path, 1024 * 1024, { followSymlinks }));
          expect(problem.kind, path).toBe("kernel_file");
          expect(problem.reason).toMatch(/^is in \/(proc|dev) \(.*\): a file of the system/);
        }
      }
    },
  );

  it("never reads through a linked folder into /proc", async () => {
    const folderLink = join(paths.links!, "self");
    await symlink("/proc/self", folderLink).catch(() => undefined);
    const problem = problemOf(await read(join(folderLink, "environ"), 1024 * 1024));
    expect(problem.kind).toBe("kernel_file");
  });

  it("refuses a link to a regular file unless links are allowed", async () => {
    const link = join(paths.links!, `${name}-small-link.txt`);
    await symlink(paths.small!, link);
    expect(problemOf(await read(link, 1024))).toEqual({
      kind: "symlink",
      reason:
        "is a symbolic link: links are not followed (give the file itself, or set EVALGATE_FOLLOW_SYMLINKS=1)",
    });
    expect(await read(link, 1024, { followSymlinks: true })).toEqual({
      ok: true,
      text: "twelve bytes",
    });
  });

  it("refuses text with NUL bytes, and bytes that are not UTF-8 when asked to", async () => {
    const binary = join(dir, "nul.txt");
    await writeFile(binary, Buffer.from("a\u0000b"));
    expect(problemOf(await read(binary, 100))).toEqual({
      kind: "not_text",
      reason: "contains NUL bytes: a binary file, not text",
    });
    const latin1 = join(dir, "latin1.txt");
    await writeFile(latin1, Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65]));
    expect(await read(latin1, 100)).toEqual({ ok: true, text: "Gr\ufffd\ufffde" });
    expect(problemOf(await read(latin1, 100, { strictUtf8: true })).kind).toBe("not_text");
  });
});

describe("readRegularFile", () => {
  it("gives the bytes as they are (no decoding)", async () => {
    const bytes = join(dir, "bytes.bin");
    await writeFile(bytes, Buffer.from([0xff, 0x00, 0xfe]));
    const read = await readRegularFile(bytes, 3);
    expect(read.ok && [...read.data]).toEqual([0xff, 0x00, 0xfe]);
  });

  it("never reads a file of /proc, whose stat size of 0 would hide what it holds", async () => {
    const read = await readRegularFile("/proc/self/smaps", 16 * 1024 * 1024);
    expect(problemOf(read).kind).toBe("kernel_file");
  });
});
