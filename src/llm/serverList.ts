/**
 * The model servers of a judge: URLs separated by commas (OLLAMA_BASE_URL, `baseUrl`, after a
 * spec's `@`), each with an optional `#slots=N`; the `servers` option's entries are such URLs,
 * `provider:model@url` specs or objects. A server's address: the URL requests go to (never with
 * credentials: fetch refuses them), the key naming the server whatever its URL's spelling, and the
 * URL's credentials as an `Authorization: Basic` header that never appears in a message, a trace
 * or JSON.
 */
import { inspect } from "node:util";
import { z } from "zod";
import { redactSecretText } from "../redact.js";
import { ModelOptionsError, ModelSpecError } from "./errors.js";
import { POOL_PROVIDERS, type PoolProvider, parseModelSpec } from "./spec.js";

export const MAX_IN_FLIGHT_LIMIT = 256;
const MAX_URL_LENGTH = 2_048;

/** An `Authorization` header value, kept out of JSON, inspection and string conversion. */
export class ServerAuthorization {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  headerValue(): string {
    return this.#value;
  }

  toJSON(): string {
    return "***";
  }

  toString(): string {
    return "***";
  }

  [inspect.custom](): string {
    return "ServerAuthorization(***)";
  }
}

export interface ServerAddress {
  readonly url: string;
  /** The key of its ceiling and health: `http://localhost:11434/` and `http://127.1:11434` are one. */
  readonly key: string;
  readonly shown: string;
  readonly authorization: ServerAuthorization | undefined;
}

/** Every spelling of this machine's loopback is one server. */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "0.0.0.0", "::"]);
const DEFAULT_PORTS: Readonly<Record<string, string>> = { "http:": "80", "https:": "443" };

/** `::ffff:7f00:1` (how the URL parser writes `::ffff:127.0.0.1`) → `127.0.0.1`. */
function mappedIpv4(ipv6: string): string | undefined {
  const match = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ipv6);
  if (match === null) return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ipv6)?.[1];
  const high = Number.parseInt(match[1] ?? "0", 16);
  const low = Number.parseInt(match[2] ?? "0", 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/**
 * The WHATWG parser already lowercases the host, reads `127.1` and `2130706433` as `127.0.0.1` and
 * drops a default port; here the port is always written, a trailing dot dropped, a mapped IPv6
 * address is its IPv4 one and loopback is `loopback`.
 */
function serverKeyOfUrl(url: URL, path: string): string {
  let host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") && host.endsWith("]")) {
    const inner = host.slice(1, -1);
    host = mappedIpv4(inner) ?? inner;
  }
  if (LOOPBACK.has(host) || host.endsWith(".localhost")) host = "loopback";
  else if (host.includes(":")) host = `[${host}]`;
  const port = url.port === "" ? (DEFAULT_PORTS[url.protocol] ?? "") : url.port;
  return `${url.protocol}//${host}:${port}${path}`;
}

function basicAuthorization(url: URL): ServerAuthorization | undefined {
  if (url.username === "" && url.password === "") return undefined;
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part;
    }
  };
  const pair = `${decode(url.username)}:${decode(url.password)}`;
  return new ServerAuthorization(`Basic ${Buffer.from(pair, "utf8").toString("base64")}`);
}

