/**
 * An HTTP server on 127.0.0.1 that speaks the Ollama REST protocol, for testing the real
 * `ChatOllama` wiring (request body, NDJSON streaming, usage counts, faults) without a model.
 *
 * What it serves, shaped as Ollama 0.x serves it (see node_modules/ollama/src/interfaces.ts):
 * - `GET /` → `Ollama is running`; `GET /api/version` → `{ version }`
 * - `GET /api/tags` → `{ models: [{ name, model, modified_at, size, digest, details }] }`
 * - `POST /api/chat` → streaming by default (`application/x-ndjson`: one line per chunk
 *   `{ model, created_at, message: { role: "assistant", content }, done: false }`, then a final
 *   line with `done: true, done_reason: "stop"`, durations, `prompt_eval_count`, `eval_count` and
 *   an empty message); with `stream: false`, one JSON object holding the whole message and counts.
 *   A model not in the list answers 404 `{"error":"model \"x\" not found, try pulling it first"}`.
 * - `POST /api/embed` with `{ model, input }` (a string or a list of strings) →
 *   `{ model, embeddings: [[…], …], total_duration, load_duration, prompt_eval_count }`, one
 *   vector per input from an embedder `(text, model) => number[]` (default: a bag of words hashed
 *   into EMBED_DIMENSIONS dimensions); the models it serves are `embedModels` (default
 *   nomic-embed-text), another answers 404 like chat. Faults per embed request with
 *   `setEmbedBehaviour` (status, raw body, hold, hang, reset, vectors of the test's choosing).
 *
 * The answer text comes from a responder `(request, n) => string` (default: a fixed JSON judge
 * answer). The injection guard's prompts are answered as users' models answer them (the guard is
 * on by default; guardAnswers.ts): its own call (the guard's system prompt) gets "no injection"
 * without a behaviour or a chat number, listed in `guardRequests()` and not in `chatRequests()`;
 * a judging call that carries its question gets that answer as the screening line first. `guard`
 * answers it otherwise (a text or a responder; `setGuard` changes it), and `"script"` makes its
 * prompts chat requests like any other (numbered, behaviours, the responder), untouched. Token log-probabilities: when a chat request asks for them (`logprobs: true`,
 * `top_logprobs: N`) and a `logprobs` responder gives the answer's tokens (their texts joined must
 * be the answer), the answer is streamed one token a chunk, each chunk with its `logprobs: [{
 * token, logprob, top_logprobs }]` (at most N alternatives), as Ollama does; without `stream`, the
 * message carries them all. Not asked, or no tokens given: the answer is exactly as before. Faults are set per test with `setBehaviour`, for every request or per nth chat request.
 *
 * Faults of a broken server or proxy: `rawBody` answers any bytes (a 1 MB page with status 200),
 * `echoHeaders` puts the request's headers (Authorization included) in an error body, and
 * `requireAuthorization` answers 401 to every request without that exact `Authorization` header.
 * Every request's headers are recorded.
 *
 * Concurrency and cancellation are proven by counting, not by clocks: `inFlight` / `maxInFlight`
 * count the model requests (chat and embed) being answered at once, `held` those waiting at the gate (behaviour
 * `hold`) until the test calls `release()`, `clientDisconnects` those the client gave up on before
 * the answer ended, and `waitFor(condition)` resolves as soon as a condition on these holds.
 *
 * Standalone: `tsx tests/doubles/ollamaServer.ts --port 0 [--script answers.json] [--models a,b]`
 * prints `listening <url>`. The script file is a JSON array of answers (used in order, the last
 * one repeating) or `{ "models": [...], "answers": [...] }`.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import {
  asksScreening,
  CLEAN_GUARD_ANSWER,
  isGuardCall,
  withScreeningLine,
} from "./guardAnswers.js";

/** One chat message as Ollama receives it. */
export interface OllamaWireMessage {
  role: string;
  content: string;
  [key: string]: unknown;
}

/** The body of `POST /api/chat` as the server parsed it. */
export interface OllamaChatRequest {
  model: string;
  messages: OllamaWireMessage[];
  stream?: boolean;
  format?: unknown;
  keep_alive?: string | number;
  options?: Record<string, unknown>;
  [key: string]: unknown;
}

const ChatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z
    .array(z.looseObject({ role: z.string(), content: z.string().default("") }))
    .default([]),
  stream: z.boolean().optional(),
  format: z.unknown().optional(),
  keep_alive: z.union([z.string(), z.number()]).optional(),
  options: z.record(z.string(), z.unknown()).optional(),
});

/** Every request the server received, in order (all paths, not only chat). */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The parsed JSON body, or undefined when there was none (or it was not JSON). */
  body: unknown;
  /** The request's headers, names in lower case. */
  headers: Record<string, string>;
  receivedAt: number;
}

/**
 * How the server treats one chat request. Fields combine: a delay, then a fault or the answer.
 */
export interface OllamaBehaviour {
  /** Wait this long before sending anything (status line included). */
  delayBeforeFirstByteMs?: number;
  /** Wait this long between streamed chunks. */
  delayBetweenChunksMs?: number;
  /** Never answer (the socket stays open until the client gives up or the server closes). */
  hang?: boolean;
  /**
   * Wait at the gate until the test calls `release()` (or the client gives up): before any byte,
   * or after the first streamed chunk.
   */
  hold?: "before-response" | "mid-stream";
  /** Destroy the socket (connection reset): before any byte, or after the first streamed chunk. */
  reset?: "before-response" | "mid-stream";
  /** Answer with this HTTP status and an Ollama error body `{ error }` instead of a chat answer. */
  status?: number;
  /** The `error` text sent with `status`. */
  errorMessage?: string;
  /** A `Retry-After` header sent with `status` (seconds, or an HTTP date). */
  retryAfter?: string | number;
  /** Answer this text instead of asking the responder. */
  answer?: string;
  /** Answer exactly these bytes (status `status` or 200, type `contentType` or text/plain). */
  rawBody?: string;
  contentType?: string;
  /** With `status`: the error body quotes the request's headers, `Name: value` a line. */
  echoHeaders?: boolean;
  /** Override the reported `prompt_eval_count` / `eval_count`. */
  promptEvalCount?: number;
  evalCount?: number;
}

/**
 * One behaviour for every chat request; a list, where the nth chat request (1-based) gets entry
 * n-1 and later ones the plain behaviour; or a function of the chat request number and body.
 */
export type OllamaBehaviourPlan =
  | OllamaBehaviour
  | readonly OllamaBehaviour[]
  | ((chatRequestNumber: number, request: OllamaChatRequest) => OllamaBehaviour);

/** The body of `POST /api/embed` as the server parsed it (`input` always as a list). */
export interface OllamaEmbedRequest {
  model: string;
  input: string[];
  [key: string]: unknown;
}

const EmbedRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.string())]),
});

/** How the server treats one embed request. */
export interface OllamaEmbedBehaviour {
  delayBeforeFirstByteMs?: number;
  /** Never answer. */
  hang?: boolean;
  /** Wait at the gate until `release()` (counted in `held` with the chat requests). */
  hold?: boolean;
  /** Destroy the socket before any byte. */
  reset?: boolean;
  /** Answer this HTTP status with an Ollama error body `{ error }`. */
  status?: number;
  errorMessage?: string;
  /** Answer exactly these bytes (status `status` or 200). */
  rawBody?: string;
  contentType?: string;
  /** Answer `{ model, embeddings: <this> }` instead of the embedder's vectors. */
  embeddings?: unknown;
}

/** One behaviour for every embed request, or a list by embed request number (1-based). */
export type OllamaEmbedBehaviourPlan = OllamaEmbedBehaviour | readonly OllamaEmbedBehaviour[];

/** The vector for one input text. */
export type OllamaEmbedder = (text: string, model: string) => number[];

/** The dimensions of the default embedder's vectors. */
export const EMBED_DIMENSIONS = 16;

/**
 * The default embedder: the text's lower-cased words (runs of letters and digits) counted into
 * EMBED_DIMENSIONS buckets by an FNV-1a hash of each word. Deterministic; the same words, the same
 * vector; a text without words is the zero vector.
 */
