/**
 * Runs `langgraph dev` (the LangGraph CLI's in-memory API server, the one Studio talks to) for a
 * test, on 127.0.0.1 and a free port, offline (no analytics, no tracing, no browser).
 *
 * The server reads this repository's langgraph.json; it is started from a copy of it in a
 * temporary folder whose graph paths point back here, so the server's own files
 * (`.langgraph_api/`, and a `.gitignore` the CLI writes when it finds none) stay in that folder
 * and every test run starts with empty storage. `stop()` ends the whole process group (npm-less:
 * the CLI, its `tsx watch` and the server itself) and removes the folder.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { PACKAGE_ROOT } from "../../src/graph/proposalConfig.js";

/** The dev server did not come up, or did not go down. */
export class DevServerError extends Error {
  override readonly name = "DevServerError";
}

export interface DevServerOptions {
  /** Added to the server's environment (OLLAMA_BASE_URL, EVALGATE_MODEL, …). */
  env: Record<string, string>;
  /** How long to wait for `/ok` (default 90 s). */
  startTimeoutMs?: number;
}

export interface DevServer {
  url: string;
  port: number;
  /** From spawning the CLI to the first `/ok` answer. */
  startupMs: number;
  /** The graph ids the server was given (the repository's langgraph.json). */
  graphIds: string[];
  /** Everything the CLI and the server printed so far. */
  output(): string;
  /** Waits until `/ok` answers (after a restart of the watcher, for example). */
  waitUntilReady(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** The CLI's `langgraphjs` executable, as its package.json names it (what npx runs). */
function cliEntry(): string {
  const manifest = createRequire(import.meta.url).resolve("@langchain/langgraph-cli/package.json");
  const { bin } = z
    .object({ bin: z.object({ langgraphjs: z.string() }) })
    .parse(JSON.parse(readFileSync(manifest, "utf8")));
  return resolve(dirname(manifest), bin.langgraphjs);
}

const CONFIG = resolve(PACKAGE_ROOT, "langgraph.json");

const ConfigSchema = z.looseObject({
  graphs: z.record(z.string(), z.union([z.string(), z.looseObject({ path: z.string() })])),
  env: z.union([z.string(), z.record(z.string(), z.string())]).optional(),
});

/**
 * The repository's langgraph.json for a config in `folder`: every graph path rewritten relative
 * to that folder. (Relative, not absolute: the API server's preload joins the config folder and
 * the first graph's path to find @langchain/langgraph, so an absolute path breaks it.)
 */
function relocatedConfig(folder: string): { text: string; graphIds: string[] } {
  const config = ConfigSchema.parse(JSON.parse(readFileSync(CONFIG, "utf8")));
  const moved = (spec: string) => {
    const [file = "", symbol] = spec.split(":", 2);
    const path = relative(folder, resolve(PACKAGE_ROOT, file));
    return symbol === undefined ? path : `${path}:${symbol}`;
  };
  const graphs = Object.fromEntries(
    Object.entries(config.graphs).map(([id, spec]) => [
      id,
      typeof spec === "string" ? moved(spec) : { ...spec, path: moved(spec.path) },
    ]),
  );
  const env = typeof config.env === "string" ? resolve(PACKAGE_ROOT, config.env) : config.env;
  return {
    text: JSON.stringify({ ...config, graphs, ...(env === undefined ? {} : { env }) }, null, 2),
    graphIds: Object.keys(graphs),
  };
}

/** A port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** The environment the server gets: ours, without tracing, plus the test's variables. */
function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(LANGSMITH_|LANGCHAIN_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, LANGGRAPH_CLI_NO_ANALYTICS: "1", BROWSER: "none", ...extra };
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function endGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup("SIGTERM");
  const deadline = Date.now() + 8_000;
  while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(pid)) {
    signalGroup("SIGKILL");
    const killDeadline = Date.now() + 5_000;
    while (groupAlive(pid) && Date.now() < killDeadline) await sleep(100);
    if (groupAlive(pid)) throw new DevServerError(`process group ${pid} survived SIGKILL`);
  }
}

async function answersOk(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/ok`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

/** Starts `langgraph dev` and resolves once it answers `/ok`. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const folder = mkdtempSync(join(tmpdir(), "evalgate-devserver-"));
  const { text, graphIds } = relocatedConfig(folder);
  const configFile = join(folder, "langgraph.json");
  writeFileSync(configFile, text);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [
      cliEntry(),
      "dev",
      "--no-browser",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--config",
      configFile,
    ],
    {
      cwd: PACKAGE_ROOT,
      env: serverEnv(options.env),
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let printed = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    printed += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    printed += chunk.toString("utf8");
  });
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });

  // Should the test process end without stop() (an interrupted run), take the server along.
  const killOnExit = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };
  process.once("exit", killOnExit);
  const stop = async () => {
    try {
      await endGroup(child);
    } finally {
      process.off("exit", killOnExit);
      rmSync(folder, { recursive: true, force: true });
    }
  };
  const waitUntilReady = async (timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    const from = printed.length;
    while (Date.now() < deadline) {
      // A crashed server leaves `tsx watch` waiting for a change; Node's crash report ends so.
      if (exited !== undefined || /^Node\.js v\d+/m.test(printed.slice(from))) {
        throw new DevServerError(
          `langgraph dev failed before answering (exit code ${exited ?? "none: crashed under tsx watch"}):\n${printed}`,
        );
      }
      if (await answersOk(url)) return;
      await sleep(250);
    }
    throw new DevServerError(
      `langgraph dev did not answer ${url}/ok within ${timeoutMs} ms:\n${printed}`,
    );
  };

  try {
    await waitUntilReady(options.startTimeoutMs ?? 90_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url,
    port,
    startupMs: Date.now() - started,
    graphIds,
    output: () => printed,
    waitUntilReady,
    stop,
  };
}
