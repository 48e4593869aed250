/**
 * The `servers` option and server lists read into server entries (serverList.ts): an entry is a
 * URL (`http://gpu1:11434#slots=8`), a spec naming its own provider and model
 * (`openai-compatible:Qwen/Qwen2.5-7B-Instruct@http://gpu2:8000/v1`), or an object.
 */

import { redactSecretText } from "../redact.js";
import { ModelOptionsError, ModelSpecError } from "./errors.js";
import {
  checkList,
  POOL_PROVIDERS,
  type PoolProvider,
  parseServerList,
  parseServerUrl,
  type ServerEntry,
  type ServerInput,
} from "./serverList.js";
import { parseModelSpec } from "./spec.js";

function isPoolProvider(provider: string): provider is PoolProvider {
  return (POOL_PROVIDERS as readonly string[]).includes(provider);
}

/** A `provider:model@url[,url…]` entry: its servers, each with that provider and model. */
function specEntries(text: string, option: string): ServerEntry[] {
  let spec: ReturnType<typeof parseModelSpec>;
  try {
    spec = parseModelSpec(text);
  } catch (error) {
    const why = error instanceof ModelSpecError ? error.message : String(error);
    throw new ModelOptionsError(option, why);
  }
  const { provider, model, servers } = spec;
  if (servers === undefined || !isPoolProvider(provider)) {
    throw new ModelOptionsError(
      option,
      `an entry is a URL or ${POOL_PROVIDERS.join(" / ")}:<model>@<url> (got "${redactSecretText(text.slice(0, 200))}")`,
    );
  }
  return parseServerList(servers, option).map((entry) => ({ ...entry, provider, model }));
}

/** The entries of the `servers` option, in order (not yet checked as a list). */
export function serverEntriesOf(inputs: readonly ServerInput[]): ServerEntry[] {
  return inputs.flatMap((input, i): ServerEntry[] => {
    const option = `servers.${i}`;
    if (typeof input !== "string") {
      const entry = parseServerUrl(input.url, option);
      return [
        {
          address: entry.address,
          slots: input.slots ?? entry.slots,
          ...(input.provider === undefined ? {} : { provider: input.provider }),
          ...(input.model === undefined ? {} : { model: input.model }),
        },
      ];
    }
    return /^https?:\/\//i.test(input.trim())
      ? [parseServerUrl(input, option)]
      : specEntries(input, option);
  });
}

/** The servers of a comma-separated list (OLLAMA_BASE_URL, `baseUrl`, a spec's `@` part). */
export function serverListOf(text: string, option: string): ServerEntry[] {
  return checkList(parseServerList(text, option), option);
}
