import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Annotation, Command, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProcessingStatus } from "../../src/graph/model.js";
import { PACKAGE_ROOT } from "../../src/graph/proposalConfig.js";
import * as studio from "../../src/graph/studio.js";
import { evaluation, proposal } from "../../src/graph/studio.js";
import type { EvaluationResult } from "../../src/scoring/result.js";
import { ollamaProposalResponder } from "../devserver/proposalResponder.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import { parseLanggraphConfig, studioSchemas } from "./langgraphTooling.js";

const CONFIG_FILE = join(PACKAGE_ROOT, "langgraph.json");
const PROBLEM = "Flooding in Calder Bay displaced 1,240 households in 2024 (County report, p. 4).";

function graphSpecs(config: unknown): Record<string, string> {
  const graphs = (config as { graphs: Record<string, string | { path: string }> }).graphs;
  return Object.fromEntries(
    Object.entries(graphs).map(([id, spec]) => [id, typeof spec === "string" ? spec : spec.path]),
  );
}

/** The drawn graph as Studio receives it (`GET /assistants/:id/graph`). */
interface DrawnGraph {
  nodes: Array<{ id: string }>;
  edges: Array<{ source: string; target: string; conditional?: boolean }>;
}

/** A compiled graph as the API server recognises one (it reads `builder`). */
function isCompiledGraph(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    "builder" in value &&
    typeof (value as { invoke?: unknown }).invoke === "function"
  );
}

describe("langgraph.json", () => {
  it("is accepted by the LangGraph CLI and names Node 20", async () => {
    const config = await parseLanggraphConfig(readFileSync(CONFIG_FILE, "utf8"));
    expect(config).toMatchObject({ node_version: "20" });
    expect(Object.keys(graphSpecs(config))).toContain("evaluation");
  });

  it("points every graph at a compiled graph without a checkpointer, exactly those studio.ts exports", async () => {
    const config = await parseLanggraphConfig(readFileSync(CONFIG_FILE, "utf8"));
    const specs = graphSpecs(config);
    for (const [id, spec] of Object.entries(specs)) {
      // The API server splits the spec the same way: "<file>:<export>".
      const [file = "", exportName = "default"] = spec.split(":", 2);
      const path = resolve(PACKAGE_ROOT, file);
      expect(existsSync(path), `${id}: ${path}`).toBe(true);
      const mod: Record<string, unknown> = await import(path);
      const graph = mod[exportName];
      expect(isCompiledGraph(graph), `${id}: ${spec} is a compiled graph`).toBe(true);
      // The dev server attaches its own checkpointer to each run.
      expect((graph as { checkpointer?: unknown }).checkpointer, id).toBeUndefined();
    }
    const exported = Object.entries(studio)
      .filter(([, value]) => isCompiledGraph(value))
      .map(([name]) => name);
    expect(Object.keys(specs).sort()).toEqual(exported.sort());
  });

  it("names an env file only when one exists", async () => {
    const raw: unknown = JSON.parse(readFileSync(CONFIG_FILE, "utf8"));
    const env = (raw as { env?: unknown }).env;
    if (typeof env === "string") expect(existsSync(resolve(PACKAGE_ROOT, env))).toBe(true);
    else expect(env).toBeUndefined();
  });
});

async function drawnEdges(graph: typeof evaluation | typeof proposal): Promise<string[]> {
  const drawn = (await graph.getGraphAsync()).toJSON() as DrawnGraph;
  return drawn.edges.map((e) => `${e.source}->${e.target}`);
}

describe.each([
  ["evaluation", evaluation],
  ["proposal", proposal],
] as const)("the %s graph's run context in Studio", (_name, graph) => {
  it("is the context schema: model, passingThreshold, maxRevisions, mode", async () => {
    const schemas = await studioSchemas(graph);
    const context = schemas?.config;
    expect(Object.keys(context?.properties ?? {}).sort()).toEqual([
      "maxRevisions",
      "mode",
      "model",
      "passingThreshold",
    ]);
    expect(context?.properties?.model).toMatchObject({ type: "string" });
    expect(context?.properties?.passingThreshold).toMatchObject({
      type: "number",
      minimum: 0,
      maximum: 1,
    });
    expect(context?.properties?.maxRevisions).toMatchObject({ type: "integer", minimum: 0 });
    expect(context?.properties?.mode).toMatchObject({
      enum: ["auto", "per-criterion", "grouped", "batch"],
    });
  });
});

