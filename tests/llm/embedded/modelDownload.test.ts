/** The model downloader against a file server on 127.0.0.1: progress, resume, checksum, 404, stall, lock. */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tryLock } from "../../../src/llm/embedded/cacheFolder.js";
import type { EmbeddedModelFile } from "../../../src/llm/embedded/defaultModel.js";
import { isModelDownloadError } from "../../../src/llm/embedded/errors.js";
import { type DownloadProgress, ensureModelFile } from "../../../src/llm/embedded/modelDownload.js";
import { isModelAbortedError } from "../../../src/llm/errors.js";
import { tinyGgufBytes } from "../../doubles/tinyGguf.js";
import { type ModelServer, startModelServer } from "./modelServer.js";

const BODY = tinyGgufBytes();
const DIGEST = createHash("sha256").update(BODY).digest("hex");

let cacheDir: string;
let server: ModelServer | undefined;

beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), "evalgate-download-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(cacheDir, { recursive: true, force: true });
});

function modelAt(url: string, sha256 = DIGEST): EmbeddedModelFile {
  return {
    name: "tiny",
    fileName: "tiny.gguf",
    url,
    sha256,
    sizeBytes: BODY.length,
    licence: "MIT",
  };
}

async function cachedFiles(): Promise<string[]> {
  const dir = join(cacheDir, "models");
  return existsSync(dir) ? (await readdir(dir)).sort() : [];
}

async function failure(pending: Promise<unknown>) {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isModelDownloadError(error)) throw new Error(`expected a ModelDownloadError, got ${error}`);
  return error;
}

