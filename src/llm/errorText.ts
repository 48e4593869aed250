/** The words of the model errors' messages: where a call went and why a model was unavailable. */

/** Where a call went: which provider, model and server. */
export interface ModelErrorContext {
  provider?: string;
  model?: string;
  baseUrl?: string;
  /** The timeout in force, used when an abort turns out to be a timeout. */
  timeoutMs?: number;
}

export type UnavailableReason =
  | "connection-refused"
  | "connection-reset"
  | "unreachable"
  | "server-error"
  | "incomplete-response"
  | "model-not-found"
  | "busy"
  | "unknown";

/** `ollama:qwen2.5:7b at http://127.0.0.1:11434`, or as much of it as is known. */
export function describeTarget(context: ModelErrorContext): string {
  const name =
    context.provider && context.model
      ? `${context.provider}:${context.model}`
      : (context.model ?? context.provider ?? "chat model");
  return context.baseUrl ? `${name} at ${context.baseUrl}` : name;
}

/** What to run to make an Ollama model available (`ollama serve`, `ollama pull <model>`). */
export function unavailableHint(
  reason: UnavailableReason,
  context: ModelErrorContext,
): string | undefined {
  if (context.provider !== "ollama") return undefined;
  if (reason === "model-not-found" && context.model) return `ollama pull ${context.model}`;
  if (reason === "connection-refused" || reason === "unreachable") return "ollama serve";
  return undefined;
}

/** The message of an unavailable model: the target, what went wrong, the detail and the fix. */
export function describeUnavailable(
  reason: UnavailableReason,
  detail: string,
  context: ModelErrorContext,
  extra: { status?: number | undefined; hint?: string | undefined },
): string {
  const what: Record<UnavailableReason, string> = {
    "connection-refused": "refused the connection",
    "connection-reset": "dropped the connection",
    unreachable: "is not reachable",
    "server-error": `failed with a server error${extra.status ? ` (HTTP ${extra.status})` : ""}`,
    "incomplete-response": "ended its answer before it was complete",
    "model-not-found": "does not have this model",
    busy: "had no free call slot",
    unknown: "failed",
  };
  const suffix = extra.hint ? ` — run \`${extra.hint}\`` : "";
  return `${describeTarget(context)} ${what[reason]}: ${detail}${suffix}`;
}