export function parseServerAddress(raw: string, option: string): ServerAddress {
  const text = raw.trim();
  const refuse = (why: string) =>
    new ModelOptionsError(option, `${why} (got "${redactSecretText(text.slice(0, 200))}")`);
  if (text.length > MAX_URL_LENGTH) {
    throw refuse(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse("expected an http:// or https:// URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw refuse("expected an http:// or https:// URL");
  }
  // Requests go to the URL's path: a query would silently not be sent.
  if (url.search !== "") throw refuse("a server URL takes no query (?…)");
  const path = url.pathname.replace(/\/+$/, "");
  const authorization = basicAuthorization(url);
  const credentials = authorization === undefined ? "" : "***@";
  return {
    url: `${url.protocol}//${url.host}${path}`,
    key: serverKeyOfUrl(url, path),
    shown: `${url.protocol}//${credentials}${url.host}${path}`,
    authorization,
  };
}

function addressOrUndefined(raw: string): ServerAddress | undefined {
  try {
    return parseServerAddress(raw, "baseUrl");
  } catch {
    return undefined;
  }
}

/** The URL as shown; when it is no URL, the text redacted. */
export function shownServerUrl(raw: string): string {
  return addressOrUndefined(raw)?.shown ?? redactSecretText(raw.trim().replace(/\/+$/, ""));
}

/** The server's key; the text as is when it is no URL. */
export function serverKeyOf(raw: string): string {
  return addressOrUndefined(raw)?.key ?? raw.trim();
}

export const MAX_POOL_SERVERS = 32;

export interface ServerEntry {
  readonly address: ServerAddress;
  readonly slots: number | undefined;
  readonly provider?: PoolProvider;
  readonly model?: string;
}

export const ServerObjectSchema = z.strictObject({
  url: z.string().min(1).max(2_048),
  slots: z.number().int().min(1).max(MAX_IN_FLIGHT_LIMIT).optional(),
  provider: z.enum(POOL_PROVIDERS).optional(),
  model: z.string().min(1).max(512).optional(),
});

export type ServerInput = string | z.infer<typeof ServerObjectSchema>;

function slotsOf(fragment: string, option: string, shown: string): number {
  const found = /^slots=(\d{1,4})$/.exec(fragment.trim());
  const slots = found === null ? Number.NaN : Number(found[1]);
  if (!(slots >= 1 && slots <= MAX_IN_FLIGHT_LIMIT)) {
    throw new ModelOptionsError(
      option,
      `after # a server takes only slots=<1–${MAX_IN_FLIGHT_LIMIT}> (got "#${fragment.slice(0, 40)}" for ${shown})`,
    );
  }
  return slots;
}

function parseServerUrl(raw: string, option: string): ServerEntry {
  const text = raw.trim();
  const hash = text.indexOf("#");
  const address = parseServerAddress(hash === -1 ? text : text.slice(0, hash), option);
  const slots = hash === -1 ? undefined : slotsOf(text.slice(hash + 1), option, address.shown);
  return { address, slots };
}

export function parseServerList(raw: string, option: string): ServerEntry[] {
  const parts = raw.split(",").map((part) => part.trim());
  if (parts.some((part) => part === "")) {
    throw new ModelOptionsError(
      option,
      `a server list is URLs separated by commas, with none empty (got "${redactSecretText(raw.slice(0, 200))}")`,
    );
  }
  return checkList(
    parts.map((part) => parseServerUrl(part, option)),
    option,
  );
}

/** Refuses an empty list, one too long, or one that names a server twice (however spelled). */
function checkList(entries: ServerEntry[], option: string): ServerEntry[] {
  if (entries.length === 0) throw new ModelOptionsError(option, "no server is listed");
  if (entries.length > MAX_POOL_SERVERS) {
    throw new ModelOptionsError(
      option,
      `at most ${MAX_POOL_SERVERS} servers, got ${entries.length}`,
    );
  }
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.address.key)) {
      throw new ModelOptionsError(option, `the list names ${entry.address.shown} twice`);
    }
    seen.add(entry.address.key);
  }
  return entries;
}

function specEntries(text: string, option: string): ServerEntry[] {
  let spec: ReturnType<typeof parseModelSpec>;
  try {
    spec = parseModelSpec(text);
  } catch (error) {
    const why = error instanceof ModelSpecError ? error.message : String(error);
    throw new ModelOptionsError(option, why);
  }
  const { provider, model, servers } = spec;
  if (servers === undefined || !(POOL_PROVIDERS as readonly string[]).includes(provider)) {
    throw new ModelOptionsError(
      option,
      `an entry is a URL or ${POOL_PROVIDERS.join(" / ")}:<model>@<url> (got "${redactSecretText(text.slice(0, 200))}")`,
    );
  }
  return parseServerList(servers, option).map((entry) => ({
    ...entry,
    provider: provider as PoolProvider,
    model,
  }));
}

export function parseServerInputs(inputs: readonly ServerInput[]): ServerEntry[] {
  const entries = inputs.flatMap((input, i): ServerEntry[] => {
    const option = `servers.${i}`;
    if (typeof input !== "string") {
      const { url, ...given } = input;
      const entry = parseServerUrl(url, option);
      return [{ ...entry, ...given, slots: given.slots ?? entry.slots }];
    }
    return /^https?:\/\//i.test(input.trim())
      ? [parseServerUrl(input, option)]
      : specEntries(input, option);
  });
  return checkList(entries, "servers");
}
