/** `evalgate evaluate` end to end: the real command in a child process, judged by the test server. */

import { existsSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_TYPE_PROMPTS } from "../../prompts/evaluation/index.js";
import { EvaluationResultSchema, TraceSchema } from "../../src/scoring/result.js";
import { decodeToon } from "../../src/toon/decode.js";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  FUNDABLE_CONTENT,
  IFB_CATALOG,
  ifbJudge,
  JUDGE_MODEL,
  judgeEnv,
  REVIEW_CONTENT,
  ROOT,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";

let server: OllamaServer;
const temp = tempFolderForFile();
let fundable: string;
let review: string;

beforeAll(async () => {
  server = await startOllamaServer({ models: [JUDGE_MODEL], responder: ifbJudge });
  fundable = await writeText(temp.dir, "fundable.md", FUNDABLE_CONTENT);
  review = await writeText(temp.dir, "review.md", REVIEW_CONTENT);
});

afterAll(async () => {
  await server?.close();
});

function evaluate(args: readonly string[]) {
  return runEvalgate(["evaluate", ...args], { env: judgeEnv(server.url) });
}

/** The chat requests whose prompt holds `marker` (each test's content has its own). */
function requestsAbout(marker: string) {
  return server
    .chatRequests()
    .filter((r) => r.messages.some((m) => m.role === "user" && m.content.includes(marker)));
}

