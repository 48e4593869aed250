import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CriteriaEngine } from "../../src/engine/apis/criteriaEngine.js";
import { EvaluationModelError, ProjectError } from "../../src/engine/errors.js";
import { createChatModel } from "../../src/llm/chatModel.js";
import { ModelUnavailableError } from "../../src/llm/errors.js";
import { decodeToon } from "../../src/toon/decode.js";
import { type RecordedMessage, ScriptedChatModel } from "../doubles/index.js";

const PROJECTS = fileURLToPath(new URL("../../data/projects/", import.meta.url));
const CATALOG = fileURLToPath(new URL("../../data/criteria/ifb_profi.toon", import.meta.url));

const SOURCES = /<<<SOURCE DOCUMENTS id=\w+>>>\n([\s\S]*?)\n<<<END SOURCE DOCUMENTS id=\w+>>>/;

/** The source passages of a judge prompt (what retrieval put in), or "" when there are none. */
function sourcesOf(user: string): string {
  return SOURCES.exec(user)?.[1] ?? "";
}

/** Whitespace runs as one space, as passages are printed. */
function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

interface Passage {
  number: number;
  file: string;
  heading: string;
  text: string;
}

/** The numbered passages of a prompt's sources: `[n] (file.md, heading) text`. */
function passagesIn(sources: string): Passage[] {
  return sources
    .split(/\n\n(?=\[\d+\] \()/)
    .filter((block) => block !== "")
    .map((block) => {
      const match = /^\[(\d+)\] \(([^,]+\.md), (.+?)\) ([\s\S]*)$/.exec(block);
      if (!match) throw new Error(`not a numbered passage: ${block.slice(0, 80)}`);
      return {
        number: Number(match[1]),
        file: match[2] ?? "",
        heading: match[3] ?? "",
        text: collapse(match[4] ?? ""),
      };
    });
}

function userPrompt(messages: readonly RecordedMessage[]): string {
  return messages.find((m) => m.role === "user")?.content ?? "";
}

/** Which ifb_profi criterion a prompt asks about. */
function criterionOf(user: string): "c1" | "c2" | "c3" | undefined {
  if (user.includes("Is the company based in Hamburg?")) return "c1";
  if (user.includes("Rate the technological innovation (1-5).")) return "c2";
  if (user.includes("Rate the market potential (1-5).")) return "c3";
  return undefined;
}

/**
 * A judge that reads its prompt: c1 passes exactly when the retrieved passages mention Hamburg,
 * c2 scores 4 and c3 scores 3 (the dialect's own example). Each answer names the first source.
 */
function reviewer(messages: RecordedMessage[]): string {
  const user = userPrompt(messages);
  const sources = sourcesOf(user);
  const cited = /\(([^,)]+\.md)/.exec(sources)?.[1] ?? "no source";
  switch (criterionOf(user)) {
    case "c1": {
      const hamburg = sources.includes("Hamburg");
      return JSON.stringify({
        reasoning: hamburg
          ? `The registered office is in Hamburg (${cited}).`
          : `The documents place the company outside Hamburg (${cited}).`,
        result: hamburg ? "pass" : "fail",
      });
    }
    case "c2":
      return JSON.stringify({
        reasoning: `Novel approach with a patent filing (${cited}).`,
        score: 4,
        hits: ["patent application"],
        misses: [],
      });
    case "c3":
      return JSON.stringify({
        reasoning: `Real need, careful bottom-up estimate (${cited}).`,
        score: 3,
        hits: ["bottom-up market size"],
        misses: ["niche market"],
      });
    default:
      throw new Error(`the test judge got a prompt for no known criterion:\n${user}`);
  }
}

function engineWith(model: ScriptedChatModel, dataDir = PROJECTS): CriteriaEngine {
  return new CriteriaEngine({ model, dataDir, concurrency: 2 });
}

describe("CriteriaEngine.evaluateProject (the TOON criteria dialect)", () => {
  it("passes the Hamburg knockout for hafen-sensorik and totals 4·0.4 + 3·0.6 = 3.4", async () => {
    const model = new ScriptedChatModel({ responder: reviewer });
    const result = await engineWith(model).evaluateProject("hafen-sensorik", CATALOG);

    const c1 = result.criteria.find((c) => c.id === "c1");
    expect(c1?.native).toBe("pass");
    expect(c1?.met).toBe(true);
    expect(result.criteria.map((c) => c.native)).toEqual(["pass", 4, 3]);
    expect(result.nativeTotal).toBeCloseTo(3.4, 10);
    expect(result.status).toBe("REVIEW_REQUIRED");
    expect(result.passed).toBe(false);
    expect(model.calls).toHaveLength(3);
  });

  it("rejects isar-robotics on the failed knockout (TC-CRI-02), whatever c2 and c3 score", async () => {
    const model = new ScriptedChatModel({ responder: reviewer });
    const result = await engineWith(model).evaluateProject("isar-robotics", CATALOG);

    const c1 = result.criteria.find((c) => c.id === "c1");
    expect(c1?.native).toBe("fail");
    expect(c1?.met).toBe(false);
    expect(result.status).toBe("REJECTED");
    expect(result.passed).toBe(false);
    expect(result.verdict).toBe("fail");
    // c2 and c3 are still scored on their merits.
    expect(result.scores.c2).toBeCloseTo(0.75, 10);
    expect(result.scores.c3).toBeCloseTo(0.5, 10);
  });

  it("gives every criterion non-empty reasoning (TC-CRI-05)", async () => {
    const model = new ScriptedChatModel({ responder: reviewer });
    const result = await engineWith(model).evaluateProject("hafen-sensorik", CATALOG);
    expect(result.criteria).toHaveLength(3);
    for (const criterion of result.criteria) {
      expect(criterion.evaluated).toBe(true);
      expect(criterion.reasoning.trim()).not.toBe("");
    }
  });

  it("puts each criterion's own retrieved passages, with source names, into its prompt", async () => {
    const model = new ScriptedChatModel({ responder: reviewer });
    await engineWith(model).evaluateProject("hafen-sensorik", CATALOG);

    const prompts = new Map(
      model.calls.map((call) => {
        const user = userPrompt(call.messages);
        return [criterionOf(user), user] as const;
      }),
    );
    expect([...prompts.keys()].sort()).toEqual(["c1", "c2", "c3"]);
    const folder = join(PROJECTS, "hafen-sensorik");
    const documents = new Map<string, string>();
    for (const name of await readdir(folder)) {
      documents.set(name, collapse(await readFile(join(folder, name), "utf8")));
    }
    const passagesOf = (id: "c1" | "c2" | "c3") => passagesIn(sourcesOf(prompts.get(id) ?? ""));

    for (const id of ["c1", "c2", "c3"] as const) {
      const passages = passagesOf(id);
      // Four passages (the default), numbered, each a verbatim piece of the document it names.
      expect(passages.map((p) => p.number)).toEqual([1, 2, 3, 4]);
      for (const passage of passages) {
        expect(documents.get(passage.file), `${id}: ${passage.file}`).toContain(passage.text);
      }
    }
    // Each criterion gets the passages that answer it, best first: the page stating the
    // registered office for "based in Hamburg?", the innovation section for the technological
    // innovation, the market analysis for the market potential.
    expect(passagesOf("c1")[0]).toMatchObject({
      file: "01-company-profile.md",
      heading: "Page 2 — Registered Office, Sites and Registration",
      text: expect.stringContaining("The company is based in Hamburg."),
    });
    expect(passagesOf("c2")[0]).toMatchObject({
      file: "02-project-description.md",
      heading: "2. The innovation",
    });
    expect(passagesOf("c3")[0]?.file).toBe("03-market-analysis.md");
    expect(passagesOf("c3")[0]?.heading).toMatch(/market/i);
  });

  it("writes the TOON criteria dialect's results TOON, which decodes back to the table and the summary", async () => {
    const model = new ScriptedChatModel({ responder: reviewer });
    const engine = engineWith(model);
    const toon = await engine.evaluateProjectToon("isar-robotics", CATALOG);
    expect(toon).toContain("results[3]{id,result,score,reasoning}:");

    const decoded = decodeToon(toon);
    expect(decoded).toEqual({
      results: [
        {
          id: "c1",
          result: "fail",
          score: null,
          reasoning: "The documents place the company outside Hamburg (01-company-profile.md).",
        },
        {
          id: "c2",
          result: null,
          score: 4,
          reasoning: expect.stringContaining("Novel approach"),
        },
        {
          id: "c3",
          result: null,
          score: 3,
          reasoning: expect.stringContaining("bottom-up"),
        },
      ],
      summary: { total_score: 3.4, status: "REJECTED" },
    });
  });

  it("appends every model call to the trace file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "evalgate-trace-"));
    try {
      const traceFile = join(dir, "traces.jsonl");
      const model = new ScriptedChatModel({ responder: reviewer });
      const engine = new CriteriaEngine({ model, dataDir: PROJECTS, traceFile });
      const result = await engine.evaluateProject("hafen-sensorik", CATALOG);
      const lines = (await readFile(traceFile, "utf8")).trim().split("\n");
      const traced = lines.map(
        (line) => JSON.parse(line) as { userPrompt: string; id: string; purpose: string },
      );
      expect(traced.map((t) => t.id).sort()).toEqual(result.traces.map((t) => t.id).sort());
      // Three criteria, and the injection guard's call for each of the project's four documents.
      const judging = traced.filter((t) => t.purpose !== "guard");
      expect(judging).toHaveLength(3);
      expect(traced.filter((t) => t.purpose === "guard")).toHaveLength(4);
      expect(judging.every((t) => t.userPrompt.includes("<<<SOURCE DOCUMENTS"))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("CriteriaEngine with a project whose documents miss criteria (TC-CRI-06)", () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "evalgate-projects-"));
    const project = join(dataDir, "optics-lab");
    await mkdir(project);
    await writeFile(
      join(project, "01-technology.md"),
      [
        "# Technology",
        "",
        "The prototype applies a technological innovation: a self-calibrating optical sensor",
        "that corrects its own drift with a reference laser, measured in the laboratory over",
        "six months of continuous operation.",
      ].join("\n"),
    );
    await mkdir(join(dataDir, "empty-project"));
    await writeFile(join(dataDir, "empty-project", "notes.csv"), "a,b\n1,2\n");
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("answers 'Insufficient Information' without a model call where nothing is relevant", async () => {
    const model = new ScriptedChatModel({ responder: reviewer });
    const result = await engineWith(model, dataDir).evaluateProject("optics-lab", CATALOG);

    // Only c2 (innovation) had a relevant passage, so only c2 reached the model.
    expect(model.calls).toHaveLength(1);
    expect(criterionOf(userPrompt(model.calls[0]?.messages ?? []))).toBe("c2");

    for (const id of ["c1", "c3"]) {
      const criterion = result.criteria.find((c) => c.id === id);
      expect(criterion?.evaluated).toBe(false);
      expect(criterion?.score).toBeNull();
      expect(criterion?.reasoning).toBe("Insufficient Information");
      expect(criterion?.judgeError).toMatch(/^Insufficient Information/);
    }
    expect(result.criteria.find((c) => c.id === "c2")?.native).toBe(4);
    expect(result.notEvaluated.sort()).toEqual(["c1", "c3"]);
    expect(result.passed).toBe(false);
    expect(result.status).not.toBe("FUNDABLE");
  });

  it("names the folder tried for an unknown project", async () => {
    const engine = engineWith(new ScriptedChatModel({ responder: reviewer }), dataDir);
    const error = await engine.evaluateProject("no-such-project", CATALOG).catch((e) => e);
    expect(error).toBeInstanceOf(ProjectError);
    expect(error.code).toBe("PROJECT_NOT_FOUND");
    expect(error.folder).toBe(join(dataDir, "no-such-project"));
    expect(error.message).toContain(join(dataDir, "no-such-project"));
  });

  it("refuses a project folder without documents, and ids that are paths", async () => {
    const engine = engineWith(new ScriptedChatModel({ responder: reviewer }), dataDir);
    await expect(engine.evaluateProject("empty-project", CATALOG)).rejects.toMatchObject({
      code: "PROJECT_EMPTY",
    });
    for (const id of ["../optics-lab", "optics-lab/..", "", ".."]) {
      await expect(engine.evaluateProject(id, CATALOG)).rejects.toMatchObject({
        code: "PROJECT_ID_INVALID",
      });
    }
  });

  it("throws a typed model error when the judge cannot be reached at all", async () => {
    const down = new ScriptedChatModel({
      responder: () => {
        throw new ModelUnavailableError("connection-refused", "connect ECONNREFUSED", {
          provider: "scripted",
        });
      },
    });
    const model = createChatModel(down, { maxRetries: 0 });
    const engine = new CriteriaEngine({ model, dataDir: PROJECTS });
    await expect(engine.evaluateProject("hafen-sensorik", CATALOG)).rejects.toBeInstanceOf(
      EvaluationModelError,
    );
  });
});

describe("CriteriaEngine.evaluateCriterion (the TOON criteria dialect's _evaluate_criterion)", () => {
  const knockout = {
    id: "c1",
    title: "Hamburg Base",
    description: "Is the company based in Hamburg?",
    weight: 1,
    knockout: true,
    method: { kind: "check" as const },
  };

  it("judges one criterion on the given context and records the call", async () => {
    const model = new ScriptedChatModel({ responder: reviewer });
    const engine = engineWith(model);
    const result = await engine.evaluateCriterion(
      knockout,
      "[1] (profile.md, Page 2) Registered office: Am Sandtorkai 62, 20457 Hamburg.",
    );
    expect(result.native).toBe("pass");
    expect(result.met).toBe(true);
    expect(result.reasoning).toContain("profile.md");
    // The criterion's call, and the injection guard's call on the context it was given.
    expect(result.traces.map((t) => t.purpose).sort()).toEqual(["criterion", "guard"]);
    expect(result.traces.find((t) => t.purpose === "criterion")?.userPrompt).toContain(
      "20457 Hamburg",
    );
  });

  it("answers 'Insufficient Information' for an empty context, without a model call", async () => {
    const model = new ScriptedChatModel({ responder: reviewer });
    const result = await engineWith(model).evaluateCriterion(knockout, "  ");
    expect(model.calls).toHaveLength(0);
    expect(result.evaluated).toBe(false);
    expect(result.reasoning).toBe("Insufficient Information");
    expect(result.traces).toEqual([]);
  });

  it("runs a deterministic criterion on the context text", async () => {
    const model = new ScriptedChatModel({ responder: reviewer });
    const result = await engineWith(model).evaluateCriterion(
      {
        id: "mentions-port",
        title: "Mentions the port",
        description: "The passages mention the port",
        weight: 1,
        method: { kind: "function", name: "contains", args: "Port of Hamburg" },
      },
      "Tests run at the pilot quay in the Port of Hamburg.",
    );
    expect(model.calls).toHaveLength(0);
    expect(result.evaluated).toBe(true);
    expect(result.score).toBe(1);
  });

  it("judges a criterion that counts for nothing in its catalog (weight 0), as evaluateContent does", async () => {
    const result = await engineWith(new ScriptedChatModel()).evaluateCriterion(
      {
        id: "mentions-port",
        title: "Mentions the port",
        description: "The passages mention the port",
        weight: 0,
        method: { kind: "function", name: "contains", args: "Port of Hamburg" },
      },
      "Tests run at the pilot quay in the Port of Hamburg.",
    );
    expect(result.evaluated).toBe(true);
    expect(result.score).toBe(1);
    expect(result.weight).toBe(0);
  });
});
