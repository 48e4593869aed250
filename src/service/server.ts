/** Serves the review service over HTTP; `close()` ends event streams, lets requests finish, closes the desk. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { ReviewDesk } from "../desk/reviewDesk.js";
import { createServiceApp, type ServiceAppOptions } from "./app.js";

export interface ServiceOptions extends Omit<ServiceAppOptions, "desk"> {
  desk: ReviewDesk;
  host: string;
  /** 0 picks a free port (tests). */
  port: number;
  /** How long in-flight requests get at shutdown before their connections are cut. */
  graceMs?: number;
}

export interface RunningService {
  url: string;
  /** Shuts down the server, then closes the desk. Safe to call more than once. */
  close(): Promise<void>;
}

function listen(
  options: ServiceOptions,
  fetch: (request: Request) => Response | Promise<Response>,
) {
  return new Promise<{ server: Server; address: AddressInfo }>((resolve, reject) => {
    const server = serve({ fetch, hostname: options.host, port: options.port }, (address) =>
      resolve({ server: server as Server, address }),
    ) as Server;
    server.once("error", reject);
  });
}

function stopServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const shutdown = new AbortController();
  const app = createServiceApp({
    ...options,
    events: { ...options.events, shutdown: shutdown.signal },
  });
  const { server, address } = await listen(options, app.fetch);
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    close() {
      closing ??= (async () => {
        shutdown.abort();
        await stopServer(server, options.graceMs ?? 10_000);
        await options.desk.close();
      })();
      return closing;
    },
  };
}