describe.concurrent("evalgate evaluate", { timeout: SPAWN_TIMEOUT }, () => {
  it("--format json prints exactly the EvaluationResult, progress on stderr, exit 0 when it passes", async () => {
    const trace = join(temp.dir, "calls.jsonl");
    const marked = await writeText(temp.dir, "json.md", `${FUNDABLE_CONTENT}\nRun J-1.`);
    const run = await evaluate([
      marked,
      "--catalog",
      IFB_CATALOG,
      "--format",
      "json",
      "--trace",
      trace,
      "--timeout",
      "7000",
      "--content-type",
      "Budget",
    ]);

    expect(run.stderr).not.toContain("evalgate:");
    expect(run.code).toBe(0);
    // stdout is the JSON document and nothing else.
    const result = EvaluationResultSchema.parse(JSON.parse(run.stdout));
    expect(run.stdout.trim().startsWith("{")).toBe(true);
    expect(run.stdout.trim().endsWith("}")).toBe(true);

    expect(result.passed).toBe(true);
    expect(result.status).toBe("FUNDABLE");
    expect(result.nativeTotal).toBeCloseTo(4.0, 10);
    // c1 is a knockout (left out of the total); c2 = c3 = 4 on 1–5 → 0.75.
    expect(result.overallScore).toBeCloseTo(0.75, 10);
    // Passed, so the verdict is pass: the verdict never contradicts passed.
    expect(result.verdict).toBe("pass");
    expect(result.scores).toEqual({ c1: 1, c2: 0.75, c3: 0.75 });
    expect(result.criteria.map((c) => [c.id, c.method, c.native, c.met])).toEqual([
      ["c1", "check", "pass", true],
      ["c2", "score", 4, true],
      ["c3", "score", 4, true],
    ]);
    expect(result.criteria[0]?.knockout).toBe(true);
    expect(result.criteria[1]?.reasoning).toBe("A novel combination with a patent filing.");
    expect(result.notEvaluated).toEqual([]);
    expect(result.catalog).toEqual({ id: "ifb_profi", version: "1.0", name: "PROFI Standard" });
    expect(result.model).toBe(`ollama:${JUDGE_MODEL}`);
    // Three criteria and the injection guard's call on the content.
    expect(result.traces.map((t) => t.purpose).sort()).toEqual([
      "criterion",
      "criterion",
      "criterion",
      "guard",
    ]);
    expect(result.usage.totalTokens).toBe(
      result.traces.reduce((sum, t) => sum + t.usage.totalTokens, 0),
    );
    expect(result.usage.totalTokens).toBeGreaterThan(0);

    // Every call went to the test server with the content fenced into the prompt.
    expect(requestsAbout("Run J-1.")).toHaveLength(3);
    for (const request of requestsAbout("Run J-1.")) expect(request.model).toBe(JUDGE_MODEL);
    for (const call of result.traces) {
      // --timeout and the server from OLLAMA_BASE_URL reached the model (the guard's call too);
      // --content-type the judge's prompt.
      expect(call.parameters).toMatchObject({ timeoutMs: 7000, baseUrl: server.url });
      if (call.purpose === "guard") continue;
      expect(call.systemPrompt).toContain(CONTENT_TYPE_PROMPTS.budget?.guidance ?? "(none)");
    }

    // --trace: one JSONL line per model call, the same traces as the result's.
    const lines = (await readFile(trace, "utf8")).trim().split("\n");
    expect(lines).toHaveLength(4);
    const traced = lines.map((line) => TraceSchema.parse(JSON.parse(line)));
    expect(traced.map((t) => t.id).sort()).toEqual(result.traces.map((t) => t.id).sort());

    // Progress: one line per criterion on stderr (not a terminal), then the outcome.
    expect(run.stderr).toContain("evaluating 3 criteria");
    expect(run.stderr).toMatch(/\[\d\/3\] c1 Hamburg Base: pass/);
    expect(run.stderr).toMatch(/\[\d\/3\] c2 Innovation: 4 → 0\.75/);
    expect(run.stderr).toMatch(/\[\d\/3\] c3 Market: 4 → 0\.75/);
    expect(run.stderr).toContain("done: passed (overall 0.75)");
    expect(run.stderr).not.toContain("\r");
  });

  it("--format toon writes the TOON criteria dialect's results TOON, which decodes back; exit 1 when not passed", async () => {
    const run = await evaluate([review, "--catalog", IFB_CATALOG, "--format", "toon"]);
    // c2 = 4, c3 = 3: 4·0.4 + 3·0.6 = 3.4 → REVIEW_REQUIRED, not passed.
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("done: not passed");
    expect(decodeToon(run.stdout)).toEqual({
      results: [
        {
          id: "c1",
          result: "pass",
          score: null,
          reasoning: "The registered office is in Hamburg.",
        },
        {
          id: "c2",
          result: null,
          score: 4,
          reasoning: "A novel combination with a patent filing.",
        },
        { id: "c3", result: null, score: 3, reasoning: "A real need, but a niche market." },
      ],
      summary: { total_score: 3.4, status: "REVIEW_REQUIRED" },
    });
  });

  it("--format table shows every criterion with its native value, score vs threshold and met", async () => {
    const run = await evaluate([
      fundable,
      "--catalog",
      IFB_CATALOG,
      "--format",
      "table",
      "--concurrency",
      "1",
    ]);
    expect(run.code).toBe(0);
    // One criterion at a time: the progress lines come in catalog order.
    expect(run.stderr.split("\n").filter((l) => l.startsWith("["))).toEqual([
      "[1/3] c1 Hamburg Base: pass → 1.00 (threshold 0.75, met)",
      "[2/3] c2 Innovation: 4 → 0.75 (threshold 0.75, met)",
      "[3/3] c3 Market: 4 → 0.75 (threshold 0.75, met)",
    ]);
    const lines = run.stdout.split("\n");
    expect(lines[0]).toBe("Evaluation against PROFI Standard (ifb_profi 1.0)");
    expect(lines.find((l) => l.startsWith("criterion"))).toMatch(
      /^criterion\s+method\s+native\s+score \/ threshold\s+met\s+reasoning$/,
    );
    expect(lines.find((l) => l.startsWith("c1 "))).toMatch(
      /^c1 Hamburg Base \(knockout\)\s+check\s+pass\s+1\.00 \/ 0\.75\s+yes\s+The registered office is in Hamburg\.$/,
    );
    expect(lines.find((l) => l.startsWith("c2 "))).toMatch(
      /^c2 Innovation\s+score\s+4\s+0\.75 \/ 0\.75\s+yes\s+A novel combination/,
    );
    expect(lines.find((l) => l.startsWith("c3 "))).toMatch(/^c3 Market\s+score\s+4\s+0\.75/);
    expect(lines).toContain("status         FUNDABLE");
    expect(lines).toContain("passed         yes");
    expect(lines).toContain("Strengths");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(120);
  });

  it("--format md writes the same as a Markdown table", async () => {
    const run = await evaluate([review, "--catalog", IFB_CATALOG, "--format", "md"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("# Evaluation against PROFI Standard (ifb\\_profi 1.0)");
    expect(run.stdout).toContain(
      "| Criterion | Method | Native | Score | Threshold | Met | Reasoning |",
    );
    expect(run.stdout).toContain(
      "| c1 Hamburg Base (knockout) | check | pass | 1.00 | 0.75 | yes | The registered office is in Hamburg. |",
    );
    expect(run.stdout).toContain(
      "| c3 Market | score | 3 | 0.50 | 0.75 | no | A real need, but a niche market. |",
    );
    expect(run.stdout).toContain("- **status:** REVIEW\\_REQUIRED");
    expect(run.stdout).toContain("## Weaknesses");
  });

  it("--format html --out writes one self-contained file: the review page's view, a bar per criterion", async () => {
    const out = join(temp.dir, "report.html");
    const run = await evaluate([
      fundable,
      "--catalog",
      IFB_CATALOG,
      "--format",
      "html",
      "--out",
      out,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`wrote the html report to ${out}`);
    const html = await readFile(out, "utf8");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html.trimEnd().endsWith("</html>")).toBe(true);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/\b(src|href)\s*=/i);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/url\(/i);
    // The review page's score chart: one bar per criterion, each against its threshold.
    expect(html.match(/<svg class="chart"/g)).toHaveLength(1);
    expect(html.match(/<rect class="bar-(met|unmet|none)"/g)).toHaveLength(3);
    expect(html.match(/<line class="threshold"/g)).toHaveLength(3);
    for (const id of ["c1", "c2", "c3"]) expect(html).toContain(`<tr id="criterion-${id}">`);
    expect(html).toContain("The registered office is in Hamburg.");
    expect(html).toContain("patent filing");
    // No temporary file is left beside the report.
    expect((await readdir(temp.dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("--out - writes the report on stdout, as without --out, and no file named '-'", async () => {
    const run = await runEvalgate(
      [
        "evaluate",
        fundable,
        "--catalog",
        join(ROOT, IFB_CATALOG),
        "--format",
        "json",
        "--out",
        "-",
      ],
      { env: judgeEnv(server.url), cwd: temp.dir },
    );
    expect(run.stderr).not.toContain("evalgate:");
    expect(run.code).toBe(0);
    expect(EvaluationResultSchema.parse(JSON.parse(run.stdout)).passed).toBe(true);
    expect(run.stderr).not.toContain("wrote");
    expect(existsSync(join(temp.dir, "-"))).toBe(false);
  });

  it("judges a project folder on its documents: isar-robotics fails the knockout, REJECTED, exit 1", async () => {
    const run = await evaluate([
      "data/projects/isar-robotics",
      "--catalog",
      IFB_CATALOG,
      "--format",
      "json",
    ]);
    expect(run.code).toBe(1);
    const result = EvaluationResultSchema.parse(JSON.parse(run.stdout));
    expect(result.status).toBe("REJECTED");
    expect(result.passed).toBe(false);
    expect(result.verdict).toBe("fail");
    const c1 = result.criteria.find((c) => c.id === "c1");
    expect(c1).toMatchObject({ native: "fail", met: false, knockout: true });
    expect(c1?.reasoning).toBe("The documents place the company outside Hamburg.");
    // The documents were the evidence: each prompt carried retrieved source passages.
    const prompts = result.traces.filter((t) => t.purpose !== "guard").map((t) => t.userPrompt);
    expect(prompts).toHaveLength(3);
    for (const prompt of prompts) expect(prompt).toContain("<<<SOURCE DOCUMENTS id=");
    expect(prompts.some((p) => p.includes("München"))).toBe(true);
  });

  it("--mode batch judges every criterion in one call answered as a TOON table", async () => {
    const marker = await writeText(temp.dir, "batch.md", `${FUNDABLE_CONTENT}\nBatch run B-17.`);
    const run = await evaluate([
      marker,
      "--catalog",
      IFB_CATALOG,
      "--mode",
      "batch",
      "--format",
      "json",
    ]);
    expect(run.code).toBe(0);
    const result = EvaluationResultSchema.parse(JSON.parse(run.stdout));
    expect(requestsAbout("Batch run B-17.")).toHaveLength(1);
    expect(result.traces.map((t) => t.purpose)).toEqual(["batch"]);
    expect(result.scores).toEqual({ c1: 1, c2: 0.75, c3: 0.75 });
    expect(result.status).toBe("FUNDABLE");
  });

  it("--documents gives a content file retrieved source passages per criterion", async () => {
    const docs = join(temp.dir, "docs");
    await mkdir(docs, { recursive: true });
    await writeText(
      docs,
      "market.md",
      "Market study: the quay monitoring market is a niche in Europe.",
    );
    const content = await writeText(
      temp.dir,
      "no-market.md",
      "Hafen Sensorik GmbH, Hamburg. QuaySense, a patented sensing method. Market potential: see study.",
    );
    const run = await evaluate([
      content,
      "--catalog",
      IFB_CATALOG,
      "--documents",
      docs,
      "--format",
      "json",
    ]);
    expect(run.code).toBe(1);
    const result = EvaluationResultSchema.parse(JSON.parse(run.stdout));
    // The market criterion saw the study (a niche → 3) although the content file does not say so.
    const market = result.traces.find((t) => t.userPrompt.includes("Rate the market potential"));
    expect(market?.userPrompt).toContain("market.md");
    expect(result.criteria.find((c) => c.id === "c3")?.native).toBe(3);
    expect(result.status).toBe("REVIEW_REQUIRED");
  });

  it("reads a .json content file as JSON data (a schema criterion needs no model at all)", async () => {
    const catalog = await writeText(
      temp.dir,
      "shape.json",
      JSON.stringify({
        id: "budget_shape",
        name: "Budget shape",
        version: "1",
        criteria: [
          {
            id: "has_total",
            title: "Numeric total",
            description: "The budget states its total as a number.",
            weight: 1,
            method: {
              kind: "schema",
              schema: {
                type: "object",
                required: ["total"],
                properties: { total: { type: "number" } },
              },
            },
          },
        ],
      }),
    );
    const good = await writeText(temp.dir, "good-budget.json", JSON.stringify({ total: 125000 }));
    // No model is needed: the command must not even ask for one (the server URL is a closed port).
    const env = { OLLAMA_BASE_URL: "http://127.0.0.1:1", EVALGATE_MODEL: "not-pulled" };
    const run = await runEvalgate(["evaluate", good, "--catalog", catalog, "--format", "json"], {
      env,
    });
    // As text, the content would be a string and fail the object schema.
    expect(run.code).toBe(0);
    const result = EvaluationResultSchema.parse(JSON.parse(run.stdout));
    expect(result.scores).toEqual({ has_total: 1 });
    expect(result.traces).toEqual([]);
  });
});
