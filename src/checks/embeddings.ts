/**
 * The model server's embeddings, for the point functions that compare meanings: Ollama's
 * `POST /api/embed` with `{ model, input: [texts] }`, answered `{ embeddings: [[…], …] }`.
 *
 * A request is made like a judge call to the same server: it waits for a slot of the server's
 * ceiling on calls in flight (shared with the judge's calls, fair between lanes), goes through the
 * deadline fetch (timeout, cancellation, typed errors, the URL's `user:password@` sent as an
 * `Authorization: Basic` header and never shown), and its answer is read up to
 * MAX_EMBED_RESPONSE_BYTES and checked: JSON read with prototype-poisoning protection, one vector
 * of numbers per text, all of one length, at most MAX_EMBEDDING_DIMENSIONS. Nothing is retried:
 * a failure rejects with the typed model error, which the point function reports as its error.
 */
import { z } from "zod";
import { createCallLane } from "../llm/callCeiling.js";
import { classifyModelError } from "../llm/classifyError.js";
import { isModelCallError, type ModelErrorContext, ModelResponseError } from "../llm/errors.js";
import { slotWait } from "../llm/modelCandidate.js";
import { createOllamaFetch } from "../llm/ollamaFetch.js";
import { callInSlot } from "../llm/serverState.js";
import { type ModelSettings, resolveModelSettings } from "../llm/settings.js";
import type { ModelEnv } from "../llm/spec.js";
import type { TextEmbedder } from "../pointFunctions/contract.js";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";

/** The embedding model when neither the criterion nor the options name one (nor EVALGATE_EMBED_MODEL). */
export const DEFAULT_EMBEDDING_MODEL = "nomic-embed-text";
/** The deadline of one embeddings request, body included. */
export const DEFAULT_EMBEDDING_TIMEOUT_MS = 30_000;
/** The most bytes of an embeddings answer read (two 4,096-dimension vectors are about 170 KB). */
export const MAX_EMBED_RESPONSE_BYTES = 16 * 1024 * 1024;
/** The most dimensions a vector may have. */
export const MAX_EMBEDDING_DIMENSIONS = 65_536;

export interface EmbeddingServerOptions {
  /** The Ollama server (default: OLLAMA_BASE_URL, else http://127.0.0.1:11434). */
  baseUrl?: string;
  /** The model when a criterion names none (default: EVALGATE_EMBED_MODEL, else nomic-embed-text). */
  model?: string;
  /** Per request, in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Calls in flight to the server, judge calls included (default: EVALGATE_MAX_IN_FLIGHT, else 4). */
  maxInFlight?: number;
  /** Read OLLAMA_BASE_URL, EVALGATE_EMBED_MODEL and EVALGATE_MAX_IN_FLIGHT here (default process.env). */
  env?: ModelEnv;
  /** Cancels every request made with these options. */
  signal?: AbortSignal;
  /** The fetch to use (default: global fetch). */
  fetch?: typeof fetch;
}

const EmbedAnswerSchema = z.looseObject({
  embeddings: z.array(z.array(z.number()).min(1).max(MAX_EMBEDDING_DIMENSIONS)),
});

/** The answer's body as text, at most MAX_EMBED_RESPONSE_BYTES; a failed read is a typed error. */
async function readAnswer(response: Response, context: ModelErrorContext): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_EMBED_RESPONSE_BYTES) {
        throw new ModelResponseError(
          `the embeddings answer is longer than ${MAX_EMBED_RESPONSE_BYTES.toLocaleString("en-US")} bytes`,
          context,
        );
      }
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => undefined);
    throw isModelCallError(error) ? error : classifyModelError(error, context);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The vectors of the answer, checked against what was asked. */
function vectorsOf(body: string, count: number, context: ModelErrorContext): number[][] {
  const read = readUntrustedJson(body);
  if (!read.ok) {
    const problem = describeJsonProblem(read.problem);
    throw new ModelResponseError(`the embeddings answer is not usable JSON: ${problem}`, context);
  }
  const answer = EmbedAnswerSchema.safeParse(read.value);
  if (!answer.success) {
    throw new ModelResponseError(
      `the embeddings answer is not { embeddings: [[numbers], …] } with at most ${MAX_EMBEDDING_DIMENSIONS} dimensions`,
      context,
    );
  }
  const vectors = answer.data.embeddings;
  if (vectors.length !== count) {
    throw new ModelResponseError(
      `the server answered ${vectors.length} vectors for ${count} texts`,
      context,
    );
  }
  const lengths = new Set(vectors.map((vector) => vector.length));
  if (lengths.size > 1) {
    throw new ModelResponseError(
      `the vectors have different lengths (${[...lengths].join(", ")})`,
      context,
    );
  }
  return vectors;
}

function embeddingModelOf(options: EmbeddingServerOptions, env: ModelEnv, model?: string): string {
  return model ?? options.model ?? (env.EVALGATE_EMBED_MODEL?.trim() || DEFAULT_EMBEDDING_MODEL);
}

async function postEmbed(
  settings: ModelSettings,
  context: ModelErrorContext,
  texts: readonly string[],
  options: EmbeddingServerOptions,
): Promise<number[][]> {
  const fetcher = createOllamaFetch({
    baseUrl: settings.shownBaseUrl,
    authorization: settings.authorization,
    timeoutMs: settings.timeoutMs,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  const response = await fetcher(`${settings.baseUrl}/api/embed`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: context.model, input: texts }),
  });
  return vectorsOf(await readAnswer(response, context), texts.length, context);
}

/**
 * Embeddings from an Ollama server. The server settings are read at each request (a bad
 * OLLAMA_BASE_URL fails that request, not the registry that holds the embedder).
 */
export function createOllamaEmbedder(options: EmbeddingServerOptions = {}): TextEmbedder {
  const lane = createCallLane("embeddings");
  return {
    async embed(texts, model) {
      const env = options.env ?? process.env;
      const settings = resolveModelSettings({
        env,
        timeoutMs: options.timeoutMs ?? DEFAULT_EMBEDDING_TIMEOUT_MS,
        ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
        ...(options.maxInFlight === undefined ? {} : { maxInFlight: options.maxInFlight }),
      });
      const context: ModelErrorContext = {
        provider: "ollama",
        model: embeddingModelOf(options, env, model),
        baseUrl: settings.shownBaseUrl,
        timeoutMs: settings.timeoutMs,
      };
      const slots = { key: settings.baseUrl, maxInFlight: settings.maxInFlight };
      return callInSlot(slots, lane, slotWait(context, settings, options.signal), () =>
        postEmbed(settings, context, texts, options),
      );
    },
  };
}
