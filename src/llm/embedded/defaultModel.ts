/**
 * The embedded default model: Qwen2.5-1.5B-Instruct Q4_K_M by the Qwen team (Apache-2.0), pinned
 * by revision, size and SHA-256; a mirror (EVALGATE_MODEL_URL) must give its digest.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import type { ModelEnv } from "../spec.js";
import { ModelDownloadError } from "./errors.js";

export interface EmbeddedModelFile {
  name: string;
  fileName: string;
  url: string;
  sha256: string;
  sizeBytes: number | undefined;
  licence: string;
}

const REVISION = "91cad51170dc346986eccefdc2dd33a9da36ead9";

export const DEFAULT_EMBEDDED_MODEL: EmbeddedModelFile = {
  name: "Qwen2.5-1.5B-Instruct Q4_K_M",
  fileName: "qwen2.5-1.5b-instruct-q4_k_m.gguf",
  url: `https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/${REVISION}/qwen2.5-1.5b-instruct-q4_k_m.gguf`,
  sha256: "6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e",
  sizeBytes: 1_117_320_736,
  licence: "Apache-2.0",
};

const SHA256_HEX = /^[0-9a-f]{64}$/;

function fileNameOf(url: string): string {
  const path = URL.canParse(url) ? new URL(url).pathname : "";
  const last = path.split("/").filter(Boolean).pop() ?? "";
  const safe = decodeURIComponent(last).replace(/[^A-Za-z0-9._-]/g, "_");
  return safe.endsWith(".gguf") ? safe : `${safe || "model"}.gguf`;
}

/** The pinned default, or EVALGATE_MODEL_URL with its EVALGATE_MODEL_SHA256. */
export function embeddedModelFile(env: ModelEnv): EmbeddedModelFile {
  const url = env.EVALGATE_MODEL_URL?.trim() || DEFAULT_EMBEDDED_MODEL.url;
  const given = env.EVALGATE_MODEL_SHA256?.trim().toLowerCase();
  if (given !== undefined && given !== "" && !SHA256_HEX.test(given)) {
    throw new ModelDownloadError(
      "unpinned",
      url,
      "EVALGATE_MODEL_SHA256 must be the 64 hex digits of the file's SHA-256 digest",
    );
  }
  if (url === DEFAULT_EMBEDDED_MODEL.url) {
    return given ? { ...DEFAULT_EMBEDDED_MODEL, sha256: given } : DEFAULT_EMBEDDED_MODEL;
  }
  if (!given) {
    throw new ModelDownloadError(
      "unpinned",
      url,
      `EVALGATE_MODEL_URL is set (${url}) but EVALGATE_MODEL_SHA256 is not: ` +
        "give the file's SHA-256 digest, so that what is downloaded can be checked before use",
    );
  }
  const sameFile =
    fileNameOf(url) === DEFAULT_EMBEDDED_MODEL.fileName && given === DEFAULT_EMBEDDED_MODEL.sha256;
  return {
    name: sameFile ? DEFAULT_EMBEDDED_MODEL.name : fileNameOf(url),
    fileName: fileNameOf(url),
    url,
    sha256: given,
    sizeBytes: sameFile ? DEFAULT_EMBEDDED_MODEL.sizeBytes : undefined,
    licence: sameFile ? DEFAULT_EMBEDDED_MODEL.licence : "see the mirror",
  };
}

export function modelCacheDir(env: ModelEnv, platform: NodeJS.Platform = process.platform): string {
  const explicit = env.EVALGATE_CACHE_DIR?.trim();
  if (explicit) return explicit;
  const home = env.HOME?.trim() || homedir();
  if (platform === "win32") {
    return join(env.LOCALAPPDATA?.trim() || join(home, "AppData", "Local"), "evalgate");
  }
  if (platform === "darwin") return join(home, "Library", "Caches", "evalgate");
  return join(env.XDG_CACHE_HOME?.trim() || join(home, ".cache"), "evalgate");
}

/** "1.1 GB", "532 MB", "12 kB" (decimal units). */
export function formatSize(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}