describe("the evaluation graph Studio loads", () => {
  it("exposes its input schema (content, contentType, criteriaPath) for Studio's input form", async () => {
    // The dev server uses this runtime extraction whenever it finds anything (here: the context),
    // and only otherwise parses the TypeScript source; so the input schema must come from it too.
    const schemas = await studioSchemas(evaluation);
    expect(Object.keys(schemas?.input?.properties ?? {}).sort()).toEqual([
      "content",
      "contentType",
      "criteriaPath",
    ]);
  });

  it("draws every edge: startEvaluate→evaluate→review, review→startEvaluate, review→__end__", async () => {
    const edges = await drawnEdges(evaluation);
    expect(edges).toEqual(
      expect.arrayContaining([
        "__start__->startEvaluate",
        "startEvaluate->evaluate",
        "evaluate->review",
        "evaluate->__end__",
        "review->startEvaluate",
        "review->__end__",
      ]),
    );
    const drawn = (await evaluation.getGraphAsync()).toJSON() as DrawnGraph;
    expect(drawn.nodes.map((n) => n.id).sort()).toEqual([
      "__end__",
      "__start__",
      "evaluate",
      "review",
      "startEvaluate",
    ]);
  });
});

describe("the proposal graph Studio loads", () => {
  it("exposes its input schema (the RFP and the applicant's input) for Studio's input form", async () => {
    const schemas = await studioSchemas(proposal);
    expect(Object.keys(schemas?.input?.properties ?? {})).toEqual(
      expect.arrayContaining(["rfpDocument", "applicantInput"]),
    );
  });

  it("draws every stage's loop: generate→startEvaluate→evaluate→review, review→generate, review→startEvaluate", async () => {
    const edges = await drawnEdges(proposal);
    // The stages in order: research, solution, connection pairs, then the sections of
    // config/proposal.json (problem statement, methodology, budget, timeline, conclusion).
    const stages = [
      "Research",
      "Solution",
      "ConnectionPairs",
      "ProblemStatement",
      "Methodology",
      "Budget",
      "Timeline",
      "Conclusion",
    ];
    const expected = [
      "__start__->loadRfp",
      "loadRfp->generateResearch",
      "reviewConclusion->__end__",
      ...stages.flatMap((stage) => [
        `generate${stage}->startEvaluate${stage}`,
        `startEvaluate${stage}->evaluate${stage}`,
        `evaluate${stage}->review${stage}`,
        `review${stage}->generate${stage}`,
        `review${stage}->startEvaluate${stage}`,
      ]),
      ...stages.slice(1).map((stage, i) => `review${stages[i]}->generate${stage}`),
    ];
    expect(edges).toEqual(expect.arrayContaining(expected));
    const drawn = (await proposal.getGraphAsync()).toJSON() as DrawnGraph;
    expect(drawn.nodes.map((n) => n.id).sort()).toEqual(
      [
        "__start__",
        "__end__",
        "loadRfp",
        ...stages.flatMap((stage) => [
          `generate${stage}`,
          `startEvaluate${stage}`,
          `evaluate${stage}`,
          `review${stage}`,
        ]),
      ].sort(),
    );
  });
});

describe("the evaluation graph's model comes from the environment", () => {
  const saved = { model: process.env.EVALGATE_MODEL, url: process.env.OLLAMA_BASE_URL };
  let ollama: OllamaServer;

  beforeAll(async () => {
    ollama = await startOllamaServer({
      models: ["studio-judge:1b"],
      responder: ollamaProposalResponder(0.85),
    });
    process.env.EVALGATE_MODEL = "studio-judge:1b";
    process.env.OLLAMA_BASE_URL = ollama.url;
  });
  afterAll(async () => {
    for (const [key, value] of [
      ["EVALGATE_MODEL", saved.model],
      ["OLLAMA_BASE_URL", saved.url],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await ollama?.close();
  });

  it("judges with EVALGATE_MODEL on OLLAMA_BASE_URL at temperature 0.1, under a host's checkpointer", async () => {
    // As the dev server runs it: with a checkpointer from outside (here a parent graph's).
    const Host = Annotation.Root({
      content: Annotation<unknown>(),
      contentType: Annotation<string>(),
      status: Annotation<ProcessingStatus>(),
      evaluation: Annotation<EvaluationResult | null | undefined>(),
    });
    const host = new StateGraph(Host)
      .addNode("gate", evaluation)
      .addEdge(START, "gate")
      .addEdge("gate", END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "studio-env" } };
    await host.invoke({ content: PROBLEM, contentType: "problem_statement" }, config);
    const chats = ollama.chatRequests();
    expect(chats).toHaveLength(5);
    for (const chat of chats) {
      expect(chat.model).toBe("studio-judge:1b");
      expect(chat.options?.temperature).toBe(0.1);
    }
    const done = await host.invoke(new Command({ resume: { action: "approve" } }), config);
    expect(done.status).toBe("approved");
    expect(done.evaluation?.overallScore).toBe(0.85);
    expect(ollama.chatRequests()).toHaveLength(5);
  });
});
