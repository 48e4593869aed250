import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { judgeBudget } from "../../docs/examples/evaluateContent.js";
import { gatedSection } from "../../docs/examples/evaluationStage.js";
import { reviewService } from "../../docs/examples/orchestrator.js";
import { checkDrafts } from "../../docs/examples/sideBySideGates.js";
import { publishApproved } from "../../docs/examples/typedPipeline.js";
import { ScriptedChatModel } from "../doubles/index.js";
import { judgeResponder } from "../graph/helpers.js";
import { documentationFiles } from "./docSamples.js";

const root = join(import.meta.dirname, "../..");
const examplesDir = join(root, "docs/examples");
const dir = mkdtempSync(join(tmpdir(), "evalgate-examples-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
vi.spyOn(console, "log").mockImplementation(() => {});

describe("the documented examples run as written", () => {
  it("evaluateContent alone", async () => {
    const model = new ScriptedChatModel({ responder: judgeResponder(0.9) });
    const result = await judgeBudget(
      "Personnel $120,000; equipment $30,000; total $150,000.",
      model,
    );
    expect(result.passed).toBe(true);
    expect(model.calls.length).toBe(result.criteria.length);
  });

  it("addEvaluationStage in your own graph", async () => {
    const model = new ScriptedChatModel({ responder: judgeResponder(0.9) });
    const final = await gatedSection(model);
    expect(final.sections.methodology?.status).toBe("approved");
  });

  it("a typed pipeline of its own state embeds the gate as a subgraph (withEvaluationGate)", async () => {
    const judge = new ScriptedChatModel({ responder: judgeResponder(0.9) });
    const drafts: string[] = [];
    const write = async (topic: string, feedback: string | undefined) => {
      const draft = `Flooding displaced 1,240 households (County report, p. 4): ${topic}.${feedback ?? ""}`;
      drafts.push(draft);
      return draft;
    };
    const published = await publishApproved(write, judge);
    expect(drafts).toHaveLength(1);
    expect(published).toBe(drafts[0]);
    expect(judge.calls.length).toBeGreaterThan(0);
  });

  it("two gates side by side in node functions that pass their config on as is", async () => {
    const judge = new ScriptedChatModel({ responder: judgeResponder(0.9) });
    const done = await checkDrafts(
      "Flooding displaced 1,240 households in 2024 (County report, p. 4).",
      "Personnel $120,000; equipment $30,000; total $150,000.",
      judge,
    );
    expect(done).toMatchObject({ problemStatus: "approved", budgetStatus: "approved" });
    expect(judge.calls.length).toBeGreaterThan(0);
  });

  it("the orchestrator as a service", async () => {
    const model = new ScriptedChatModel({ responder: judgeResponder(0.9) });
    const done = await reviewService(model, join(dir, "checkpoints.sqlite"));
    expect(done.state).toBe("completed");
  });
});

describe("README and docs quote the examples exactly", () => {
  const docs = documentationFiles(root).map((doc) => readFileSync(join(root, doc), "utf8"));
  it.each(readdirSync(examplesDir).filter((f) => f.endsWith(".ts")))("%s", (file) => {
    const source = readFileSync(join(examplesDir, file), "utf8").trim();
    expect(docs.some((doc) => doc.includes(source))).toBe(true);
  });
});
