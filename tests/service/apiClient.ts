/** JSON requests to the service's API through `app.request()`, as a bearer-token client sends them. */
import type { Hono } from "hono";
import type { ServiceEnv } from "../../src/service/env.js";

export interface ApiAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

export function apiClient(app: Hono<ServiceEnv>) {
  async function send(method: string, path: string, token?: string, body?: unknown, raw?: string) {
    const headers: Record<string, string> = {};
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (body !== undefined || raw !== undefined) headers["content-type"] = "application/json";
    const response = await app.request(`http://127.0.0.1${path}`, {
      method,
      headers,
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    const type = response.headers.get("content-type") ?? "";
    const parsed: unknown = type.includes("json") ? JSON.parse(text) : text;
    return { status: response.status, body: parsed, headers: response.headers } as ApiAnswer;
  }
  return {
    get: (path: string, token?: string) => send("GET", path, token),
    post: (path: string, token: string | undefined, body: unknown) =>
      send("POST", path, token, body),
    postRaw: (path: string, token: string, raw: string) =>
      send("POST", path, token, undefined, raw),
  };
}

/** The `error` of an error answer. */
export function errorOf(answer: ApiAnswer): {
  code: string;
  message: string;
  field?: string;
  decidedBy?: string;
  decidedAt?: string;
} {
  return (answer.body as { error: { code: string; message: string } }).error;
}
