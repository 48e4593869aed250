/**
 * A model server's address: the URL requests go to (never with credentials, so it can be shown
 * and used as a key), and the credentials the configured URL carried, turned into an
 * `Authorization: Basic` header. fetch refuses a URL with credentials ("Request cannot be
 * constructed from a URL that includes credentials"), so a server behind a basic-auth proxy is
 * reached this way; the header value never appears in a message, a trace or JSON.
 */
import { inspect } from "node:util";
import { redactSecretText } from "../redact.js";
import { ModelOptionsError } from "./errors.js";
import { serverKeyOfUrl } from "./serverKey.js";

/** The most characters of a server URL read (longer ones are refused). */
const MAX_URL_LENGTH = 2_048;

/** An `Authorization` header value, kept out of JSON, inspection and string conversion. */
export class ServerAuthorization {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The header value, for the request only. */
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
  /** scheme://host[:port][/path], without credentials, query or trailing slash. */
  readonly url: string;
  /**
   * The server whatever the URL's spelling (serverKey.ts): the key of its ceiling on calls in
   * flight and of its health. `http://localhost:11434/`, `http://127.1:11434` and
   * `http://[::ffff:127.0.0.1]:11434` are one server.
   */
  readonly key: string;
  /** The URL as messages, traces and logs show it: `http://***@host:11434` when it had credentials. */
  readonly shown: string;
  /** `Basic …` for the user name and password the configured URL carried. */
  readonly authorization: ServerAuthorization | undefined;
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

/**
 * Reads a model server URL (`http://user:pass@host:11434/prefix/`). Throws ModelOptionsError
 * naming `option` (and the URL without its credentials) when it is not an http(s) URL.
 */
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

/**
 * The URL as shown (credentials as `***`, no query or trailing slash); when it is no URL, the text
 * redacted.
 */
export function shownServerUrl(raw: string): string {
  try {
    return parseServerAddress(raw, "baseUrl").shown;
  } catch {
    return redactSecretText(raw.trim().replace(/\/+$/, ""));
  }
}

/**
 * The key of a server's ceiling and health: the server whatever the URL's spelling (host
 * normalised, loopback spellings one, the port always written); the text as is when it is no URL.
 */
export function serverKeyOf(raw: string): string {
  try {
    return parseServerAddress(raw, "baseUrl").key;
  } catch {
    return raw.trim();
  }
}
