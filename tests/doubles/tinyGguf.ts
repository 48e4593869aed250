/**
 * Writes a tiny GGUF (v3) model that the real llama.cpp runtime loads: a llama-architecture
 * network of a few hundred kilobytes of seeded random weights with a byte-level (`gpt2`)
 * vocabulary — the 256 bytes plus an end-of-text token.
 *
 * Its answers are nonsense, but they end: every token embedding shares one direction and the
 * output matrix scores each token along it, so among the tokens a grammar allows the model
 * prefers to close what is open (`"` then `}` `]` `,`), writes `0` or `1` for numbers and avoids
 * whitespace. Through a JSON-schema grammar that gives short, well-formed answers in a few
 * dozen tokens, on any machine. `preferences` changes how much it likes some bytes (a test of
 * token probabilities can make digits nearly as likely as `"`).
 */
import { writeFileSync } from "node:fs";

const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
const GGUF_VERSION = 3;
const ALIGNMENT = 32;

enum ValueType {
  UINT32 = 4,
  INT32 = 5,
  FLOAT32 = 6,
  BOOL = 7,
  STRING = 8,
  ARRAY = 9,
}

type MetadataValue =
  | { type: "u32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "strings"; value: readonly string[] }
  | { type: "i32s"; value: readonly number[] };

interface Tensor {
  name: string;
  /** ggml order: the fastest-varying dimension first. */
  dims: readonly number[];
  data: Float32Array;
}

class ByteSink {
  private readonly chunks: Buffer[] = [];
  length = 0;

  push(buffer: Buffer): void {
    this.chunks.push(buffer);
    this.length += buffer.length;
  }
  u32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(value);
    this.push(b);
  }
  i32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32LE(value);
    this.push(b);
  }
  u64(value: number): void {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(value));
    this.push(b);
  }
  f32(value: number): void {
    const b = Buffer.alloc(4);
    b.writeFloatLE(value);
    this.push(b);
  }
  string(value: string): void {
    const bytes = Buffer.from(value, "utf8");
    this.u64(bytes.length);
    this.push(bytes);
  }
  padTo(alignment: number): void {
    const rest = this.length % alignment;
    if (rest !== 0) this.push(Buffer.alloc(alignment - rest));
  }
  toBuffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

function writeValue(sink: ByteSink, entry: MetadataValue): void {
  switch (entry.type) {
    case "u32":
      sink.u32(ValueType.UINT32);
      sink.u32(entry.value);
      return;
    case "f32":
      sink.u32(ValueType.FLOAT32);
      sink.f32(entry.value);
      return;
    case "bool":
      sink.u32(ValueType.BOOL);
      sink.push(Buffer.from([entry.value ? 1 : 0]));
      return;
    case "string":
      sink.u32(ValueType.STRING);
      sink.string(entry.value);
      return;
    case "strings":
      sink.u32(ValueType.ARRAY);
      sink.u32(ValueType.STRING);
      sink.u64(entry.value.length);
      for (const item of entry.value) sink.string(item);
      return;
    case "i32s":
      sink.u32(ValueType.ARRAY);
      sink.u32(ValueType.INT32);
      sink.u64(entry.value.length);
      for (const item of entry.value) sink.i32(item);
      return;
  }
}

/** GPT-2's byte-to-unicode table: every byte as a printable character. */
function byteLevelAlphabet(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const alphabet: string[] = [];
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    alphabet.push(String.fromCodePoint(printable.includes(b) ? b : 256 + extra++));
  }
  return alphabet;
}

/** How much the model likes to emit a byte (higher is likelier); see the module comment. */
function bytePreference(byte: number): number {
  const char = String.fromCharCode(byte);
  if (char === '"') return 10;
  if (char === "}") return 9;
  if (char === "]") return 8.5;
  if (char === ",") return 8;
  if (char === "0") return 6;
  if (char === "1") return 5.5;
  if (/[a-z]/.test(char)) return 5;
  if (/[2-9]/.test(char)) return 4;
  if (/\s/.test(char)) return -6;
  return 2;
}

/** A small seeded generator (mulberry32), so the file is the same on every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TinyGgufOptions {
  /** Transformer blocks (default 2). */
  layers?: number;
  /** Width of the residual stream (default 64). */
  embedding?: number;
  /** Context length written in the metadata (default 8192). */
  contextLength?: number;
  seed?: number;
  /** Preferences of single characters in place of the defaults below (a logit ≈ 8 × this). */
  preferences?: Readonly<Record<string, number>>;
}

const END_OF_TEXT = "<|endoftext|>";

