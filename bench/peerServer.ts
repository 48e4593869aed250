/**
 * The peer benchmark's server: an HTTP server on 127.0.0.1 speaking the Ollama protocol as
 * ChatOllama uses it (`POST /api/chat`, NDJSON streaming or one JSON object with `stream: false`;
 * `GET /api/tags`, `/api/version`, `/`), with the latency of a local model server:
 *
 *   service = fixedMs + perPromptTokenMs × prompt tokens not in the slot's cache
 *             + perOutputTokenMs × output tokens
 *
 * on N slots with a FIFO queue and a per-slot prefix cache (bench/peerSlots.ts). Tokens are o200k
 * (gpt-tokenizer) of the prompt as a chat template lays it out: each message as a `### role` line
 * and its text, then `### assistant`. Answers come from bench/peerAnswers.ts. Every chat request is
 * recorded: times, slot, prompt tokens, cached and paid prefill tokens, output tokens.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { type PeerAnswer, peerAnswer } from "./peerAnswers.js";
import { type PrefixLatency, PrefixSlots, prefixServiceMs } from "./peerSlots.js";

/** One chat request as the server served it; times in ms since the server's epoch. */
export interface PeerCallRecord {
  purpose: PeerAnswer["purpose"];
  arrivalMs: number;
  startMs: number;
  endMs: number;
  queueWaitMs: number;
  slot: number;
  /** The modelled service time. */
  serviceMs: number;
  promptTokens: number;
  cachedTokens: number;
  prefillTokens: number;
  outputTokens: number;
  /** The request asked for a stream (ChatOllama always does). */
  stream: boolean;
}

export interface PeerServerOptions extends PrefixLatency {
  slots: number;
  /** The model name /api/tags lists and /api/chat accepts. */
  model?: string;
}

export interface PeerServer {
  url: string;
  readonly records: PeerCallRecord[];
  readonly slots: PrefixSlots;
  /** Forgets the records and every slot's cache, and restarts the clock. */
  reset(): void;
  /** Serves the next requests with this latency (a warm-up at zero latency). */
  setLatency(latency: PrefixLatency): void;
  close(): Promise<void>;
}

interface WireMessage {
  role: string;
  content: string;
}

/** The prompt's tokens as the modelled chat template lays the messages out. */
export function promptTokens(messages: readonly WireMessage[]): number[] {
  const text = messages.map((m) => `### ${m.role}\n${m.content}\n`).join("") + "### assistant\n";
  return encode(text);
}

/** A wait that Node's early timers do not cut short. */
function sleep(ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  return new Promise((resolve) => {
    const arm = (left: number) => {
      setTimeout(() => {
        const rest = deadline - performance.now();
        if (rest > 0.05) arm(rest);
        else resolve();
      }, left);
    };
    if (ms <= 0) resolve();
    else arm(ms);
  });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text.trim() === "" ? undefined : JSON.parse(text);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

interface ChatBody {
  model?: string;
  messages?: WireMessage[];
  stream?: boolean;
  format?: unknown;
}

/** The final NDJSON line (or the whole answer without streaming): done, with the counts. */
function doneFields(record: PeerCallRecord) {
  return {
    done: true,
    done_reason: "stop",
    total_duration: Math.round(record.serviceMs * 1e6),
    load_duration: 0,
    prompt_eval_count: record.promptTokens,
    prompt_eval_duration: Math.round((record.serviceMs / 2) * 1e6),
    eval_count: record.outputTokens,
    eval_duration: Math.round((record.serviceMs / 2) * 1e6),
  };
}

export async function startPeerServer(options: PeerServerOptions): Promise<PeerServer> {
  const model = options.model ?? "qwen2.5:7b-instruct";
  let epoch = performance.now();
  const now = () => performance.now() - epoch;
  const slots = new PrefixSlots(options.slots, now);
  const records: PeerCallRecord[] = [];
  let latency: PrefixLatency = { ...options };
  const sockets = new Set<Socket>();

  async function serve(body: ChatBody, res: ServerResponse): Promise<void> {
    const messages = (body.messages ?? []).map((m) => ({ role: m.role, content: m.content ?? "" }));
    const arrivalMs = now();
    const answer = peerAnswer(
      messages.map((m) => ({ role: m.role, text: m.content })),
      body.format,
    );
    const prompt = promptTokens(messages);
    const output = encode(answer.text);
    const grant = await slots.acquire(prompt);
    const serviceMs = prefixServiceMs(latency, grant.prefillTokens, output.length);
    await sleep(serviceMs);
    const record: PeerCallRecord = {
      purpose: answer.purpose,
      arrivalMs,
      startMs: grant.startMs,
      endMs: now(),
      queueWaitMs: grant.queueWaitMs,
      slot: grant.slot,
      serviceMs,
      promptTokens: prompt.length,
      cachedTokens: grant.cachedTokens,
      prefillTokens: grant.prefillTokens,
      outputTokens: output.length,
      stream: body.stream !== false,
    };
    records.push(record);
    slots.release(grant.slot, [...prompt, ...output]);
    const created_at = new Date().toISOString();
    if (body.stream === false) {
      const message = { role: "assistant", content: answer.text };
      sendJson(res, 200, { model, created_at, message, ...doneFields(record) });
      return;
    }
    res.writeHead(200, { "Content-Type": "application/x-ndjson" });
    const line = (value: unknown) => res.write(`${JSON.stringify(value)}\n`);
    for (const piece of answer.text.match(/[\s\S]{1,64}/g) ?? []) {
      line({ model, created_at, message: { role: "assistant", content: piece }, done: false });
    }
    line({ model, created_at, message: { role: "assistant", content: "" }, ...doneFields(record) });
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const body = (await readJson(req)) as ChatBody | undefined;
    if (req.method === "GET" && path === "/") {
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("Ollama is running");
    } else if (req.method === "GET" && path === "/api/version") {
      sendJson(res, 200, { version: "0.12.0" });
    } else if (req.method === "GET" && path === "/api/tags") {
      sendJson(res, 200, { models: [{ name: model, model, size: 4_683_087_332 }] });
    } else if (req.method === "POST" && path === "/api/chat") {
      if (body?.model !== model && body?.model !== `${model}:latest`) {
        sendJson(res, 404, { error: `model "${body?.model}" not found, try pulling it first` });
        return;
      }
      await serve(body, res);
    } else {
      res.writeHead(404, { "Content-Type": "text/plain" });
      res.end("404 page not found");
    }
  }

  const server = createServer((req, res) => {
    res.on("error", () => {});
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    records,
    slots,
    reset() {
      records.length = 0;
      slots.clear();
      epoch = performance.now();
    },
    setLatency(next) {
      latency = { ...next };
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
