/**
 * The model servers of a judge: one, or several (a pool). Written as a list of URLs separated by
 * commas — in OLLAMA_BASE_URL, the `baseUrl` option, or after the `@` of a spec
 * (`openai-compatible:qwen2.5-7b@http://gpu1:8000/v1,http://gpu2:8000/v1`) — each URL optionally
 * with `#slots=N` (the calls it takes at once; a fragment is never sent); or as the `servers`
 * option, whose entries are such URLs, specs with their own provider and model
 * (`openai-compatible:Qwen/Qwen2.5-7B-Instruct@http://gpu2:8000/v1`), or objects
 * `{ url, slots?, provider?, model? }`.
 */
import { z } from "zod";
import { redactSecretText } from "../redact.js";
import { ModelOptionsError } from "./errors.js";
import { parseServerAddress, type ServerAddress } from "./serverAddress.js";
import { MAX_IN_FLIGHT_LIMIT } from "./serverCeilings.js";

/** The providers whose servers a pool can hold. */
export const POOL_PROVIDERS = ["ollama", "openai-compatible"] as const;
export type PoolProvider = (typeof POOL_PROVIDERS)[number];

/** The most servers one judge's list may name. */
export const MAX_POOL_SERVERS = 32;

/** One server as configured. */
export interface ServerEntry {
  readonly address: ServerAddress;
  /** The calls it takes at once, when the configuration says (`#slots=N`, `slots`). */
  readonly slots: number | undefined;
  /** Who speaks to it and which model it is asked for, when not the judge's own. */
  readonly provider?: PoolProvider;
  readonly model?: string;
}

export const ServerObjectSchema = z.strictObject({
  url: z.string().min(1).max(2_048),
  slots: z.number().int().min(1).max(MAX_IN_FLIGHT_LIMIT).optional(),
  provider: z.enum(POOL_PROVIDERS).optional(),
  model: z.string().min(1).max(512).optional(),
});
export type ServerObject = z.infer<typeof ServerObjectSchema>;

/** An entry of the `servers` option. */
export type ServerInput = string | ServerObject;

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

/** One URL, with `#slots=N` when given. */
export function parseServerUrl(raw: string, option: string): ServerEntry {
  const text = raw.trim();
  const hash = text.indexOf("#");
  const address = parseServerAddress(hash === -1 ? text : text.slice(0, hash), option);
  const slots = hash === -1 ? undefined : slotsOf(text.slice(hash + 1), option, address.shown);
  return { address, slots };
}

/** The servers of a comma-separated list; none listed twice. */
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

/** Refuses an empty list, one too long, or one that names a server twice. */
export function checkList(entries: ServerEntry[], option: string): ServerEntry[] {
  if (entries.length === 0) throw new ModelOptionsError(option, "no server is listed");
  if (entries.length > MAX_POOL_SERVERS) {
    throw new ModelOptionsError(
      option,
      `at most ${MAX_POOL_SERVERS} servers, got ${entries.length}`,
    );
  }
  const seen = new Set<string>();
  for (const entry of entries) {
    // One server named twice, however it is spelled (serverKey.ts).
    if (seen.has(entry.address.key)) {
      throw new ModelOptionsError(option, `the list names ${entry.address.shown} twice`);
    }
    seen.add(entry.address.key);
  }
  return entries;
}

/** Splits `model@http://…` into the model and the server list after the `@`, when there is one. */
export function splitServers(text: string): { model: string; servers: string | undefined } {
  const at = text.search(/@https?:\/\//i);
  if (at === -1) return { model: text, servers: undefined };
  return { model: text.slice(0, at).trim(), servers: text.slice(at + 1) };
}
