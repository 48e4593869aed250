/**
 * ensureModelFile: the model file in the cache folder, downloaded on first use into `<file>.part`
 * (resumed with a Range request, given up when it stalls), checked against the pinned SHA-256
 * before it is renamed into place. Concurrent first runs download once (`<file>.lock`).
 */
import { existsSync } from "node:fs";
import { type FileHandle, open, rename, rm, rmdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { isEvalgateError } from "../../errors.js";
import { ModelAbortedError } from "../errors.js";
import { checkCacheFolder, createDirs, diskFullError, isNoSpace } from "./cacheFolder.js";
import type { EmbeddedModelFile } from "./defaultModel.js";
import { type HeldLock, tryLock, waitForUnlock } from "./downloadLock.js";
import { isModelDownloadError, ModelDownloadError } from "./errors.js";
import { isVerified, sha256Of, writeVerifiedNote } from "./verifiedNote.js";

export interface DownloadProgress {
  receivedBytes: number;
  totalBytes: number | undefined;
  resumedFromBytes: number;
  bytesPerSecond: number;
}

export interface EnsureModelFileOptions {
  cacheDir: string;
  /** No byte for this long ends the download (default 30 s). */
  stallTimeoutMs?: number;
  /** A lock untouched for this long is taken over (default 2 minutes). */
  staleLockMs?: number;
  onProgress?: (progress: DownloadProgress) => void;
  /** Called once when this process starts downloading (not when it finds the file or waits). */
  onDownloadStart?: () => void;
  /** Called when another process is downloading the file and this one waits. */
  onWait?: () => void;
  fetch?: typeof fetch;
  signal?: AbortSignal;
}

export interface ModelFileResult {
  path: string;
  downloaded: boolean;
}

function offlineMessage(url: string, why: string): string {
  return (
    `cannot download the embedded model from ${url} (${why}). Alternatives: ` +
    "start Ollama (`ollama serve`, then `ollama pull qwen2.5:7b-instruct`), choose a model with " +
    "--model (or EVALGATE_MODEL), use a local file with --model llama-cpp:<file.gguf>, or set " +
    "EVALGATE_MODEL_URL and EVALGATE_MODEL_SHA256 to a reachable mirror"
  );
}

function causeText(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

interface Transfer {
  url: string;
  cacheDir: string;
  /** The pinned size, when known (the server's Content-Length is preferred). */
  sizeBytes: number | undefined;
  partPath: string;
  stallTimeoutMs: number;
  fetchImpl: typeof fetch;
  signal: AbortSignal | undefined;
  onProgress: ((progress: DownloadProgress) => void) | undefined;
  lock: HeldLock;
}

async function openResponse(transfer: Transfer, offset: number, controller: AbortController) {
  const headers: Record<string, string> = offset > 0 ? { Range: `bytes=${offset}-` } : {};
  let response: Response;
  try {
    response = await transfer.fetchImpl(transfer.url, { headers, signal: controller.signal });
  } catch (error) {
    if (transfer.signal?.aborted) throw error;
    const stalled = controller.signal.aborted;
    throw new ModelDownloadError(
      stalled ? "stalled" : "unreachable",
      transfer.url,
      stalled
        ? `the download from ${transfer.url} stalled: no answer for ${transfer.stallTimeoutMs} ms`
        : offlineMessage(transfer.url, causeText(error)),
      { cause: error },
    );
  }
  if (response.status === 416 && offset > 0) return { response, append: true, complete: true };
  if (!response.ok || response.body === null) {
    throw new ModelDownloadError(
      "http-status",
      transfer.url,
      offlineMessage(transfer.url, `the server answered HTTP ${response.status}`),
    );
  }
  return { response, append: response.status === 206, complete: false };
}

/** Downloads into the .part file (resuming it when the server allows); returns bytes written. */
async function transferToPart(transfer: Transfer): Promise<void> {
  const existing = existsSync(transfer.partPath) ? (await stat(transfer.partPath)).size : 0;
  const controller = new AbortController();
  const onAbort = () => controller.abort(transfer.signal?.reason);
  transfer.signal?.addEventListener("abort", onAbort, { once: true });
  let timer = setTimeout(() => controller.abort(), transfer.stallTimeoutMs);
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), transfer.stallTimeoutMs);
  };
  try {
    const opened = await openResponse(transfer, existing, controller);
    if (opened.complete) return;
    const start = opened.append ? existing : 0;
    const length = Number(opened.response.headers.get("content-length") ?? Number.NaN);
    const total = Number.isFinite(length) ? start + length : undefined;
    const file = await open(transfer.partPath, opened.append ? "a" : "w");
    const began = performance.now();
    let received = start;
    let lastTouch = 0;
    try {
      for await (const chunk of opened.response.body as unknown as AsyncIterable<Uint8Array>) {
        rearm();
        await writeWhole(file, chunk);
        received += chunk.length;
        const seconds = Math.max((performance.now() - began) / 1000, 0.001);
        transfer.onProgress?.({
          receivedBytes: received,
          totalBytes: total,
          resumedFromBytes: start,
          bytesPerSecond: (received - start) / seconds,
        });
        if (performance.now() - lastTouch > 1000) {
          lastTouch = performance.now();
          await transfer.lock.touch();
        }
      }
    } catch (error) {
      if (transfer.signal?.aborted) throw error;
      if (isNoSpace(error)) {
        const context = { cacheDir: transfer.cacheDir, url: transfer.url, partDeleted: true };
        const neededBytes = total ?? transfer.sizeBytes;
        throw diskFullError({ ...context, neededBytes, writtenBytes: received }, error);
      }
      const stalled = controller.signal.aborted;
      throw new ModelDownloadError(
        stalled ? "stalled" : "unreachable",
        transfer.url,
        stalled
          ? `the download from ${transfer.url} stalled: no data for ${transfer.stallTimeoutMs} ms (run again to resume)`
          : `the download from ${transfer.url} was cut off (${causeText(error)}); run again to resume`,
        { cause: error },
      );
    } finally {
      await file.close();
    }
    if (total !== undefined && received < total) {
      throw new ModelDownloadError(
        "unreachable",
        transfer.url,
        `the download from ${transfer.url} ended early (${received} of ${total} bytes); run again to resume`,
      );
    }
  } finally {
    clearTimeout(timer);
    transfer.signal?.removeEventListener("abort", onAbort);
  }
}