function buildTensors(vocab: number, options: Required<TinyGgufOptions>): Tensor[] {
  const preferenceOf = (byte: number) =>
    options.preferences[String.fromCharCode(byte)] ?? bytePreference(byte);
  const random = seededRandom(options.seed);
  const noise = (n: number, scale: number) =>
    Float32Array.from({ length: n }, () => (random() * 2 - 1) * scale);
  const ones = (n: number) => new Float32Array(n).fill(1);
  const d = options.embedding;
  const ff = d * 2;
  const embeddings = noise(d * vocab, 0.05);
  const output = noise(d * vocab, 0.05);
  for (let token = 0; token < vocab; token++) {
    embeddings[token * d] = 1;
    output[token * d] = token < 256 ? preferenceOf(token) : 9.5;
  }
  const tensors: Tensor[] = [
    { name: "token_embd.weight", dims: [d, vocab], data: embeddings },
    { name: "output_norm.weight", dims: [d], data: ones(d) },
    { name: "output.weight", dims: [d, vocab], data: output },
  ];
  for (let layer = 0; layer < options.layers; layer++) {
    const blk = `blk.${layer}`;
    tensors.push(
      { name: `${blk}.attn_norm.weight`, dims: [d], data: ones(d) },
      { name: `${blk}.attn_q.weight`, dims: [d, d], data: noise(d * d, 0.02) },
      { name: `${blk}.attn_k.weight`, dims: [d, d], data: noise(d * d, 0.02) },
      { name: `${blk}.attn_v.weight`, dims: [d, d], data: noise(d * d, 0.02) },
      { name: `${blk}.attn_output.weight`, dims: [d, d], data: noise(d * d, 0.02) },
      { name: `${blk}.ffn_norm.weight`, dims: [d], data: ones(d) },
      { name: `${blk}.ffn_gate.weight`, dims: [d, ff], data: noise(d * ff, 0.02) },
      { name: `${blk}.ffn_up.weight`, dims: [d, ff], data: noise(d * ff, 0.02) },
      { name: `${blk}.ffn_down.weight`, dims: [ff, d], data: noise(d * ff, 0.02) },
    );
  }
  return tensors;
}

function buildMetadata(options: Required<TinyGgufOptions>): Array<[string, MetadataValue]> {
  const tokens = [...byteLevelAlphabet(), END_OF_TEXT];
  const tokenTypes = tokens.map((_, id) => (id < 256 ? 1 : 3)); // normal bytes, one control
  const endId = tokens.length - 1;
  const d = options.embedding;
  return [
    ["general.architecture", { type: "string", value: "llama" }],
    ["general.name", { type: "string", value: "evalgate tiny test model" }],
    ["general.alignment", { type: "u32", value: ALIGNMENT }],
    ["llama.context_length", { type: "u32", value: options.contextLength }],
    ["llama.embedding_length", { type: "u32", value: d }],
    ["llama.block_count", { type: "u32", value: options.layers }],
    ["llama.feed_forward_length", { type: "u32", value: d * 2 }],
    ["llama.attention.head_count", { type: "u32", value: 4 }],
    ["llama.attention.head_count_kv", { type: "u32", value: 4 }],
    ["llama.attention.layer_norm_rms_epsilon", { type: "f32", value: 1e-5 }],
    ["llama.rope.dimension_count", { type: "u32", value: d / 4 }],
    ["llama.rope.freq_base", { type: "f32", value: 10000 }],
    ["llama.vocab_size", { type: "u32", value: tokens.length }],
    ["tokenizer.ggml.model", { type: "string", value: "gpt2" }],
    ["tokenizer.ggml.pre", { type: "string", value: "default" }],
    ["tokenizer.ggml.tokens", { type: "strings", value: tokens }],
    ["tokenizer.ggml.token_type", { type: "i32s", value: tokenTypes }],
    ["tokenizer.ggml.merges", { type: "strings", value: [] }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: endId }],
    ["tokenizer.ggml.eos_token_id", { type: "u32", value: endId }],
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: false }],
  ];
}

/** The bytes of the tiny model. */
export function tinyGgufBytes(options: TinyGgufOptions = {}): Buffer {
  const resolved: Required<TinyGgufOptions> = {
    layers: options.layers ?? 2,
    embedding: options.embedding ?? 64,
    contextLength: options.contextLength ?? 8192,
    seed: options.seed ?? 1,
    preferences: options.preferences ?? {},
  };
  const metadata = buildMetadata(resolved);
  const tensors = buildTensors(257, resolved);
  const header = new ByteSink();
  header.u32(GGUF_MAGIC);
  header.u32(GGUF_VERSION);
  header.u64(tensors.length);
  header.u64(metadata.length);
  for (const [key, value] of metadata) {
    header.string(key);
    writeValue(header, value);
  }
  const data = new ByteSink();
  for (const tensor of tensors) {
    data.padTo(ALIGNMENT);
    header.string(tensor.name);
    header.u32(tensor.dims.length);
    for (const dim of tensor.dims) header.u64(dim);
    header.u32(0); // GGML_TYPE_F32
    header.u64(data.length);
    data.push(Buffer.from(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
  }
  header.padTo(ALIGNMENT);
  return Buffer.concat([header.toBuffer(), data.toBuffer()]);
}

/** Writes the tiny model to `path` and returns the path. */
export function writeTinyGguf(path: string, options: TinyGgufOptions = {}): string {
  writeFileSync(path, tinyGgufBytes(options));
  return path;
}
