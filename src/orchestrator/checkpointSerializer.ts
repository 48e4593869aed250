/**
 * The SQLite checkpointer's serializer: LangGraph's own JSON, deflated to about a third and kept as
 * base64 text (the saver reads pending writes through `CAST(value AS TEXT)`); `json` rows read as
 * they are. PostgreSQL keeps LangGraph's serializer, which compresses large values itself.
 */
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { storeDataInvalid } from "../store/errors.js";

/** The row type of a deflated checkpoint, write or metadata. */
export const DEFLATED_JSON = "deflated-json";

/** A stored value never expands beyond this (a row that would is refused, not inflated). */
const MAX_CHECKPOINT_BYTES = 256 * 1024 * 1024;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

type Serializer = Pick<JsonPlusSerializer, "dumpsTyped" | "loadsTyped">;

function bytesOf(data: Uint8Array | string): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data;
}

function textOf(data: Uint8Array | string): string {
  return typeof data === "string" ? data : new TextDecoder().decode(data);
}

/** LangGraph's JSON serializer, deflating what it writes and reading both forms. */
export class DeflatedJsonSerializer implements Serializer {
  private readonly json = new JsonPlusSerializer();
  private readonly maxBytes: number;

  constructor(options: { maxBytes?: number } = {}) {
    this.maxBytes = options.maxBytes ?? MAX_CHECKPOINT_BYTES;
  }

  async dumpsTyped(value: unknown): Promise<[string, Uint8Array]> {
    const [type, data] = await this.json.dumpsTyped(value);
    if (type !== "json") return [type, data];
    const deflated = deflateRawSync(bytesOf(data)).toString("base64");
    return [DEFLATED_JSON, new TextEncoder().encode(deflated)];
  }

  async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    if (type !== DEFLATED_JSON) return this.json.loadsTyped(type, data);
    const text = textOf(data);
    if (!BASE64.test(text)) {
      throw storeDataInvalid("a stored checkpoint is not readable: its text is not base64");
    }
    let json: Buffer;
    try {
      json = inflateRawSync(Buffer.from(text, "base64"), { maxOutputLength: this.maxBytes });
    } catch (error) {
      const reason =
        error instanceof RangeError
          ? `it expands beyond ${this.maxBytes} bytes`
          : "its deflated data is damaged";
      throw storeDataInvalid(`a stored checkpoint is not readable: ${reason}`, { cause: error });
    }
    return this.json.loadsTyped("json", json);
  }
}
