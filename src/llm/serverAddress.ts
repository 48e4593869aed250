/**
 * A model server's address: the URL requests go to (never with credentials: fetch refuses them),
 * the key naming the server whatever its URL's spelling, and the URL's credentials as an
 * `Authorization: Basic` header that never appears in a message, a trace or JSON.
 */
import { inspect } from "node:util";
import { redactSecretText } from "../redact.js";
import { ModelOptionsError } from "./errors.js";

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
