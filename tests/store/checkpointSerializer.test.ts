/**
 * The SQLite checkpointer deflates what it writes: every value LangGraph keeps comes back as it
 * went in, a file written before (plain JSON rows) is read and resumed, the rows on disk are
 * deflated, and a damaged or oversized row is refused with a clear error, never inflated whole.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateRawSync } from "node:zlib";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { buildProposalGraph } from "../../src/graph/proposalGraph.js";
import {
  createCheckpointer,
  DEFLATED_JSON,
  DeflatedJsonSerializer,
} from "../../src/orchestrator/checkpointer.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { proposalResponder } from "../graph/helpers.js";
import { RFP } from "../graph/proposalHarness.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "evalgate-checkpoint-serde-"));
  dirs.push(dir);
  return join(dir, "threads.sqlite");
}

describe("DeflatedJsonSerializer", () => {
  const serializer = new DeflatedJsonSerializer();
  const roundTrip = async (value: unknown) => {
    const [type, data] = await serializer.dumpsTyped(value);
    return { type, data, back: await serializer.loadsTyped(type, data) };
  };

  it("gives back what LangGraph keeps: messages, nested values, odd characters, large texts", async () => {
    const values = [
      {
        messages: [
          new HumanMessage("Résumé 😀 \u2028"),
          new AIMessage({ content: "ok", id: "m1" }),
        ],
      },
      { nested: { list: [1, 2.5, null, true, "x"], empty: {} }, text: "a\ud800b\u0000c" },
      "a plain string",
      42,
      { big: "A long proposal sentence. ".repeat(40_000) },
    ];
    for (const value of values) {
      const { type, back } = await roundTrip(value);
      expect(type).toBe(DEFLATED_JSON);
      expect(JSON.stringify(back)).toBe(JSON.stringify(value));
    }
    const { back } = await roundTrip(values[0]);
    expect((back as { messages: unknown[] }).messages[1]).toBeInstanceOf(AIMessage);
  });

  it("writes base64 text a third of the JSON's size for a repetitive state", async () => {
    const state = { feedback: "Suggestions for improvement: aim for 'excellent'. ".repeat(200) };
    const { data } = await roundTrip(state);
    const text = new TextDecoder().decode(data);
    expect(text).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(text.length).toBeLessThan(JSON.stringify(state).length / 3);
  });

  it("leaves bytes as bytes and reads plain JSON rows written before", async () => {
    const bytes = new Uint8Array([0, 1, 2, 255]);
    expect(await serializer.dumpsTyped(bytes)).toEqual(["bytes", bytes]);
    expect(await serializer.loadsTyped("json", '{"a":[1,"é"]}')).toEqual({ a: [1, "é"] });
    expect(await serializer.loadsTyped("json", new TextEncoder().encode('"x"'))).toBe("x");
  });

  it("refuses text that is not base64, data that is not deflated, and data that expands too far", async () => {
    const small = new DeflatedJsonSerializer({ maxBytes: 1024 });
    await expect(small.loadsTyped(DEFLATED_JSON, '{"not":"base64"}')).rejects.toMatchObject({
      code: "STORE_DATA_INVALID",
      message: expect.stringContaining("not base64"),
    });
    await expect(
      small.loadsTyped(DEFLATED_JSON, Buffer.from("plain words, not deflate").toString("base64")),
    ).rejects.toMatchObject({ message: expect.stringContaining("damaged") });
    const bomb = deflateRawSync(Buffer.from(`"${"0".repeat(100_000)}"`)).toString("base64");
    expect(bomb.length).toBeLessThan(1024);
    await expect(small.loadsTyped(DEFLATED_JSON, bomb)).rejects.toMatchObject({
      message: expect.stringContaining("expands beyond 1024 bytes"),
    });
  });
});

/** The types of a thread's checkpoint and write rows in the file. */
function rowTypes(path: string, threadId: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT type FROM checkpoints WHERE thread_id = ?
         UNION ALL SELECT type FROM writes WHERE thread_id = ?`,
      )
      .all(threadId, threadId)
      .map((r) => (r as { type: string }).type);
  } finally {
    db.close();
  }
}

describe("the SQLite checkpointer", () => {
  it("deflates a paused thread's rows, and resumes a thread a plain saver paused", async () => {
    const sqlitePath = tempFile();
    const model = new ScriptedChatModel({ responder: proposalResponder() });
    const config = { configurable: { thread_id: "written-plain" } };

    // Paused by LangGraph's own SQLite saver, as a file written before would be.
    const plain = SqliteSaver.fromConnString(sqlitePath);
    await buildProposalGraph({ model })
      .compile({ checkpointer: plain })
      .invoke({ rfpDocument: RFP }, config);
    plain.db.close();
    expect(new Set(rowTypes(sqlitePath, "written-plain"))).toEqual(new Set(["json"]));

    const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
    try {
      const graph = buildProposalGraph({ model }).compile({ checkpointer: checkpointer.saver });
      const paused = await graph.getState(config);
      expect(paused.next).toEqual(["reviewResearch"]);
      await graph.invoke(new Command({ resume: { action: "approve" } }), config);
      const after = await graph.getState(config);
      expect(after.values.researchStatus).toBe("approved");
      expect(after.next).toEqual(["reviewSolution"]);
    } finally {
      await checkpointer.close();
    }
    const types = rowTypes(sqlitePath, "written-plain");
    expect(types).toContain("json");
    expect(types).toContain(DEFLATED_JSON);
  });

  it("keeps the same state as an in-memory run of the same graph", async () => {
    const sqlitePath = tempFile();
    const run = async (checkpointer: SqliteSaver | MemorySaver) => {
      const model = new ScriptedChatModel({ responder: proposalResponder() });
      const graph = buildProposalGraph({ model }).compile({ checkpointer });
      const config = { configurable: { thread_id: "same" } };
      await graph.invoke({ rfpDocument: RFP }, config);
      return graph.getState(config);
    };
    const checkpointer = await createCheckpointer({ sqlitePath, env: {} });
    try {
      const onFile = await run(checkpointer.saver as SqliteSaver);
      const inMemory = await run(new MemorySaver());
      expect(new Set(rowTypes(sqlitePath, "same"))).toEqual(new Set([DEFLATED_JSON]));
      expect(onFile.values.researchResults).toEqual(inMemory.values.researchResults);
      expect(onFile.values.messages.map((m: AIMessage) => m.content)).toEqual(
        inMemory.values.messages.map((m: AIMessage) => m.content),
      );
      expect(onFile.tasks[0]?.interrupts[0]?.value).toMatchObject({
        type: "evaluation_review",
        contentId: "research",
      });
    } finally {
      await checkpointer.close();
    }
  });
});
