/** The gate's criteriaPath input comes from any client: it names a file in the criteria folders only. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySaver } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { buildEvaluationGraph } from "../../src/graph/evaluationGraph.js";
import { scoringJudge } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "evalgate-criteria-input-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const outsideCatalog = join(dir, "outside.json");
writeFileSync(
  outsideCatalog,
  JSON.stringify({
    id: "outside",
    name: "Outside",
    version: "1.0.0",
    criteria: [{ id: "a", name: "A", description: "Is it there?", weight: 1 }],
  }),
);

async function runGate(criteriaPath: string, thread: string) {
  const model = scoringJudge();
  const graph = buildEvaluationGraph({ model }).compile({ checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: thread } };
  await graph.invoke(
    { content: "Flood resilience notes.", contentType: "research", criteriaPath },
    config,
  );
  const state = await graph.getState(config);
  return { model, values: state.values };
}

describe("the evaluation graph's criteriaPath input", () => {
  for (const [name, criteriaPath] of [
    ["an absolute path", outsideCatalog],
    ["/etc/passwd", "/etc/passwd"],
    ["a ../ path", "../../../../../../../../etc/passwd"],
  ] as const) {
    it(`${name} is refused without a judge call or reading the file`, async () => {
      const { model, values } = await runGate(criteriaPath, `t-${name}`);
      expect(model.calls).toHaveLength(0);
      expect(values.status).toBe("error");
      expect(values.interruptMetadata?.type).toBe("evaluation_error");
      const shown = JSON.stringify(values);
      expect(shown).toContain("criteria folder");
      expect(shown).not.toContain("root:");
    });
  }

  it("a file name in the criteria folders is used", async () => {
    const { model, values } = await runGate("budget.json", "t-ok");
    expect(model.calls.length).toBeGreaterThan(0);
    expect(values.evaluation?.catalog?.id).toBe("budget");
  });
});
