/**
 * `evalgate serve` as a real process (the compiled bin, as an installed package runs it) for the
 * replica, restart and soak tests and bench/decisions.ts, and a JSON client of its API that
 * counts what it got back.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  kill(): Promise<void>;
  /** SIGTERM, then waits for the exit code. */
  stop(): Promise<number | null>;
}

export interface ServeOptions {
  /** `--database-url` or `--db`. */
  database: string;
  /** The Ollama-protocol server the model is asked at. */
  ollamaUrl: string;
  model: string;
  /** The repository whose bin/evalgate.mjs runs (default: this one). */
  root?: string;
  env?: NodeJS.ProcessEnv;
}

/** Starts `evalgate serve --port 0` and resolves once it says where it listens. */
export async function startServe(options: ServeOptions): Promise<ServeProcess> {
  const bin = join(options.root ?? ROOT, "bin/evalgate.mjs");
  const store = /^postgres(ql)?:/.test(options.database)
    ? ["--database-url", options.database]
    : ["--db", options.database];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OLLAMA_BASE_URL: options.ollamaUrl,
    EVALGATE_SESSION_SECRET: "replicas share this secret",
    ...options.env,
  };
  delete env.DATABASE_URL;
  const args = [bin, "serve", "--port", "0", "-m", `ollama:${options.model}`, ...store];
  const child = spawn(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    if (stderr.length > 200_000) stderr = stderr.slice(-100_000);
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /review service on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then((code) =>
      reject(new Error(`serve exited (${code}) before listening:\n${stderr}`)),
    );
  });
  return {
    url,
    child,
    stderr: () => stderr,
    alive: () => child.exitCode === null && child.signalCode === null,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill("SIGTERM");
      return exited;
    },
  };
}

export interface ApiReply {
  status: number;
  body: unknown;
  retryAfter: string | null;
}

/** One JSON request to a replica's API with a bearer token. */
export async function callApi(
  base: string,
  token: string,
  method: "GET" | "POST",
  path: string,
  body?: unknown,
): Promise<ApiReply> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body: parsed, retryAfter: response.headers.get("retry-after") };
}

/** The error code of an error reply (undefined for any other). */
export function errorCode(reply: ApiReply): string | undefined {
  const error = (reply.body as { error?: { code?: unknown } } | null)?.error;
  return typeof error?.code === "string" ? error.code : undefined;
}
