/**
 * ChatLlamaCpp: a LangChain chat model over the embedded runtime. A call's `format` becomes a
 * grammar, so the answer follows the contract token by token; `logprobs` adds the answer tokens'
 * log-probabilities (answerLogprobs.ts) under TOKEN_LOGPROBS_KEY.
 */
import { basename } from "node:path";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
} from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { ChatHistoryItem, LlamaGrammar, Token } from "node-llama-cpp";
import { isRecord } from "../../untrusted/json.js";
import { loadOncePer } from "../modelCandidate.js";
import type { ModelSettings, OllamaFormat } from "../settings.js";
import { MAX_RECORDED_TOKENS, TOKEN_LOGPROBS_KEY } from "../tokenLogprobs.js";
import { answerTokenLogprobs } from "./answerLogprobs.js";
import { startGenerationMeter } from "./generationProgress.js";
import {
  importRuntime,
  type LoadedModel,
  loadEmbeddedModel,
  maxAnswerTokens,
  type RuntimeSettings,
  runtimeSettings,
} from "./llamaRuntime.js";

type JsonSchema = Record<string, unknown>;

const KEPT_KEYS = [
  "type",
  "enum",
  "const",
  "required",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "description",
  "additionalProperties",
] as const;

/** Integer ranges up to this many values become an enum. */
const MAX_ENUM_RANGE = 101;

function integerRange(schema: JsonSchema): number[] | undefined {
  if (schema.type !== "integer") return undefined;
  const { minimum, maximum } = schema;
  if (typeof minimum !== "number" || typeof maximum !== "number") return undefined;
  const low = Math.ceil(minimum);
  const high = Math.floor(maximum);
  if (high < low || high - low + 1 > MAX_ENUM_RANGE) return undefined;
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

function propertySchema(name: string, schema: JsonSchema): JsonSchema {
  const converted = toGrammarSchema(schema);
  const mustWrite = name === "reasoning" && converted.type === "string";
  return mustWrite && converted.minLength === undefined
    ? { ...converted, minLength: 1 }
    : converted;
}

/**
 * The answer contract's JSON Schema in the subset node-llama-cpp makes a grammar. Number bounds
 * have no grammar: a small integer range becomes an enum (a 1–5 scale cannot be answered with 7);
 * the parser refuses an empty reasoning, so the grammar asks for one character at least.
 */
export function toGrammarSchema(schema: JsonSchema): JsonSchema {
  const range = integerRange(schema);
  if (range !== undefined) return { enum: range };
  const out: JsonSchema = {};
  for (const key of KEPT_KEYS) {
    if (schema[key] !== undefined) out[key] = schema[key];
  }
  if (isRecord(out.additionalProperties)) {
    out.additionalProperties = toGrammarSchema(out.additionalProperties);
  }
  if (isRecord(schema.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, value]) => [
        name,
        isRecord(value) ? propertySchema(name, value) : value,
      ]),
    );
    if (out.additionalProperties === undefined) out.additionalProperties = false;
  }
  if (isRecord(schema.items)) out.items = toGrammarSchema(schema.items);
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    const options = (schema.oneOf ?? schema.anyOf) as unknown[];
    out.oneOf = options.map((option) => (isRecord(option) ? toGrammarSchema(option) : option));
  }
  return out;
}

interface ChatLlamaCppCallOptions extends BaseChatModelCallOptions {
  /** Structured output for this call: "json" or a JSON Schema (as Ollama's `format`). */
  format?: OllamaFormat;
  /** The answer tokens' log-probabilities, with this many alternatives per position. */
  logprobs?: number;
}

function splitConversation(messages: BaseMessage[]): {
  history: ChatHistoryItem[];
  prompt: string;
} {
  const history: ChatHistoryItem[] = [];
  for (const message of messages) {
    const { text } = message;
    const type = message.getType();
    if (type === "system") history.push({ type: "system", text });
    else if (type === "ai") history.push({ type: "model", response: [text] });
    else history.push({ type: "user", text });
  }
  const last = history.at(-1);
  if (last?.type !== "user") return { history, prompt: "" };
  history.pop();
  return { history, prompt: last.text };
}