/** A short write (the disk filling) is continued, so the file never has a gap. */
async function writeWhole(file: FileHandle, chunk: Uint8Array): Promise<void> {
  for (let offset = 0; offset < chunk.length; ) {
    const { bytesWritten } = await file.write(chunk, offset);
    offset += bytesWritten;
  }
}

async function verifyAndPlace(partPath: string, target: string, model: EmbeddedModelFile) {
  const digest = await sha256Of(partPath);
  if (digest !== model.sha256) {
    await rm(partPath, { force: true });
    throw new ModelDownloadError(
      "checksum",
      model.url,
      `the file downloaded from ${model.url} has SHA-256 ${digest}, not the pinned ` +
        `${model.sha256}; it was deleted and nothing was cached`,
    );
  }
  await rename(partPath, target);
  await writeVerifiedNote(target, model.sha256);
}

async function tidyAfterFailure(createdDirs: readonly string[], partPath: string) {
  if (existsSync(partPath) && (await stat(partPath)).size === 0)
    await rm(partPath, { force: true });
  for (const created of [...createdDirs].reverse()) await rmdir(created).catch(() => {});
}

export async function ensureModelFile(
  model: EmbeddedModelFile,
  options: EnsureModelFileOptions,
): Promise<ModelFileResult> {
  try {
    return await findOrDownload(model, options);
  } catch (error) {
    // Ctrl-C is a cancellation, as during a model call (a part file stays for a resume).
    if (options.signal?.aborted) throw new ModelAbortedError({}, options.signal.reason);
    if (isEvalgateError(error)) throw error;
    if (isNoSpace(error)) {
      const neededBytes = model.sizeBytes;
      throw diskFullError({ cacheDir: options.cacheDir, url: model.url, neededBytes }, error);
    }
    // Only the file system is left: the cache folder (or a file in it) cannot be used.
    throw new ModelDownloadError(
      "write-failed",
      model.url,
      `cannot keep the embedded model in the cache folder ${options.cacheDir} ` +
        `(${causeText(error)}): set EVALGATE_CACHE_DIR to a folder evalgate can write`,
      { cause: error },
    );
  }
}

async function findOrDownload(
  model: EmbeddedModelFile,
  options: EnsureModelFileOptions,
): Promise<ModelFileResult> {
  checkCacheFolder(options.cacheDir, model.url);
  const dir = join(options.cacheDir, "models");
  const target = join(dir, model.fileName);
  const staleMs = options.staleLockMs ?? 120_000;
  for (;;) {
    if (await isVerified(target, model.sha256)) return { path: target, downloaded: false };
    if (existsSync(target)) await rm(target, { force: true }); // corrupt: fetch it again
    const createdDirs = await createDirs(dir);
    const lockPath = `${target}.lock`;
    const lock = await tryLock(lockPath, staleMs);
    if (lock === undefined) {
      options.onWait?.();
      await waitForUnlock(lockPath, { staleMs, signal: options.signal });
      continue;
    }
    const partPath = `${target}.part`;
    try {
      if (await isVerified(target, model.sha256)) return { path: target, downloaded: false };
      options.onDownloadStart?.();
      await transferToPart({
        url: model.url,
        cacheDir: options.cacheDir,
        sizeBytes: model.sizeBytes,
        partPath,
        stallTimeoutMs: options.stallTimeoutMs ?? 30_000,
        fetchImpl: options.fetch ?? fetch,
        signal: options.signal,
        onProgress: options.onProgress,
        lock,
      });
      await verifyAndPlace(partPath, target, model);
      return { path: target, downloaded: true };
    } catch (error) {
      // After a full disk the part's last bytes may be missing: never resumed from, never trusted.
      if (isModelDownloadError(error) && error.problem === "disk-full") {
        await rm(partPath, { force: true });
      }
      await lock.release();
      await tidyAfterFailure(createdDirs, partPath);
      throw error;
    } finally {
      await lock.release();
    }
  }
}
