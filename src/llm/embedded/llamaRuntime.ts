/**
 * The embedded runtime: node-llama-cpp (optional), imported on first use, on the CPU unless
 * EVALGATE_LLAMA_GPU says otherwise; it never downloads or compiles llama.cpp. A model file is
 * loaded once per process, one context whose sequences serve concurrent calls.
 */
import { closeSync, existsSync, openSync, readSync, realpathSync, statSync } from "node:fs";
import type { Llama, LlamaContext, LlamaContextSequence, LlamaModel } from "node-llama-cpp";
import { errorMessageOf } from "../../pointFunctions/contract.js";
import { kernelProblem } from "../../untrusted/regularFile.js";
import { loadOnce, loadOncePer } from "../modelCandidate.js";
import type { ModelEnv } from "../spec.js";
import { EmbeddedRuntimeError, ModelFileError } from "./errors.js";

type NodeLlamaCpp = typeof import("node-llama-cpp");

export interface RuntimeSettings {
  /** CPU threads (EVALGATE_LLAMA_THREADS; default: the runtime's choice). */
  threads: number | undefined;
  /** Context window in tokens (EVALGATE_LLAMA_CONTEXT, default 8192, at most the model's). */
  contextSize: number;
  /** Calls decoded side by side (EVALGATE_LLAMA_SEQUENCES, default 2). */
  sequences: number;
  /** "false" (default) or "auto" / "cuda" / "vulkan" / "metal" (EVALGATE_LLAMA_GPU). */
  gpu: false | "auto" | "cuda" | "vulkan" | "metal";
}

/** llama.cpp decodes at most this many sequences in one context. */
const MAX_SEQUENCES = 256;
/** llama.cpp runs at most this many CPU threads (GGML_MAX_N_THREADS). */
const MAX_THREADS = 512;

/** The environment variable `name` as a whole number from 1 to `max`; `fallback` when unset. */
function positiveInt<F extends number | undefined>(
  env: ModelEnv,
  name: string,
  fallback: F,
  max = Number.MAX_SAFE_INTEGER,
): number | F {
  const value = env[name];
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0 || parsed > max) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? "a positive integer" : `an integer from 1 to ${max}`;
    throw new EmbeddedRuntimeError(`${name} must be ${range} (got "${value}")`);
  }
  return parsed;
}

/** The most tokens one answer may have (EVALGATE_LLAMA_MAX_TOKENS, default 1024). */
export function maxAnswerTokens(env: ModelEnv): number {
  return positiveInt(env, "EVALGATE_LLAMA_MAX_TOKENS", 1024);
}

export function runtimeSettings(env: ModelEnv): RuntimeSettings {
  const gpu = env.EVALGATE_LLAMA_GPU?.trim().toLowerCase() || "false";
  if (!["false", "auto", "cuda", "vulkan", "metal"].includes(gpu)) {
    throw new EmbeddedRuntimeError(
      `EVALGATE_LLAMA_GPU must be false, auto, cuda, vulkan or metal (got "${gpu}")`,
    );
  }
  return {
    threads: positiveInt(env, "EVALGATE_LLAMA_THREADS", undefined, MAX_THREADS),
    contextSize: positiveInt(env, "EVALGATE_LLAMA_CONTEXT", 8192),
    sequences: positiveInt(env, "EVALGATE_LLAMA_SEQUENCES", 2, MAX_SEQUENCES),
    gpu: gpu === "false" ? false : (gpu as RuntimeSettings["gpu"]),
  };
}

export const importRuntime = loadOnce(
  (): Promise<NodeLlamaCpp> =>
    import("node-llama-cpp").catch((error: unknown) => {
      const message = errorMessageOf(error);
      throw new EmbeddedRuntimeError(
        message.includes("node-llama-cpp")
          ? "the package is not installed (run `npm install node-llama-cpp`)"
          : `the package failed to load (${message})`,
        { cause: error },
      );
    }),
);