describe("ensureModelFile", () => {
  it("downloads the file, reports progress up to its size, verifies and caches it", async () => {
    server = await startModelServer(BODY);
    const progress: DownloadProgress[] = [];
    const result = await ensureModelFile(modelAt(server.url), {
      cacheDir,
      onProgress: (p) => progress.push(p),
    });
    expect(result.downloaded).toBe(true);
    expect(await readFile(result.path)).toEqual(BODY);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.receivedBytes).toBe(BODY.length);
    expect(progress.at(-1)?.totalBytes).toBe(BODY.length);
    expect(await cachedFiles()).toEqual(["tiny.gguf", "tiny.gguf.verified"]);

    // A second run finds the verified file and asks the server nothing.
    const again = await ensureModelFile(modelAt(server.url), { cacheDir });
    expect(again).toEqual({ path: result.path, downloaded: false });
    expect(server.requests).toHaveLength(1);
  });

  it("resumes a cut-off download with an HTTP Range request from the bytes it has", async () => {
    const cut = 100_000;
    server = await startModelServer(BODY, { cutAfterBytes: cut });
    const first = await failure(ensureModelFile(modelAt(server.url), { cacheDir }));
    expect(first.problem).toBe("unreachable");
    expect(first.message).toContain("run again to resume");
    expect(await cachedFiles()).toEqual(["tiny.gguf.part"]);

    const result = await ensureModelFile(modelAt(server.url), { cacheDir });
    expect(result.downloaded).toBe(true);
    expect(await readFile(result.path)).toEqual(BODY);
    expect(server.requests).toEqual(["", `bytes=${cut}-`]);
  });

  it("starts over when the server ignores the Range request", async () => {
    server = await startModelServer(BODY, { cutAfterBytes: 5_000, noRanges: true });
    await failure(ensureModelFile(modelAt(server.url), { cacheDir }));
    const result = await ensureModelFile(modelAt(server.url), { cacheDir });
    expect(await readFile(result.path)).toEqual(BODY);
  });

  it("refuses a file whose SHA-256 is not the pinned one and caches nothing", async () => {
    server = await startModelServer(BODY);
    const wrong = "0".repeat(64);
    const error = await failure(ensureModelFile(modelAt(server.url, wrong), { cacheDir }));
    expect(error.problem).toBe("checksum");
    expect(error.message).toContain(DIGEST);
    expect(error.message).toContain(wrong);
    expect(await cachedFiles()).toEqual([]);
  });

  it("names the URL and the alternatives on a 404, and leaves nothing behind", async () => {
    server = await startModelServer(BODY, { notFound: true });
    const error = await failure(ensureModelFile(modelAt(server.url), { cacheDir }));
    expect(error.problem).toBe("http-status");
    expect(error.message).toContain(server.url);
    expect(error.message).toContain("HTTP 404");
    expect(error.message).toContain("ollama serve");
    expect(error.message).toContain("--model");
    expect(existsSync(join(cacheDir, "models"))).toBe(false);
  });

  it("offline: no server at the address, nothing written", async () => {
    server = await startModelServer(BODY);
    const url = server.url;
    await server.close();
    server = undefined;
    const nested = join(cacheDir, "not", "yet");
    const error = await failure(ensureModelFile(modelAt(url), { cacheDir: nested }));
    expect(error.problem).toBe("unreachable");
    expect(error.message).toContain(url);
    expect(error.message).toContain("llama-cpp:<file.gguf>");
    expect(existsSync(join(cacheDir, "not"))).toBe(false);
  });

  it("gives up on a server that stops sending, keeping the part for a resume", async () => {
    server = await startModelServer(BODY, { stallAfterBytes: 1_000 });
    const error = await failure(
      ensureModelFile(modelAt(server.url), { cacheDir, stallTimeoutMs: 300 }),
    );
    expect(error.problem).toBe("stalled");
    expect(await cachedFiles()).toEqual(["tiny.gguf.part"]);
  });

  it("two first runs at once: one downloads, the other waits and uses the same file", async () => {
    server = await startModelServer(BODY);
    const waits: string[] = [];
    const [a, b] = await Promise.all([
      ensureModelFile(modelAt(server.url), { cacheDir, onWait: () => waits.push("a") }),
      ensureModelFile(modelAt(server.url), { cacheDir, onWait: () => waits.push("b") }),
    ]);
    expect(a.path).toBe(b.path);
    expect([a.downloaded, b.downloaded].sort()).toEqual([false, true]);
    expect(server.requests).toHaveLength(1);
    expect(waits).toHaveLength(1);
    expect(await readFile(a.path)).toEqual(BODY);
  });

  it("takes over a lock left by a process that is gone", async () => {
    server = await startModelServer(BODY);
    const { mkdir, writeFile } = await import("node:fs/promises");
    await mkdir(join(cacheDir, "models"), { recursive: true });
    // No process has pid 2^22 + 1 on Linux (pid_max is at most 2^22).
    await writeFile(join(cacheDir, "models", "tiny.gguf.lock"), "4194305\n");
    const result = await ensureModelFile(modelAt(server.url), { cacheDir });
    expect(result.downloaded).toBe(true);
    expect(await cachedFiles()).toEqual(["tiny.gguf", "tiny.gguf.verified"]);
  });

  it("a cache folder that cannot be written: named, with the setting that moves it", async () => {
    server = await startModelServer(BODY);
    const { writeFile } = await import("node:fs/promises");
    const notAFolder = join(cacheDir, "file");
    await writeFile(notAFolder, "a file where the cache folder should be\n");
    const error = await failure(ensureModelFile(modelAt(server.url), { cacheDir: notAFolder }));
    expect(error.problem).toBe("write-failed");
    expect(error.message).toContain(`cache folder ${notAFolder}`);
    expect(error.message).toContain("EVALGATE_CACHE_DIR");
    expect(server.requests).toHaveLength(0);
  });

  it("a disk that fills while writing: says the disk is full, how much is needed, and trusts no part", async () => {
    server = await startModelServer(BODY);
    const { mkdir, symlink, lstat } = await import("node:fs/promises");
    const models = join(cacheDir, "models");
    await mkdir(models);
    // Every write into /dev/full fails with ENOSPC, as on a full disk.
    await symlink("/dev/full", join(models, "tiny.gguf.part"));
    const error = await failure(ensureModelFile(modelAt(server.url), { cacheDir }));
    expect(error.code).toBe("MODEL_DOWNLOAD_FAILED");
    expect(error.problem).toBe("disk-full");
    expect(error.message).toContain(`the disk is full where the cache folder ${cacheDir} is`);
    expect(error.message).toContain(`${BODY.length.toLocaleString("en-US")} bytes`);
    expect(error.message).toContain("EVALGATE_CACHE_DIR");
    expect(error.message).not.toContain("cut off");
    // The part is gone (the link, not /dev/full): the next run starts from nothing.
    expect(await cachedFiles()).toEqual([]);
    expect((await lstat("/dev/full")).isCharacterDevice()).toBe(true);
    const result = await ensureModelFile(modelAt(server.url), { cacheDir });
    expect(await readFile(result.path)).toEqual(BODY);
    expect(server.requests).toEqual(["", ""]);
  });

  it("Ctrl-C during the download is a cancellation (as during a call), keeping the part for a resume", async () => {
    server = await startModelServer(BODY, { stallAfterBytes: 1_000 });
    const controller = new AbortController();
    const pending = ensureModelFile(modelAt(server.url), {
      cacheDir,
      signal: controller.signal,
      onProgress: () => controller.abort(new Error("interrupted (SIGINT)")),
    });
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isModelAbortedError(error)).toBe(true);
    expect(await cachedFiles()).toEqual(["tiny.gguf.part"]);
  });

  it("Ctrl-C while another run downloads is a cancellation too", async () => {
    const { mkdir, writeFile } = await import("node:fs/promises");
    await mkdir(join(cacheDir, "models"), { recursive: true });
    // The lock of a live process (this one): the run waits for it.
    await writeFile(join(cacheDir, "models", "tiny.gguf.lock"), `${process.pid}\n`);
    const controller = new AbortController();
    const pending = ensureModelFile(modelAt("http://127.0.0.1:9/never.gguf"), {
      cacheDir,
      signal: controller.signal,
      onWait: () => controller.abort(new Error("interrupted (SIGINT)")),
    });
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isModelAbortedError(error)).toBe(true);
  });
});

describe("the download lock", () => {
  it("released twice, leaves the lock the next run took in between", async () => {
    const path = join(cacheDir, "model.lock");
    const first = await tryLock(path, 120_000);
    await first?.release();
    const second = await tryLock(path, 120_000);
    expect(second).toBeDefined();
    await first?.release();
    expect(existsSync(path)).toBe(true);
    expect(await tryLock(path, 120_000)).toBeUndefined();
    await second?.release();
    expect(existsSync(path)).toBe(false);
  });
});