export function hashedBagOfWords(text: string): number[] {
  const vector = new Array<number>(EMBED_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 0x811c9dc5;
    for (const character of word) {
      hash ^= character.codePointAt(0) ?? 0;
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    const bucket = hash % EMBED_DIMENSIONS;
    vector[bucket] = (vector[bucket] ?? 0) + 1;
  }
  return vector;
}

export const DEFAULT_EMBED_MODELS: readonly string[] = ["nomic-embed-text"];

/** Produces the assistant's answer text for a chat request (n is the 1-based chat number). */
export type OllamaResponder = (request: OllamaChatRequest, n: number) => string | Promise<string>;

/** One answer token with its log-probability and the alternatives at its position. */
export interface OllamaTokenLogprob {
  token: string;
  logprob: number;
  top_logprobs?: Array<{ token: string; logprob: number }>;
}

/** The tokens of `answer` with their log-probabilities, or undefined to send none. */
export type OllamaLogprobsResponder = (
  request: OllamaChatRequest,
  answer: string,
) => OllamaTokenLogprob[] | undefined;

export interface OllamaServerOptions {
  /** Port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /** Models that `/api/tags` lists and `/api/chat` accepts. Default: ["qwen2.5:7b-instruct"]. */
  models?: readonly string[];
  responder?: OllamaResponder;
  /** The answer's tokens with log-probabilities, for requests that ask for them. */
  logprobs?: OllamaLogprobsResponder;
  behaviour?: OllamaBehaviourPlan;
  /** Every request without exactly this `Authorization` header is answered 401. */
  requireAuthorization?: string;
  /** Models that `/api/embed` accepts. Default: ["nomic-embed-text"]. */
  embedModels?: readonly string[];
  /** The vector of each input (default: hashedBagOfWords). */
  embedder?: OllamaEmbedder;
  embedBehaviour?: OllamaEmbedBehaviourPlan;
  /**
   * The injection guard's answer (default CLEAN_GUARD_ANSWER; a responder gets the guard request
   * and its number among them), or "script": its prompts are chat requests like any other.
   */
  guard?: OllamaGuard;
}

/** How the double answers the injection guard's prompts. */
export type OllamaGuard = string | OllamaResponder | "script";

export interface OllamaServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** The parsed bodies of the chat requests, in order. */
  chatRequests(): OllamaChatRequest[];
  /** The parsed bodies of the embed requests, in order. */
  embedRequests(): OllamaEmbedRequest[];
  /** The injection guard's own chat requests, in order (not in chatRequests()). */
  guardRequests(): OllamaChatRequest[];
  setGuard(guard: OllamaGuard): void;
  setBehaviour(plan: OllamaBehaviourPlan): void;
  setEmbedBehaviour(plan: OllamaEmbedBehaviourPlan): void;
  setEmbedder(embedder: OllamaEmbedder): void;
  setResponder(responder: OllamaResponder): void;
  setLogprobs(logprobs: OllamaLogprobsResponder | undefined): void;
  /** Model requests (chat and embed) being answered now (received, response not yet closed). */
  readonly inFlight: number;
  /** The most model requests that were ever being answered at once. */
  readonly maxInFlight: number;
  /** Model requests waiting at the gate now. */
  readonly held: number;
  /** Chat requests whose client closed the connection before the answer ended. */
  readonly clientDisconnects: number;
  /** Lets the `count` longest-held requests go on (all of them by default). */
  release(count?: number): void;
  /** Resolves as soon as `condition` holds; checked now and after every change of the counts. */
  waitFor(condition: (server: OllamaServer) => boolean): Promise<void>;
  /** Stops listening, drops open (also hanging) connections and pending timers. */
  close(): Promise<void>;
}

/** The answer the default responder gives: a valid judge JSON object (the JSON judge contract). */
export const DEFAULT_JUDGE_ANSWER = JSON.stringify({
  score: 0.8,
  hits: ["States the objective clearly"],
  misses: ["Budget justification is thin"],
  reasoning: "The section covers the objective and method; the budget lacks detail.",
});

export const DEFAULT_OLLAMA_MODELS: readonly string[] = ["qwen2.5:7b-instruct"];

