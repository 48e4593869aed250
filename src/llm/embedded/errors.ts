/** The embedded model's errors: its runtime, a local model file, the default model's download. */
import { EvalgateError, errorGuard } from "../../errors.js";
import { redactSecretText } from "../../redact.js";

/** The embedded runtime is not installed, or its native binary cannot load on this machine. */
export class EmbeddedRuntimeError extends EvalgateError {
  constructor(detail: string, options: { cause?: unknown } = {}) {
    super(
      "EMBEDDED_RUNTIME_UNAVAILABLE",
      `the embedded model runtime (node-llama-cpp) cannot be used: ${detail}; ` +
        "start Ollama (`ollama serve`) or choose another model with --model",
      options,
    );
  }
}

/** A GGUF model file that is missing, unreadable or not a model the runtime can load. */
export class ModelFileError extends EvalgateError {
  constructor(
    readonly path: string,
    detail: string,
    options: { cause?: unknown } = {},
  ) {
    super("MODEL_FILE_UNUSABLE", `cannot use the model file ${path}: ${detail}`, options);
  }
}

export type DownloadProblem =
  | "unreachable"
  | "http-status"
  | "stalled"
  | "checksum"
  | "unpinned"
  | "write-failed"
  | "disk-full";

/** The model could not be downloaded (or verified); nothing unverified is ever kept as the model. */
export class ModelDownloadError extends EvalgateError {
  constructor(
    readonly problem: DownloadProblem,
    readonly url: string,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super("MODEL_DOWNLOAD_FAILED", redactSecretText(message), options);
  }
}

export const isModelDownloadError = errorGuard<ModelDownloadError>("MODEL_DOWNLOAD_FAILED");
