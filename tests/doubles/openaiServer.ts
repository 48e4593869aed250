/**
 * An HTTP server on 127.0.0.1 that speaks the OpenAI chat-completions protocol as vLLM,
 * llama.cpp's server and LM Studio serve it, for testing the real ChatOpenAI wiring of
 * OpenAI-compatible judges without a model:
 *
 * - `POST /v1/chat/completions` → one `chat.completion` object (`choices[0].message.content`,
 *   `finish_reason: "stop"`, `usage` with word counts as tokens); an unknown model answers 404;
 * - `GET /v1/models` → the model list;
 * - `GET /props` → `{ total_slots }` when `totalSlots` is given (llama.cpp's server), else 404
 *   (vLLM has no such route).
 *
 * Faults per chat request (`behaviour`): an HTTP status with an OpenAI error body, a reset
 * connection, or a hold at the gate until `release()`. Every request is recorded with its
 * headers; concurrency is counted (`inFlight`, `maxInFlight`, `held`), never clocked.
 *
 * Token log-probabilities: when a chat request asks for them (`logprobs: true`, `top_logprobs:
 * N`) and a `logprobs` responder gives the answer's tokens (their texts joined must be the
 * answer), the choice carries `logprobs: { content: [{ token, logprob, bytes, top_logprobs }] }`
 * with at most N alternatives per token, as vLLM and llama.cpp's server answer; otherwise
 * `logprobs: null`. Answers are never streamed (the judge asks with `stream: false`).
 *
 * The injection guard's prompts are answered as in the Ollama-protocol stand-in (guardAnswers.ts):
 * its own call gets `guard` (default "no injection") without a behaviour or a chat number, listed
 * in `guardRequests()`; a judging call that carries its question gets it as the screening line
 * first; `guard: "script"` makes them chat requests like any other.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import {
  asksScreening,
  CLEAN_GUARD_ANSWER,
  isGuardCall,
  withScreeningLine,
} from "./guardAnswers.js";

export interface OpenAiChatRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  [key: string]: unknown;
}

export interface OpenAiBehaviour {
  status?: number;
  errorMessage?: string;
  /** Destroy the socket before answering. */
  reset?: boolean;
  /** Wait at the gate until `release()`. */
  hold?: boolean;
}

/** One answer token as the OpenAI protocol carries it (`bytes` is added by the stand-in). */
export interface OpenAiTokenLogprob {
  token: string;
  logprob: number;
  top_logprobs?: Array<{ token: string; logprob: number }>;
}

/** The answer's tokens for a request that asked for log-probabilities; undefined: none given. */
export type OpenAiLogprobsResponder = (
  request: OpenAiChatRequest,
  answer: string,
) => OpenAiTokenLogprob[] | undefined;

export interface OpenAiServerOptions {
  models?: readonly string[];
  /** What `/props` says; absent: `/props` answers 404. */
  totalSlots?: number;
  responder?: (request: OpenAiChatRequest, n: number) => string;
  behaviour?: OpenAiBehaviour | ((n: number, request: OpenAiChatRequest) => OpenAiBehaviour);
  /** The answer's tokens with their log-probabilities, for requests that ask for them. */
  logprobs?: OpenAiLogprobsResponder;
  /** The injection guard's answer (default CLEAN_GUARD_ANSWER), or "script" (see above). */
  guard?: string | "script";
}

export interface RecordedOpenAiRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

export interface OpenAiServer {
  /** `http://127.0.0.1:<port>/v1`: the base URL a client is given. */
  url: string;
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  requests: RecordedOpenAiRequest[];
  chatRequests(): OpenAiChatRequest[];
  /** The injection guard's own chat requests (not in chatRequests()). */
  guardRequests(): OpenAiChatRequest[];
  readonly inFlight: number;
  readonly maxInFlight: number;
  readonly held: number;
  release(count?: number): void;
  setBehaviour(behaviour: NonNullable<OpenAiServerOptions["behaviour"]>): void;
  waitFor(condition: (server: OpenAiServer) => boolean): Promise<void>;
  close(): Promise<void>;
}

/**
 * The choice's `logprobs` field: the tokens (alternatives cut to the `top_logprobs` asked) when
 * the request asks and the test gives them, else null. Tokens that do not spell the answer are a
 * mistake of the test, thrown.
 */
function choiceLogprobs(
  request: OpenAiChatRequest,
  answer: string,
  logprobsOf: OpenAiLogprobsResponder | undefined,
): { content: unknown[] } | null {
  if (request.logprobs !== true || logprobsOf === undefined) return null;
  const tokens = logprobsOf(request, answer);
  if (tokens === undefined) return null;
  if (tokens.map((each) => each.token).join("") !== answer) {
    throw new Error("the logprobs responder's tokens do not spell the answer");
  }
  const top = typeof request.top_logprobs === "number" ? request.top_logprobs : 0;
  const bytes = (token: string) => [...Buffer.from(token, "utf8")];
  return {
    content: tokens.map((each) => ({
      token: each.token,
      logprob: each.logprob,
      bytes: bytes(each.token),
      top_logprobs: (each.top_logprobs ?? [])
        .slice(0, top)
        .map((alt) => ({ ...alt, bytes: bytes(alt.token) })),
    })),
  };
}

