import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, describe, expect, it } from "vitest";
import { openevalsPrompt, peerCatalog, peerContent } from "../../bench/peerRubric.js";
import { type PeerServer, startPeerServer } from "../../bench/peerServer.js";
import { commonPrefix, PrefixSlots } from "../../bench/peerSlots.js";
import { evalgateSystem, openevalsSystem, type PeerInput } from "../../bench/peerSystems.js";
import type { Catalog } from "../../src/criteria/index.js";

const ZERO = { fixedMs: 0, perPromptTokenMs: 0, perOutputTokenMs: 0 };

describe("PrefixSlots", () => {
  it("pays prefill only for what the slot's cache does not hold, and always the last token", async () => {
    const slots = new PrefixSlots(1, () => 0);
    const first = await slots.acquire([1, 2, 3, 4, 5]);
    expect(first).toMatchObject({ slot: 0, cachedTokens: 0, prefillTokens: 5 });
    slots.release(0, [1, 2, 3, 4, 5, 6, 7]);

    const second = await slots.acquire([1, 2, 3, 9, 9, 9]);
    expect(second).toMatchObject({ cachedTokens: 3, prefillTokens: 3 });
    slots.release(0, [1, 2, 3, 9, 9, 9]);

    const same = await slots.acquire([1, 2, 3, 9, 9, 9]);
    expect(same).toMatchObject({ cachedTokens: 5, prefillTokens: 1 });
    slots.release(0, [1, 2, 3, 9, 9, 9]);
  });

  it("gives a request the idle slot with the longest shared prefix, and queues in arrival order", async () => {
    const slots = new PrefixSlots(2, () => 0);
    const a = await slots.acquire([1, 1, 1]);
    const b = await slots.acquire([2, 2, 2]);
    expect([a.slot, b.slot]).toEqual([0, 1]);
    const order: string[] = [];
    const third = slots.acquire([2, 2, 2, 5]).then((g) => {
      order.push("third");
      return g;
    });
    const fourth = slots.acquire([1, 1, 1, 5]).then((g) => {
      order.push("fourth");
      return g;
    });
    expect(slots.waiting).toBe(2);
    slots.release(0, [1, 1, 1]);
    slots.release(1, [2, 2, 2]);
    // FIFO: the third request takes slot 0 as soon as it frees (the only idle slot), the fourth
    // the next one, whatever their prefixes.
    const [g3, g4] = await Promise.all([third, fourth]);
    expect(order).toEqual(["third", "fourth"]);
    expect(g3).toMatchObject({ slot: 0, cachedTokens: 0, prefillTokens: 4 });
    expect(g4).toMatchObject({ slot: 1, cachedTokens: 0, prefillTokens: 4 });
    slots.release(0, [2, 2, 2, 5]);
    slots.release(1, [1, 1, 1, 5]);
    // Both idle: the request goes where its prefix is.
    const fifth = await slots.acquire([1, 1, 1, 5, 7]);
    expect(fifth).toMatchObject({ slot: 1, cachedTokens: 4, prefillTokens: 1 });
    expect(commonPrefix([1, 2, 3], [1, 2, 4])).toBe(2);
  });
});

describe("the peer benchmark's server", () => {
  let server: PeerServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function input(slots: number, criteria: number): Promise<PeerInput> {
    server = await startPeerServer({ slots, ...ZERO });
    const full = await peerCatalog();
    const catalog: Catalog = { ...full, criteria: full.criteria.slice(0, criteria) };
    return { url: server.url, catalog, content: await peerContent(), slots };
  }

  it("serves the same prompt twice on one slot for one token of prefill", async () => {
    server = await startPeerServer({ slots: 1, ...ZERO });
    const body = {
      model: "qwen2.5:7b-instruct",
      stream: false,
      messages: [{ role: "user", content: "Judge this.\nCriterion: Clarity\nAnswer format: JSON" }],
      format: {
        type: "object",
        properties: { reasoning: { type: "string" }, score: { type: "number" } },
      },
    };
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`${server.url}/api/chat`, {
        method: "POST",
        body: JSON.stringify(body),
      });
      const answer = (await response.json()) as { message: { content: string } };
      expect(Object.keys(JSON.parse(answer.message.content))).toEqual(["reasoning", "score"]);
    }
    const [first, second] = server.records;
    expect(server.records).toHaveLength(2);
    expect(first?.cachedTokens).toBe(0);
    expect(first?.prefillTokens).toBe(first?.promptTokens);
    expect(second?.promptTokens).toBe(first?.promptTokens);
    expect(second?.prefillTokens).toBe(1);
  });

  it("evalgate per criterion on one slot: three calls, the later ones find system prompt and content cached", async () => {
    const run = await input(1, 3);
    // As bench/peer.ts measures it: the cache of the judging calls, without the guard's call.
    const note = await evalgateSystem("t", "per-criterion", { injectionGuard: false }).run(run);
    expect(note).toBe("per-criterion, 0 groups");
    const records = server?.records ?? [];
    expect(records.map((r) => r.purpose)).toEqual(["criterion", "criterion", "criterion"]);
    expect(records.every((r) => r.stream)).toBe(true);
    expect(records[0]?.cachedTokens).toBe(0);
    const contentTokens = encode(run.content).length;
    for (const later of records.slice(1)) {
      expect(later.cachedTokens).toBeGreaterThan(contentTokens);
      expect(later.prefillTokens).toBeLessThan(later.promptTokens - contentTokens);
    }
  });

  it("evalgate grouped on two slots: two table calls; openevals: one call per criterion, criterion first", async () => {
    const run = await input(2, 4);
    // As bench/peer.ts measures it: the table calls alone, without the guard's screening line.
    expect(await evalgateSystem("t", "grouped", { injectionGuard: false }).run(run)).toBe(
      "grouped, 2 groups",
    );
    expect(server?.records.map((r) => r.purpose)).toEqual(["table", "table"]);

    server?.reset();
    await openevalsSystem("o", "parallel", openevalsPrompt).run(run);
    const records = server?.records ?? [];
    expect(records).toHaveLength(4);
    // The criterion comes before the content: a slot's cache helps with the first lines only.
    for (const record of records) expect(record.cachedTokens).toBeLessThan(40);
  });
});