class ChatLlamaCpp extends BaseChatModel<ChatLlamaCppCallOptions> {
  /** The file name, as the model's name in results and traces. */
  readonly model: string;
  readonly temperature: number;
  readonly seed: number | undefined;
  /** The most tokens one answer may have. */
  readonly maxTokens: number;
  private readonly runtime: RuntimeSettings;

  constructor(
    readonly modelPath: string,
    settings: ModelSettings,
  ) {
    super({});
    this.model = basename(modelPath);
    this.runtime = runtimeSettings(settings.env);
    this.temperature = settings.temperature;
    this.seed = settings.seed;
    this.maxTokens = maxAnswerTokens(settings.env);
  }

  _llmType(): string {
    return "llama-cpp";
  }

  override invocationParams(): Record<string, unknown> {
    return {
      model: this.model,
      temperature: this.temperature,
      seed: this.seed,
      maxTokens: this.maxTokens,
      contextSize: this.runtime.contextSize,
    };
  }

  async load(): Promise<LoadedModel> {
    return loadEmbeddedModel({ path: this.modelPath, settings: this.runtime });
  }

  private readonly grammarFor = loadOncePer(
    (format: OllamaFormat) => (typeof format === "string" ? format : JSON.stringify(format)),
    async (format): Promise<LlamaGrammar> => {
      const { model } = await this.load();
      const llama = model.llama;
      if (format === "json") return llama.getGrammarFor("json");
      const schema = toGrammarSchema(format as JsonSchema);
      // The schema is checked by node-llama-cpp; its static type is a deep generic.
      return llama.createGrammarForJsonSchema(
        schema as Parameters<typeof llama.createGrammarForJsonSchema>[0],
      );
    },
  );

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const loaded = await this.load();
    const grammar =
      options.format === undefined ? undefined : await this.grammarFor(options.format);
    const { LlamaChatSession } = await importRuntime();
    const { history, prompt } = splitConversation(messages);
    const sequence = await loaded.acquire();
    const meter = startGenerationMeter(this.model);
    const before = { ...sequence.tokenMeter.getState() };
    // The answer's tokens, kept only when their log-probabilities are asked for.
    const answerTokens: Token[] | undefined = options.logprobs === undefined ? undefined : [];
    try {
      await sequence.clearHistory();
      const session = new LlamaChatSession({
        contextSequence: sequence,
        autoDisposeSequence: false,
      });
      try {
        session.setChatHistory(history);
        const text = await session.prompt(prompt, {
          ...(grammar === undefined ? {} : { grammar }),
          maxTokens: this.maxTokens,
          temperature: this.temperature,
          ...(this.seed === undefined ? {} : { seed: this.seed }),
          ...(options.signal === undefined ? {} : { signal: options.signal }),
          onToken: (tokens) => {
            meter.tokens(tokens.length);
            if (answerTokens !== undefined && answerTokens.length <= MAX_RECORDED_TOKENS) {
              answerTokens.push(...tokens);
            }
          },
          onTextChunk: (chunk) => {
            void runManager?.handleLLMNewToken(chunk);
          },
        });
        const after = sequence.tokenMeter.getState();
        const input = after.usedInputTokens - before.usedInputTokens;
        const output = after.usedOutputTokens - before.usedOutputTokens;
        // Log-probabilities that cannot be computed are none (the plain score, with the reason).
        const logprobs =
          answerTokens === undefined || options.logprobs === undefined
            ? undefined
            : await answerTokenLogprobs(
                sequence,
                answerTokens,
                options.logprobs,
                options.signal,
              ).catch(() => undefined);
        const message = new AIMessage({
          content: text,
          ...(logprobs === undefined
            ? {}
            : { response_metadata: { [TOKEN_LOGPROBS_KEY]: logprobs } }),
          usage_metadata: {
            input_tokens: input,
            output_tokens: output,
            total_tokens: input + output,
          },
        });
        return { generations: [{ text, message }] };
      } finally {
        session.dispose({ disposeSequence: false });
      }
    } finally {
      meter.finish();
      loaded.release(sequence);
    }
  }
}

/** The chat model of a `llama-cpp:` spec, loaded now: a bad file fails before the first prompt. */
export async function createLlamaCppChat(
  modelPath: string,
  settings: ModelSettings,
): Promise<BaseChatModel> {
  const chat = new ChatLlamaCpp(modelPath, settings);
  await chat.load();
  return chat;
}