const words = (text: string) => text.split(/\s+/).filter((w) => w !== "").length;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed || res.writableEnded) return;
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function headersOf(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
  );
}

export async function startOpenAiServer(options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const models = options.models ?? ["judge-model"];
  const responder = options.responder ?? (() => '{"reasoning": "Fine.", "score": 0.5}');
  let behaviour = options.behaviour ?? {};
  const requests: RecordedOpenAiRequest[] = [];
  const chats: OpenAiChatRequest[] = [];
  const guardChats: OpenAiChatRequest[] = [];
  const guard = options.guard ?? CLEAN_GUARD_ANSWER;
  const sockets = new Set<Socket>();
  const gate: Array<() => void> = [];
  const watchers = new Set<() => void>();
  let inFlight = 0;
  let maxInFlight = 0;
  const changed = () => {
    for (const watch of [...watchers]) watch();
  };

  async function chat(req: IncomingMessage, res: ServerResponse, request: OpenAiChatRequest) {
    const guardCall = guard !== "script" && isGuardCall(request.messages);
    (guardCall ? guardChats : chats).push(request);
    const n = guardCall ? guardChats.length : chats.length;
    const plan = guardCall
      ? {}
      : typeof behaviour === "function"
        ? behaviour(n, request)
        : behaviour;
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once("close", () => {
      inFlight -= 1;
      changed();
    });
    changed();
    if (plan.hold) {
      await new Promise<void>((resolve) => {
        const go = () => {
          const at = gate.indexOf(go);
          if (at >= 0) gate.splice(at, 1);
          resolve();
          changed();
        };
        res.once("close", go);
        gate.push(go);
        changed();
      });
    }
    if (res.destroyed) return;
    if (plan.reset) {
      req.socket.destroy();
      return;
    }
    if (plan.status !== undefined) {
      const message = plan.errorMessage ?? `simulated status ${plan.status}`;
      sendJson(res, plan.status, { error: { message, type: "server_error", code: null } });
      return;
    }
    if (!models.includes(request.model)) {
      sendJson(res, 404, { error: { message: `The model \`${request.model}\` does not exist.` } });
      return;
    }
    const answer = guardCall ? guard : responder(request, n);
    const content =
      guard !== "script" && !guardCall && asksScreening(request.messages)
        ? withScreeningLine(answer, guard)
        : answer;
    const prompt = request.messages.map((m) => m.content).join(" ");
    sendJson(res, 200, {
      id: `chatcmpl-${n}`,
      object: "chat.completion",
      created: 1_735_689_600,
      model: request.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content },
          finish_reason: "stop",
          logprobs: choiceLogprobs(request, content, options.logprobs),
        },
      ],
      usage: {
        prompt_tokens: words(prompt),
        completion_tokens: words(content),
        total_tokens: words(prompt) + words(content),
      },
    });
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const text = await readText(req);
    let body: unknown;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    requests.push({ method: req.method ?? "", path, body, headers: headersOf(req) });
    if (req.method === "GET" && path === "/props") {
      if (options.totalSlots === undefined) sendJson(res, 404, { error: "Not Found" });
      else sendJson(res, 200, { total_slots: options.totalSlots, model_path: "/models/j.gguf" });
    } else if (req.method === "GET" && path === "/v1/models") {
      sendJson(res, 200, { object: "list", data: models.map((id) => ({ id, object: "model" })) });
    } else if (req.method === "POST" && path === "/v1/chat/completions") {
      await chat(req, res, body as OpenAiChatRequest);
    } else {
      sendJson(res, 404, { error: { message: `no route ${req.method} ${path}` } });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const self: OpenAiServer = {
    url: `${origin}/v1`,
    origin,
    requests,
    chatRequests: () => [...chats],
    guardRequests: () => [...guardChats],
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get held() {
      return gate.length;
    },
    release(count = Number.POSITIVE_INFINITY) {
      for (const go of gate.slice(0, count)) go();
    },
    setBehaviour(next) {
      behaviour = next;
    },
    waitFor(condition) {
      return new Promise((resolve) => {
        const check = () => {
          if (!condition(self)) return;
          watchers.delete(check);
          resolve();
        };
        watchers.add(check);
        check();
      });
    },
    close() {
      return new Promise((resolve) => {
        for (const go of [...gate]) go();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
  return self;
}
