/** `evalgate evaluate --judge … --judge …`: a panel over the Ollama protocol, in a child process. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EvaluationResultSchema } from "../../src/scoring/result.js";
import { type OllamaChatRequest, type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  FUNDABLE_CONTENT,
  IFB_CATALOG,
  ifbJudge,
  judgeEnv,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolder,
  writeText,
} from "./helpers.js";

const MODELS = ["judge-a", "judge-b", "judge-c"];
const MADE_UP = "signed letters of intent with 12 councils";

/**
 * Three judges on the IFB catalog: all pass c1 (a quotes the address, c a sentence the content
 * does not have); c2 innovation a 4, b 4, c 1; c3 market 4 from each.
 */
function panelJudge(request: OllamaChatRequest): string {
  const answer = JSON.parse(ifbJudge(request)) as Record<string, unknown>;
  if ("result" in answer) {
    if (request.model === "judge-a") answer.quotes = ["Am Sandtorkai 62, 20457 Hamburg"];
    if (request.model === "judge-c") answer.quotes = [MADE_UP];
  } else if (String(answer.reasoning).includes("patent") && request.model === "judge-c") {
    answer.score = 1;
  }
  return JSON.stringify(answer);
}

let server: OllamaServer;
let temp: Awaited<ReturnType<typeof tempFolder>>;
let content: string;

beforeAll(async () => {
  server = await startOllamaServer({ models: MODELS, responder: panelJudge });
  temp = await tempFolder();
  content = await writeText(temp.dir, "fundable.md", FUNDABLE_CONTENT);
});

afterAll(async () => {
  await server?.close();
  await temp?.remove();
});

const judges = MODELS.flatMap((m) => ["--judge", `ollama:${m}`]);

function evaluate(args: readonly string[]) {
  return runEvalgate(["evaluate", content, "--catalog", IFB_CATALOG, ...judges, ...args], {
    env: judgeEnv(server.url),
  });
}