async function loadLlama(settings: RuntimeSettings): Promise<Llama> {
  const runtime = await importRuntime();
  try {
    return await runtime.getLlama({
      gpu: settings.gpu,
      build: "never",
      skipDownload: true,
      progressLogs: false,
      logLevel: runtime.LlamaLogLevel.error,
      ...(settings.threads === undefined ? {} : { maxThreads: settings.threads }),
    });
  } catch (error) {
    throw new EmbeddedRuntimeError(
      `no prebuilt llama.cpp binary loads on this machine (${process.platform}-${process.arch}: ` +
        `${errorMessageOf(error)})`,
      { cause: error },
    );
  }
}

const llamaFor = loadOncePer(
  (settings: RuntimeSettings) => `${settings.gpu}:${settings.threads ?? ""}`,
  loadLlama,
);

export interface LoadedModel {
  model: LlamaModel;
  context: LlamaContext;
  acquire(): Promise<LlamaContextSequence>;
  release(sequence: LlamaContextSequence): void;
}

function sequencePool(context: LlamaContext, size: number) {
  const free: LlamaContextSequence[] = [];
  for (let i = 0; i < size; i++) free.push(context.getSequence());
  const waiting: Array<(sequence: LlamaContextSequence) => void> = [];
  return {
    acquire(): Promise<LlamaContextSequence> {
      const sequence = free.pop();
      if (sequence !== undefined) return Promise.resolve(sequence);
      return new Promise((resolve) => waiting.push(resolve));
    },
    release(sequence: LlamaContextSequence): void {
      const next = waiting.shift();
      if (next) next(sequence);
      else free.push(sequence);
    },
  };
}

/** Every GGUF file starts with these four bytes. */
const GGUF_SIGNATURE = "GGUF";

/** Whether the file starts with the GGUF signature; what it starts with otherwise is never said. */
function hasGgufSignature(path: string): boolean {
  const head = Buffer.alloc(GGUF_SIGNATURE.length);
  const file = openSync(path, "r");
  try {
    return (
      readSync(file, head, 0, head.length, 0) === head.length &&
      head.toString("latin1") === GGUF_SIGNATURE
    );
  } finally {
    closeSync(file);
  }
}

function checkModelFile(path: string): void {
  if (!existsSync(path)) throw new ModelFileError(path, "the file does not exist");
  if (!statSync(path).isFile()) throw new ModelFileError(path, "it is not a regular file");
  const kernel = kernelProblem(realpathSync(path));
  if (kernel !== undefined) throw new ModelFileError(path, `it ${kernel.reason}`);
  if (!hasGgufSignature(path)) {
    throw new ModelFileError(path, "it is not a GGUF model file (no GGUF signature at its start)");
  }
}

async function loadModelFile(path: string, settings: RuntimeSettings): Promise<LoadedModel> {
  checkModelFile(path);
  const llama = await llamaFor(settings);
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath: path });
  } catch (error) {
    const why = `the runtime cannot load it as a GGUF model (${errorMessageOf(error)})`;
    throw new ModelFileError(path, why, { cause: error });
  }
  const contextSize = Math.min(settings.contextSize, model.trainContextSize);
  const context = await model
    .createContext({
      contextSize,
      sequences: settings.sequences,
      ...(settings.threads === undefined ? {} : { threads: settings.threads }),
    })
    .catch(async (error: unknown) => {
      await model.dispose();
      throw new ModelFileError(
        path,
        `the runtime cannot make a context of ${contextSize} tokens for ${settings.sequences} ` +
          `calls side by side (${errorMessageOf(error)}); lower EVALGATE_LLAMA_CONTEXT or EVALGATE_LLAMA_SEQUENCES`,
        { cause: error },
      );
    });
  return { model, context, ...sequencePool(context, settings.sequences) };
}

export const loadEmbeddedModel = loadOncePer(
  (file: { path: string; settings: RuntimeSettings }) => JSON.stringify([file.path, file.settings]),
  (file) => loadModelFile(file.path, file.settings),
);