/** Rough token count used for the reported counts: whitespace-separated words. */
function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

/** Splits an answer into stream chunks: each word with its following whitespace. */
function splitIntoChunks(answer: string): string[] {
  return answer.match(/\s*\S+\s*/g) ?? [answer];
}

/**
 * The answer's tokens with their log-probabilities when the request asks for them and the test
 * gives them: alternatives cut to the `top_logprobs` asked; tokens that do not spell the answer
 * are a mistake of the test, thrown.
 */
function answerTokens(
  request: OllamaChatRequest,
  answer: string,
  logprobsOf: OllamaLogprobsResponder | undefined,
): OllamaTokenLogprob[] | undefined {
  if (request.logprobs !== true || logprobsOf === undefined) return undefined;
  const tokens = logprobsOf(request, answer);
  if (tokens === undefined) return undefined;
  if (tokens.map((each) => each.token).join("") !== answer) {
    throw new Error("the logprobs responder's tokens do not spell the answer");
  }
  const top = typeof request.top_logprobs === "number" ? request.top_logprobs : 0;
  return tokens.map((each) => ({ ...each, top_logprobs: (each.top_logprobs ?? []).slice(0, top) }));
}

/** Ollama resolves a name without a tag to `<name>:latest`. */
function findModel(models: readonly string[], requested: string): string | undefined {
  return models.find((name) => name === requested || name === `${requested}:latest`);
}

function tagsBody(models: readonly string[]): unknown {
  return {
    models: models.map((name, index) => {
      const family = name.split(/[:.\d]/)[0] || "llama";
      return {
        name,
        model: name,
        modified_at: new Date(Date.UTC(2025, 0, 1 + index)).toISOString(),
        size: 4_683_087_332 + index,
        digest: `${(index + 1).toString(16).padStart(4, "0")}${"a".repeat(60)}`,
        details: {
          parent_model: "",
          format: "gguf",
          family,
          families: [family],
          parameter_size: "7.6B",
          quantization_level: "Q4_K_M",
        },
      };
    }),
  };
}