describe.concurrent("evalgate evaluate with a panel", { timeout: SPAWN_TIMEOUT }, () => {
  it("--format json: every judge answers every criterion; the median scores; disagreement holds it", async () => {
    const run = await evaluate(["--format", "json", "--min-agreement", "0.5"]);
    expect(run.stderr).not.toContain("evalgate:");
    const result = EvaluationResultSchema.parse(JSON.parse(run.stdout));
    expect(result.panel?.judges).toEqual(MODELS.map((m) => `ollama:${m}`));
    // `model` names the whole panel, in the order the --judge options gave it.
    expect(result.model).toBe("ollama:judge-a, ollama:judge-b, ollama:judge-c");
    // c2: 4, 4, 1 → median 4; on 1–5, D_o = 4·9/6 = 6, D_e = 4 → 1 − 1.5 = −0.5.
    const c2 = result.criteria.find((c) => c.id === "c2");
    expect(c2?.native).toBe(4);
    expect(c2?.panel?.agreement).toBe(-0.5);
    expect(result.passed).toBe(false);
    expect(result.status).toBe("REVIEW_REQUIRED");
    expect(result.humanReviewReasons).toContain(
      "criterion c2: the judges disagree (agreement -0.5 < 0.5: ollama:judge-a 4, ollama:judge-b 4, ollama:judge-c 1)",
    );
    // c1: one quote found (judge a), the made-up one flagged; the pass is supported.
    const c1 = result.criteria.find((c) => c.id === "c1");
    expect(c1?.quotes?.map((q) => [q.judge, q.verified])).toEqual([
      ["ollama:judge-a", true],
      ["ollama:judge-c", false],
    ]);
    expect(result.evidence).toEqual({ quotes: 2, verified: 1, unverified: 1 });
    expect(run.code).toBe(1);
  });

  it("--format table shows the panel, its agreement and the quotes found and not found", async () => {
    const run = await evaluate(["--format", "table"]);
    expect(run.stdout).toMatch(
      /panel\s+ollama:judge-a, ollama:judge-b, ollama:judge-c \(median; agreement α /,
    );
    expect(run.stdout).toMatch(/quotes\s+1 of 2 found in the content \(1 not found\)/);
    expect(run.stdout).toContain(
      "c2: ollama:judge-a 4, ollama:judge-b 4, ollama:judge-c 1 — median; agreement -0.5 (interval)",
    );
    expect(run.stdout).toContain(`c1: NOT FOUND in the content (similarity`);
    expect(run.stdout).toContain(`(ollama:judge-c): "${MADE_UP}"`);
    expect(run.stdout).toContain('c1: found (ollama:judge-a): "Am Sandtorkai 62, 20457 Hamburg"');
  });

  it("--format junit and table name every judge as the model, not the first alone", async () => {
    const [junit, table] = await Promise.all([
      evaluate(["--format", "junit"]),
      evaluate(["--format", "table"]),
    ]);
    expect(junit.stdout).toContain(
      '<property name="model" value="ollama:judge-a, ollama:judge-b, ollama:judge-c"/>',
    );
    expect(junit.stdout.match(/<property name="model"/g)).toHaveLength(1);
    expect(table.stdout).toMatch(/^model\s+ollama:judge-a, ollama:judge-b, ollama:judge-c$/m);
  });

  it("--format html and md carry the same figures", async () => {
    const [html, md] = await Promise.all([
      evaluate(["--format", "html"]),
      evaluate(["--format", "md"]),
    ]);
    expect(md.stdout).toContain(
      "ollama:judge-a, ollama:judge-b, ollama:judge-c (median; agreement α",
    );
    expect(md.stdout).toContain("1 of 2 found in the content (1 not found)");
    // The HTML report words them as the review page does.
    expect(html.stdout).toContain(
      "Panel of 3 (ollama:judge-a, ollama:judge-b, ollama:judge-c), median: agreement α",
    );
    expect(html.stdout).toContain("Quotes: 1 of 2 found in the content, 1 not found");
    for (const run of [html, md]) expect(run.stdout).toContain("NOT FOUND in the content");
    expect(html.stdout).toContain('<ul class="quotes">');
  });

  it("a panel of one, a judge named twice, and --min-agreement or --aggregate without a panel, are refused (exit 2)", async () => {
    const run = (args: readonly string[]) =>
      runEvalgate(["evaluate", content, "--catalog", IFB_CATALOG, ...args], {
        env: judgeEnv(server.url),
      });
    const [one, model, aggregate, twice] = await Promise.all([
      run(["--judge", "ollama:judge-a", "--min-agreement", "0.9"]),
      run(["--model", "ollama:judge-a", "--min-agreement", "0.9"]),
      run(["--aggregate", "mean"]),
      run(["--judge", "ollama:judge-a", "--judge", "ollama:judge-b", "--judge", "ollama:judge-a"]),
    ]);
    expect(one.stderr).toContain("a panel needs two or more --judge");
    expect(twice.stderr).toContain("--judge ollama:judge-a is given twice");
    for (const refused of [model, aggregate]) {
      expect(refused.stderr).toContain("--aggregate and --min-agreement set up a panel");
    }
    for (const refused of [one, model, aggregate, twice]) expect(refused.code).toBe(2);
  });

  it("--db: a second run counts its cache hits against the panel's answers, not the criteria", async () => {
    const db = ["--db", `${temp.dir}/panel-cache.sqlite`, "--format", "table"];
    const first = await evaluate(db);
    expect(first.stdout).not.toContain("cache hits");
    const second = await evaluate(db);
    // 3 judges × 3 criteria = 9 answers, each kept by the first run.
    expect(second.stdout).toMatch(/^cache hits\s+9 of 9 panel answers$/m);
  });

  it("--judge and --model together are refused (exit 2)", async () => {
    const run = await evaluate(["--model", "ollama:judge-a"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("give either --model or --judge");
  });
});
