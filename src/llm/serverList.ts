/**
 * The model servers of a judge: URLs separated by commas (OLLAMA_BASE_URL, `baseUrl`, after a
 * spec's `@`), each with an optional `#slots=N`; the `servers` option's entries are such URLs,
 * `provider:model@url` specs or objects.
 */
import { z } from "zod";
import { redactSecretText } from "../redact.js";
import { ModelOptionsError, ModelSpecError } from "./errors.js";
import { parseServerAddress, type ServerAddress } from "./serverAddress.js";
import { MAX_IN_FLIGHT_LIMIT } from "./serverState.js";
import { POOL_PROVIDERS, type PoolProvider, parseModelSpec } from "./spec.js";

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
