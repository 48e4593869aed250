/**
 * ensureModelFile: the model file in the cache folder, downloaded on first use into `<file>.part`
 * (resumed with a Range request, given up when it stalls), checked against the pinned SHA-256
 * before it is renamed into place. Concurrent first runs download once (`<file>.lock`).
 */
import { existsSync } from "node:fs";
import { open, rename, rm, rmdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { isEvalgateError } from "../../errors.js";
import { ModelAbortedError } from "../errors.js";
import {
  checkCacheFolder,
  createDirs,
  diskFullError,
  type HeldLock,
  isNoSpace,
  isVerified,
  sha256Of,
  tryLock,
  waitForUnlock,
  writeVerifiedNote,
} from "./cacheFolder.js";
import type { EmbeddedModelFile } from "./defaultModel.js";
import { isModelDownloadError, ModelDownloadError } from "./errors.js";

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
  model: EmbeddedModelFile;
  options: EnsureModelFileOptions;
  partPath: string;
  lock: HeldLock;
  /** No byte for this long ends the download. */
  stallMs: number;
}

/** The transfer failed: it stalled (`controller` fired), or the server or network failed it. */
function transferError(
  { model, options }: Transfer,
  controller: AbortController,
  error: unknown,
  stalled: string,
  failed: string,
): unknown {
  if (options.signal?.aborted) return error;
  const didStall = controller.signal.aborted;
  const message = didStall ? `the download from ${model.url} stalled: ${stalled}` : failed;
  return new ModelDownloadError(didStall ? "stalled" : "unreachable", model.url, message, {
    cause: error,
  });
}

/** The server's answer from `existing` bytes on; undefined when the part file is already whole. */
async function openResponse(
  transfer: Transfer,
  existing: number,
  controller: AbortController,
): Promise<Response | undefined> {
  const { url } = transfer.model;
  const headers: Record<string, string> = existing > 0 ? { Range: `bytes=${existing}-` } : {};
  const fetchImpl = transfer.options.fetch ?? fetch;
  const response = await fetchImpl(url, { headers, signal: controller.signal }).catch(
    (error: unknown) => {
      const stalled = `no answer for ${transfer.stallMs} ms`;
      throw transferError(
        transfer,
        controller,
        error,
        stalled,
        offlineMessage(url, causeText(error)),
      );
    },
  );
  if (response.status === 416 && existing > 0) return undefined;
  if (!response.ok || response.body === null) {
    const why = `the server answered HTTP ${response.status}`;
    throw new ModelDownloadError("http-status", url, offlineMessage(url, why));
  }
  return response;
}

/** Downloads into the .part file, resuming it when the server allows. */
async function transferToPart(transfer: Transfer): Promise<void> {
  const { model, options, partPath } = transfer;
  const { url } = model;
  const existing = existsSync(partPath) ? (await stat(partPath)).size : 0;
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), transfer.stallMs);
  };
  rearm();
  try {
    const response = await openResponse(transfer, existing, controller);
    if (response === undefined) return;
    const append = response.status === 206;
    const start = append ? existing : 0;
    const length = Number(response.headers.get("content-length") ?? Number.NaN);
    const total = Number.isFinite(length) ? start + length : undefined;
    const file = await open(partPath, append ? "a" : "w");
    const began = performance.now();
    let received = start;
    let lastTouch = 0;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        rearm();
        // A short write (the disk filling) is continued, so the file never has a gap.
        for (let offset = 0; offset < chunk.length; ) {
          offset += (await file.write(chunk, offset)).bytesWritten;
        }
        received += chunk.length;
        const seconds = Math.max((performance.now() - began) / 1000, 0.001);
        options.onProgress?.({
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
      if (isNoSpace(error) && !options.signal?.aborted) {
        const context = { cacheDir: options.cacheDir, url, partDeleted: true };
        const neededBytes = total ?? model.sizeBytes;
        throw diskFullError({ ...context, neededBytes, writtenBytes: received }, error);
      }
      throw transferError(
        transfer,
        controller,
        error,
        `no data for ${transfer.stallMs} ms (run again to resume)`,
        `the download from ${url} was cut off (${causeText(error)}); run again to resume`,
      );
    } finally {
      await file.close();
    }
    if (total !== undefined && received < total) {
      throw new ModelDownloadError(
        "unreachable",
        url,
        `the download from ${url} ended early (${received} of ${total} bytes); run again to resume`,
      );
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
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
      const stallMs = options.stallTimeoutMs ?? 30_000;
      await transferToPart({ model, options, partPath, lock, stallMs });
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
      return { path: target, downloaded: true };
    } catch (error) {
      // After a full disk the part's last bytes may be missing: never resumed from, never trusted.
      if (isModelDownloadError(error) && error.problem === "disk-full") {
        await rm(partPath, { force: true });
      }
      await lock.release();
      if (existsSync(partPath) && (await stat(partPath)).size === 0) {
        await rm(partPath, { force: true });
      }
      for (const created of [...createdDirs].reverse()) await rmdir(created).catch(() => {});
      throw error;
    } finally {
      await lock.release();
    }
  }
}