function behaviourFor(
  plan: OllamaBehaviourPlan,
  n: number,
  request: OllamaChatRequest,
): OllamaBehaviour {
  if (typeof plan === "function") return plan(n, request);
  if (Array.isArray(plan)) return plan[n - 1] ?? {};
  return plan as OllamaBehaviour;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/** The request's headers as a proxy's debug page would print them. */
function headersText(req: IncomingMessage): string {
  return Object.entries(headersOf(req))
    .map(([name, value]) => `${name.replace(/(^|-)\w/g, (c) => c.toUpperCase())}: ${value}`)
    .join("\n");
}

function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

/** Starts the server; resolves once it listens. */
export async function startOllamaServer(options: OllamaServerOptions = {}): Promise<OllamaServer> {
  const models = options.models ?? DEFAULT_OLLAMA_MODELS;
  let responder: OllamaResponder = options.responder ?? (() => DEFAULT_JUDGE_ANSWER);
  let logprobsOf: OllamaLogprobsResponder | undefined = options.logprobs;
  let plan: OllamaBehaviourPlan = options.behaviour ?? {};
  const requests: RecordedRequest[] = [];
  const chatBodies: OllamaChatRequest[] = [];
  const guardBodies: OllamaChatRequest[] = [];
  let guard: OllamaGuard = options.guard ?? CLEAN_GUARD_ANSWER;
  const guardText = async (request: OllamaChatRequest, n: number): Promise<string> =>
    typeof guard === "function" ? await guard(request, n) : guard;
  const embedBodies: OllamaEmbedRequest[] = [];
  const embedModels = options.embedModels ?? DEFAULT_EMBED_MODELS;
  let embedder: OllamaEmbedder = options.embedder ?? hashedBagOfWords;
  let embedPlan: OllamaEmbedBehaviourPlan = options.embedBehaviour ?? {};
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  let inFlight = 0;
  let maxInFlight = 0;
  let clientDisconnects = 0;
  const gate: Array<() => void> = [];
  const watchers = new Set<() => void>();
  const changed = () => {
    for (const check of [...watchers]) check();
  };

  /** Waits until released, the client goes away, or the server closes. */
  const holdAtGate = (res: ServerResponse): Promise<void> =>
    new Promise((resolve) => {
      if (closed || res.destroyed) {
        resolve();
        return;
      }
      const go = () => {
        const at = gate.indexOf(go);
        if (at >= 0) gate.splice(at, 1);
        res.off("close", go);
        resolve();
        changed();
      };
      res.once("close", go);
      gate.push(go);
      changed();
    });

  /** Counts the request in flight until its response closes, and a client that gave up. */
  const trackInFlight = (res: ServerResponse, droppedByServer: () => boolean) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once("close", () => {
      inFlight -= 1;
      if (!res.writableFinished && !droppedByServer() && !closed) clientDisconnects += 1;
      changed();
    });
    changed();
  };

  /** A delay that close() cancels (the awaiting handler is then simply abandoned). */
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (ms <= 0) {
        resolve();
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const writeLine = (res: ServerResponse, value: unknown): boolean => {
    if (res.destroyed || res.writableEnded) return false;
    res.write(`${JSON.stringify(value)}\n`);
    return true;
  };

  /** A judging answer with the guard's screening line first, when the call asked for one. */
  async function screened(request: OllamaChatRequest, answer: string, n: number) {
    if (guard === "script" || !asksScreening(request.messages)) return answer;
    return withScreeningLine(answer, await guardText(request, n));
  }

  async function handleChat(
    req: IncomingMessage,
    res: ServerResponse,
    raw: unknown,
  ): Promise<void> {
    const parsed = ChatRequestSchema.safeParse(raw);
    if (!parsed.success) {
      sendJson(res, 400, {
        error: raw === undefined ? "missing request body" : "model is required",
      });
      return;
    }
    const request = parsed.data as OllamaChatRequest;
    const guardCall = guard !== "script" && isGuardCall(request.messages);
    (guardCall ? guardBodies : chatBodies).push(request);
    const n = guardCall ? guardBodies.length : chatBodies.length;
    const behaviour = guardCall ? {} : behaviourFor(plan, n, request);
    let droppedByServer = false;
    const drop = () => {
      droppedByServer = true;
      req.socket.destroy();
    };
    trackInFlight(res, () => droppedByServer);

    await sleep(behaviour.delayBeforeFirstByteMs ?? 0);
    if (closed) return;
    if (behaviour.hang) return;
    if (behaviour.hold === "before-response") await holdAtGate(res);
    if (closed || res.destroyed) return;
    if (behaviour.reset === "before-response") {
      drop();
      return;
    }
    if (behaviour.rawBody !== undefined) {
      res.writeHead(behaviour.status ?? 200, {
        "Content-Type": behaviour.contentType ?? "text/plain; charset=utf-8",
      });
      res.end(behaviour.rawBody);
      return;
    }
    if (behaviour.status !== undefined) {
      const headers: Record<string, string> =
        behaviour.retryAfter === undefined ? {} : { "Retry-After": String(behaviour.retryAfter) };
      const message = behaviour.errorMessage ?? `simulated status ${behaviour.status}`;
      sendJson(
        res,
        behaviour.status,
        { error: behaviour.echoHeaders ? `${message}\n${headersText(req)}` : message },
        headers,
      );
      return;
    }
    if (findModel(models, request.model) === undefined) {
      sendJson(res, 404, { error: `model "${request.model}" not found, try pulling it first` });
      return;
    }

    const answer = guardCall
      ? await guardText(request, n)
      : await screened(request, behaviour.answer ?? (await responder(request, n)), n);
    const tokens = answerTokens(request, answer, logprobsOf);
    const chunks = tokens?.map((each) => each.token) ?? splitIntoChunks(answer);
    const promptText = request.messages.map((message) => message.content).join("\n");
    const promptEvalCount = behaviour.promptEvalCount ?? Math.max(1, countWords(promptText));
    const evalCount = behaviour.evalCount ?? (answer === "" ? 0 : chunks.length);
    const stats = {
      total_duration: 1_250_000_000,
      load_duration: 25_000_000,
      prompt_eval_count: promptEvalCount,
      prompt_eval_duration: 400_000_000,
      eval_count: evalCount,
      eval_duration: 800_000_000,
    };
    const model = request.model;

    if (request.stream === false) {
      sendJson(res, 200, {
        model,
        created_at: new Date().toISOString(),
        message: { role: "assistant", content: answer },
        ...(tokens === undefined ? {} : { logprobs: tokens }),
        done_reason: "stop",
        done: true,
        ...stats,
      });
      return;
    }

    res.writeHead(200, { "Content-Type": "application/x-ndjson" });
    let index = 0;
    for (const content of answer === "" ? [] : chunks) {
      if (index > 0) await sleep(behaviour.delayBetweenChunksMs ?? 0);
      if (closed) return;
      const written = writeLine(res, {
        model,
        created_at: new Date().toISOString(),
        message: { role: "assistant", content },
        ...(tokens === undefined ? {} : { logprobs: [tokens[index]] }),
        done: false,
      });
      if (!written) return;
      index += 1;
      if (behaviour.reset === "mid-stream") {
        // Let the first chunk reach the client, then drop the connection.
        await sleep(5);
        drop();
        return;
      }
      if (behaviour.hold === "mid-stream" && index === 1) {
        await holdAtGate(res);
        if (closed || res.destroyed) return;
      }
    }
    if (index > 0) await sleep(behaviour.delayBetweenChunksMs ?? 0);
    if (closed) return;
    if (
      writeLine(res, {
        model,
        created_at: new Date().toISOString(),
        message: { role: "assistant", content: "" },
        done_reason: "stop",
        done: true,
        ...stats,
      })
    ) {
      res.end();
    }
  }

  async function handleEmbed(
    req: IncomingMessage,
    res: ServerResponse,
    raw: unknown,
  ): Promise<void> {
    const parsed = EmbedRequestSchema.safeParse(raw);
    if (!parsed.success) {
      sendJson(res, 400, { error: raw === undefined ? "missing request body" : "invalid input" });
      return;
    }
    const input = typeof parsed.data.input === "string" ? [parsed.data.input] : parsed.data.input;
    const request: OllamaEmbedRequest = { ...parsed.data, input };
    embedBodies.push(request);
    const behaviour: OllamaEmbedBehaviour = Array.isArray(embedPlan)
      ? (embedPlan[embedBodies.length - 1] ?? {})
      : (embedPlan as OllamaEmbedBehaviour);
    let droppedByServer = false;
    trackInFlight(res, () => droppedByServer);
    await sleep(behaviour.delayBeforeFirstByteMs ?? 0);
    if (closed || behaviour.hang) return;
    if (behaviour.hold) await holdAtGate(res);
    if (closed || res.destroyed) return;
    if (behaviour.reset) {
      droppedByServer = true;
      req.socket.destroy();
      return;
    }
    if (behaviour.rawBody !== undefined) {
      res.writeHead(behaviour.status ?? 200, {
        "Content-Type": behaviour.contentType ?? "text/plain; charset=utf-8",
      });
      res.end(behaviour.rawBody);
      return;
    }
    if (behaviour.status !== undefined) {
      sendJson(res, behaviour.status, {
        error: behaviour.errorMessage ?? `simulated status ${behaviour.status}`,
      });
      return;
    }
    if (findModel(embedModels, request.model) === undefined) {
      sendJson(res, 404, { error: `model "${request.model}" not found, try pulling it first` });
      return;
    }
    sendJson(res, 200, {
      model: request.model,
      embeddings: behaviour.embeddings ?? input.map((text) => embedder(text, request.model)),
      total_duration: 14_000_000,
      load_duration: 1_000_000,
      prompt_eval_count: input.reduce((sum, text) => sum + countWords(text), 0),
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on("error", () => {});
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const method = req.method ?? "GET";
    const raw = parseJson(await readBody(req));
    const headers = headersOf(req);
    requests.push({ method, path, body: raw, headers, receivedAt: Date.now() });
    const required = options.requireAuthorization;
    if (required !== undefined && headers.authorization !== required) {
      sendJson(res, 401, { error: "unauthorized" }, { "WWW-Authenticate": 'Basic realm="ollama"' });
      return;
    }

    if (method === "GET" && path === "/") {
      res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Ollama is running");
      return;
    }
    if (method === "GET" && path === "/api/version") {
      sendJson(res, 200, { version: "0.12.0" });
      return;
    }
    if (method === "GET" && path === "/api/tags") {
      sendJson(res, 200, tagsBody(models));
      return;
    }
    if (method === "POST" && path === "/api/chat") {
      await handleChat(req, res, raw);
      return;
    }
    if (method === "POST" && path === "/api/embed") {
      await handleEmbed(req, res, raw);
      return;
    }
    res.writeHead(404, { "Content-Type": "text/plain" });
    res.end("404 page not found");
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  const double: OllamaServer = {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    chatRequests: () => [...chatBodies],
    embedRequests: () => [...embedBodies],
    guardRequests: () => [...guardBodies],
    setGuard(next) {
      guard = next;
    },
    setEmbedBehaviour(next) {
      embedPlan = next;
    },
    setEmbedder(next) {
      embedder = next;
    },
    setBehaviour(next) {
      plan = next;
    },
    setResponder(next) {
      responder = next;
    },
    setLogprobs(next) {
      logprobsOf = next;
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get held() {
      return gate.length;
    },
    get clientDisconnects() {
      return clientDisconnects;
    },
    release(count = Number.POSITIVE_INFINITY) {
      for (let left = count; left > 0 && gate.length > 0; left -= 1) gate[0]?.();
    },
    waitFor(condition) {
      if (condition(double)) return Promise.resolve();
      return new Promise((resolve) => {
        const check = () => {
          if (!condition(double)) return;
          watchers.delete(check);
          resolve();
        };
        watchers.add(check);
      });
    },
    close() {
      closed = true;
      for (const go of [...gate]) go();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
    },
  };
  return double;
}

const ScriptFileSchema = z.union([
  z.array(z.string()).min(1),
  z.object({
    models: z.array(z.string()).min(1).optional(),
    answers: z.array(z.string()).min(1),
  }),
]);

/** Thrown by the standalone entry point for a bad command line or script file. */
export class OllamaServerScriptError extends Error {
  constructor(
    readonly location: string,
    message: string,
  ) {
    super(`${location}: ${message}`);
    this.name = "OllamaServerScriptError";
  }
}

/** Builds server options from standalone arguments (`--port`, `--script`, `--models`). */
export async function optionsFromArgs(args: readonly string[]): Promise<OllamaServerOptions> {
  const value = (flag: string): string | undefined => {
    const at = args.indexOf(flag);
    if (at === -1) return undefined;
    const next = args[at + 1];
    if (next === undefined || next.startsWith("--")) {
      throw new OllamaServerScriptError("command line", `${flag} needs a value`);
    }
    return next;
  };
  const options: OllamaServerOptions = {};
  const port = value("--port");
  if (port !== undefined) {
    const parsed = Number(port);
    if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) {
      throw new OllamaServerScriptError("command line", `--port must be 0–65535, got "${port}"`);
    }
    options.port = parsed;
  }
  const models = value("--models");
  if (models !== undefined) options.models = models.split(",").filter((name) => name !== "");
  const scriptPath = value("--script");
  if (scriptPath !== undefined) {
    const text = await readFile(scriptPath, "utf8");
    const parsed = ScriptFileSchema.safeParse(parseJson(text));
    if (!parsed.success) {
      throw new OllamaServerScriptError(
        scriptPath,
        'expected a JSON array of answers or { "models"?: [...], "answers": [...] }',
      );
    }
    const script = parsed.data;
    const answers = Array.isArray(script) ? script : script.answers;
    if (!Array.isArray(script) && script.models && models === undefined) {
      options.models = script.models;
    }
    options.responder = (_request, n) => answers[Math.min(n, answers.length) - 1] ?? "";
  }
  return options;
}

async function main(): Promise<void> {
  const server = await startOllamaServer(await optionsFromArgs(process.argv.slice(2)));
  process.stdout.write(`listening ${server.url}\n`);
  const stop = () => {
    server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
