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
});

afterAll(async () => {
  await new Promise<void>((resolve) => socketServer.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

function problemOf(read: FileReading | TextFileReading) {
  if (read.ok) throw new Error("expected a refusal");
  return read.problem;
}

describe.each([
  ["readRegularTextFile", (path: string, max: number) => readRegularTextFile(path, max)],
  [
    "readRegularTextFileSync",
    async (path: string, max: number) => readRegularTextFileSync(path, max),
  ],
])("%s", (_name, read) => {
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

  it("a file whose stat size is 0 but holds more (procfs) is read to its end, within the limit", async () => {
    const whole = await read("/proc/self/status", 1024 * 1024);
    expect(whole.ok && whole.text).toMatch(/^Name:/);
    expect(problemOf(await read("/proc/self/status", 16))).toEqual({
      kind: "too_large",
      reason: "is more than 16 bytes, over the limit",
    });
  });
});

describe("readRegularFile", () => {
  it("gives the bytes as they are (no decoding)", async () => {
    const bytes = join(dir, "bytes.bin");
    await writeFile(bytes, Buffer.from([0xff, 0x00, 0xfe]));
    const read = await readRegularFile(bytes, 3);
    expect(read.ok && [...read.data]).toEqual([0xff, 0x00, 0xfe]);
  });

  it("reads a file whose stat size is 0 past its first buffer (the buffer grows to the limit)", async () => {
    const read = await readRegularFile("/proc/self/smaps", 16 * 1024 * 1024);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.data.length).toBeGreaterThan(4097);
    expect(read.data.toString("utf8").endsWith("\n")).toBe(true);
  });
});
