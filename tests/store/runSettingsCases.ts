/**
 * Run settings kept with each thread, on either database: written in the transaction that records
 * the thread (many threads created at once from two connections each keep theirs), replaced as a
 * whole, and imported from an earlier version's file only where a thread has none.
 */
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import type { ReviewStore } from "../../src/store/reviewStore.js";

export function runSettingsCases(stores: () => [ReviewStore, ReviewStore]) {
  it("keeps each thread's run settings, written with the thread, from two connections at once", async () => {
    const [a, b] = stores();
    const ids = Array.from({ length: 12 }, () => randomUUID());
    await Promise.all(
      ids.map((id, i) =>
        (i % 2 === 0 ? a : b).createThread(
          {
            id,
            title: `thread ${i}`,
            creator: "cli",
            status: "queued",
            settings: {},
            runSettings: { model: `ollama:m${i}`, startedAt: "t" },
          },
          { type: "queued" },
        ),
      ),
    );
    const kept = await Promise.all(ids.map((id) => b.runSettings(id)));
    expect(kept.map((s) => s?.model)).toEqual(ids.map((_, i) => `ollama:m${i}`));
    expect(await a.runSettings(randomUUID())).toBeUndefined();
  });

  it("replaces a thread's settings as a whole; an import adds only what is missing", async () => {
    const [a, b] = stores();
    const [kept, imported] = [randomUUID(), randomUUID()];
    await a.saveRunSettings(kept, { model: "ollama:first", maxRevisions: 1, startedAt: "t" });
    await b.saveRunSettings(kept, { model: "ollama:again", startedAt: "t" });
    expect(await a.runSettings(kept)).toEqual({ model: "ollama:again", startedAt: "t" });
    const added = await a.importRunSettings([
      [kept, { model: "ollama:from-file", startedAt: "t0" }],
      [imported, { model: "ollama:from-file", startedAt: "t0" }],
    ]);
    expect(added).toBe(1);
    expect((await b.runSettings(kept))?.model).toBe("ollama:again");
    expect((await b.runSettings(imported))?.model).toBe("ollama:from-file");
  });
}
