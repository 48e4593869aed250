import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Annotation,
  type BaseCheckpointSaver,
  Command,
  END,
  interrupt,
  MemorySaver,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { createCheckpointer } from "../../src/orchestrator/checkpointer.js";
import { pausedInterruptIds } from "../../src/orchestrator/pendingReview.js";
import { CrashingSaver } from "./crashingSaver.js";

const State = Annotation.Root({
  answers: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
});

/** Two nodes that each pause for an answer, one after the other. */
function twoQuestions(saver: BaseCheckpointSaver) {
  return new StateGraph(State)
    .addNode("first", () => ({ answers: [interrupt({ ask: "first" }) as string] }))
    .addNode("second", () => ({ answers: [interrupt({ ask: "second" }) as string] }))
    .addEdge(START, "first")
    .addEdge("first", "second")
    .addEdge("second", END)
    .compile({ checkpointer: saver });
}

/** The interrupt ids LangGraph's own snapshot shows for the thread. */
async function snapshotIds(graph: ReturnType<typeof twoQuestions>, threadId: string) {
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  return snapshot.tasks.flatMap((t) => t.interrupts.map((i) => i.id));
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function sqliteSaver() {
  const dir = mkdtempSync(join(tmpdir(), "evalgate-paused-"));
  dirs.push(dir);
  return createCheckpointer({ sqlitePath: join(dir, "c.sqlite"), env: {} });
}

describe.each([
  ["SQLite (the interrupt writes alone)", async () => sqliteSaver()],
  [
    "another saver (the latest tuple)",
    async () => ({ saver: new MemorySaver(), close: async () => {} }),
  ],
])("pausedInterruptIds on %s", (_name, open) => {
  it("names the interrupts getState shows, through a thread's life", async () => {
    const checkpointer = await open();
    try {
      const graph = twoQuestions(checkpointer.saver);
      const config = { configurable: { thread_id: "t1" } };
      expect(await pausedInterruptIds(checkpointer.saver, "t1")).toBeUndefined();
      await graph.invoke({ answers: [] }, config);
      const first = await snapshotIds(graph, "t1");
      expect(first).toHaveLength(1);
      expect(await pausedInterruptIds(checkpointer.saver, "t1")).toEqual(first);
      await graph.invoke(new Command({ resume: "one" }), config);
      const second = await snapshotIds(graph, "t1");
      expect(second).toHaveLength(1);
      expect(second).not.toEqual(first);
      expect(await pausedInterruptIds(checkpointer.saver, "t1")).toEqual(second);
      const done = await graph.invoke(new Command({ resume: "two" }), config);
      expect(done.answers).toEqual(["one", "two"]);
      expect(await snapshotIds(graph, "t1")).toEqual([]);
      expect(await pausedInterruptIds(checkpointer.saver, "t1")).toEqual([]);
      expect(await pausedInterruptIds(checkpointer.saver, "another thread")).toBeUndefined();
    } finally {
      await checkpointer.close();
    }
  });
});

/** A memory saver whose checkpoints stop being saved once `dying` is set (the writes go on). */
class DyingMemorySaver extends MemorySaver {
  dying = false;
  override put(...args: Parameters<MemorySaver["put"]>) {
    return this.dying
      ? new Promise<Awaited<ReturnType<MemorySaver["put"]>>>(() => undefined)
      : super.put(...args);
  }
}

describe("an interrupt answered before the next checkpoint was saved", () => {
  /** Pauses at the first question, answers it, and lets the process die at the next checkpoint. */
  async function answeredThenDied(graph: ReturnType<typeof twoQuestions>, die: () => void) {
    const config = { configurable: { thread_id: "t2" } };
    await graph.invoke({ answers: [] }, config);
    const [first] = await snapshotIds(graph, "t2");
    die();
    void graph.invoke(new Command({ resume: "one" }), config).catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    return first;
  }

  /** What a new process reads, then its run on: the second question, the answer kept once. */
  async function readAndRunOn(saver: BaseCheckpointSaver, first: string | undefined) {
    const graph = twoQuestions(saver);
    const config = { configurable: { thread_id: "t2" } };
    const stranded = await graph.getState(config);
    expect(stranded.next).toEqual([]);
    expect(stranded.tasks.flatMap((t) => t.interrupts.map((i) => i.id))).toEqual([first]);
    expect(await pausedInterruptIds(saver, "t2")).toEqual([]);
    await graph.invoke(null, config);
    const second = await snapshotIds(graph, "t2");
    expect(second).toHaveLength(1);
    expect(second).not.toEqual([first]);
    expect(await pausedInterruptIds(saver, "t2")).toEqual(second);
    expect((await graph.getState(config)).values.answers).toEqual(["one"]);
  }

  it("is not waited on, on SQLite (the interrupt writes alone)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "evalgate-paused-"));
    dirs.push(dir);
    const path = join(dir, "c.sqlite");
    let armed = false;
    const dying = new CrashingSaver(path, (write) => armed && write.kind === "put");
    const first = await answeredThenDied(twoQuestions(dying), () => {
      armed = true;
    });
    await dying.crashed;
    dying.close();
    const next = await createCheckpointer({ sqlitePath: path, env: {} });
    try {
      await readAndRunOn(next.saver, first);
    } finally {
      await next.close();
    }
  });

  it("is not waited on, on another saver (the latest tuple)", async () => {
    const saver = new DyingMemorySaver();
    const first = await answeredThenDied(twoQuestions(saver), () => {
      saver.dying = true;
    });
    saver.dying = false;
    await readAndRunOn(saver, first);
  });
});
