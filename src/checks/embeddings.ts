/**
 * Ollama's `POST /api/embed`, called like a judge call to the same server (its in-flight ceiling,
 * the deadline fetch, typed errors); the answer is read bounded and checked. Nothing is retried.
 */
import { z } from "zod";
import { createCallLane } from "../llm/callCeiling.js";
import { classifyModelError } from "../llm/classifyError.js";
import { isModelCallError, type ModelErrorContext, ModelResponseError } from "../llm/errors.js";
import { createOllamaFetch } from "../llm/ollamaFetch.js";
import { callInSlot } from "../llm/serverState.js";
import { type ModelSettings, resolveModelSettings } from "../llm/settings.js";
import type { ModelEnv } from "../llm/spec.js";
import type { TextEmbedder } from "../pointFunctions/contract.js";
import { describeJsonProblem, readUntrustedJson } from "../untrusted/json.js";

const DEFAULT_EMBEDDING_MODEL = "nomic-embed-text";
const DEFAULT_EMBEDDING_TIMEOUT_MS = 30_000;
/** Two 4,096-dimension vectors are about 170 KB. */
const MAX_EMBED_RESPONSE_BYTES = 16 * 1024 * 1024;
const MAX_EMBEDDING_DIMENSIONS = 65_536;

export interface EmbeddingServerOptions {
  /** Default: OLLAMA_BASE_URL, else http://127.0.0.1:11434. */
  baseUrl?: string;
  /** When a criterion names none (default: EVALGATE_EMBED_MODEL, else nomic-embed-text). */
  model?: string;
  /** Per request, in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** Calls in flight to the server, judge calls included (default: EVALGATE_MAX_IN_FLIGHT, else 4). */
  maxInFlight?: number;
  /** Read OLLAMA_BASE_URL, EVALGATE_EMBED_MODEL and EVALGATE_MAX_IN_FLIGHT here (default process.env). */
  env?: ModelEnv;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

const EmbedAnswerSchema = z.looseObject({
  embeddings: z.array(z.array(z.number()).min(1).max(MAX_EMBEDDING_DIMENSIONS)),
});

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

/** Settings are read at each request: a bad OLLAMA_BASE_URL fails that request, not the registry. */
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
        model:
          model ?? options.model ?? (env.EVALGATE_EMBED_MODEL?.trim() || DEFAULT_EMBEDDING_MODEL),
        baseUrl: settings.shownBaseUrl,
        timeoutMs: settings.timeoutMs,
      };
      // The judge's ceiling at this server, whatever the spelling of its URL (#slots=N wins).
      const server = settings.servers[0];
      const slots = {
        key: server?.address.key ?? settings.baseUrl,
        maxInFlight: server?.slots ?? settings.maxInFlight,
      };
      const wait = { context, maxQueueWaitMs: settings.maxQueueWaitMs, signal: options.signal };
      return callInSlot(slots, lane, wait, () => postEmbed(settings, context, texts, options));
    },
  };
}
