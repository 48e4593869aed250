/**
 * One server, one key, whatever the spelling of its URL: the key of its ceiling on calls in flight
 * and of its health (serverCeilings.ts, serverHealth.ts). A server named six ways must not get six
 * ceilings (six times the calls it can take) nor six healths (a server taken out under one name
 * and used under another). The WHATWG URL parser already lowercases the host, reads `127.1`,
 * `0x7f.0.0.1` and `2130706433` as `127.0.0.1` and drops a default port; here the port is always
 * written, a trailing dot and a trailing slash are dropped, an IPv4-mapped IPv6 address is its IPv4
 * address, and every spelling of this machine's loopback (`localhost`, `127.0.0.1`, `[::1]`,
 * `[::ffff:127.0.0.1]`, `0.0.0.0`, `[::]`) is `loopback`.
 */

/** The hosts that mean this machine. */
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

/** The host as the key writes it. */
function canonicalHost(hostname: string): string {
  let host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[") && host.endsWith("]")) {
    const inner = host.slice(1, -1);
    host = mappedIpv4(inner) ?? inner;
  }
  if (LOOPBACK.has(host) || host.endsWith(".localhost")) return "loopback";
  return host.includes(":") ? `[${host}]` : host;
}

/** The key of the server at `url` (its path given without a trailing slash). */
export function serverKeyOfUrl(url: URL, path: string): string {
  const port = url.port === "" ? (DEFAULT_PORTS[url.protocol] ?? "") : url.port;
  return `${url.protocol}//${canonicalHost(url.hostname)}:${port}${path}`;
}
