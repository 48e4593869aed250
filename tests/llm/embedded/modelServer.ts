/**
 * A model file server on 127.0.0.1 for the downloader's tests: serves one file, honours Range
 * requests, and can cut the connection after some bytes, stall, or answer 404 — and counts what
 * it was asked.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ModelServerBehaviour {
  /** Close the connection after this many body bytes, on the first request only. */
  cutAfterBytes?: number;
  /** Send this many bytes, then nothing more (never end) on every request. */
  stallAfterBytes?: number;
  /** Answer 404 to every request. */
  notFound?: boolean;
  /** Ignore Range headers (answer 200 with the whole file). */
  noRanges?: boolean;
}

export interface ModelServer {
  url: string;
  /** Requests seen: the Range header of each ("" when none). */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startModelServer(
  body: Buffer,
  behaviour: ModelServerBehaviour = {},
): Promise<ModelServer> {
  const requests: string[] = [];
  const open = new Set<ServerResponse>();
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const range = request.headers.range ?? "";
    requests.push(range);
    if (behaviour.notFound) {
      response.writeHead(404).end("not found");
      return;
    }
    const match = /^bytes=(\d+)-$/.exec(range);
    const start = match && !behaviour.noRanges ? Number(match[1]) : 0;
    const part = body.subarray(start);
    response.writeHead(start > 0 ? 206 : 200, {
      "content-length": String(part.length),
      "content-type": "application/octet-stream",
      ...(start > 0 ? { "content-range": `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    const first = requests.length === 1;
    if (behaviour.cutAfterBytes !== undefined && first) {
      response.write(part.subarray(0, behaviour.cutAfterBytes), () => {
        response.socket?.destroy();
      });
      return;
    }
    if (behaviour.stallAfterBytes !== undefined) {
      open.add(response);
      response.write(part.subarray(0, behaviour.stallAfterBytes));
      return;
    }
    response.end(part);
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/models/tiny.gguf`,
    requests,
    close: () =>
      new Promise((resolve) => {
        for (const response of open) response.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
