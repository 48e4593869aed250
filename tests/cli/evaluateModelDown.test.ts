/**
 * `evalgate evaluate` when the judge model goes down during the run: the report is still written
 * (every format) with the files evaluated so far — the failing file's deterministic criteria with
 * their scores, its LLM criteria as judge errors — then the model error on stderr, exit 2. The
 * files after the failing one are not judged, and stderr names them.
 *
 * The server lists the model (so the check before the run passes), then drops the connection of
 * chat requests, as a server that went down does.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OllamaServer, startOllamaServer } from "../doubles/index.js";
import {
  JUDGE_MODEL,
  judgeEnv,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";
import { htmlText } from "./htmlText.js";
import { junitSchemaProblems } from "./junitSchema.js";
import { childrenNamed, readXml } from "./xmlReader.js";

const temp = tempFolderForFile();
const PASS_ANSWER = JSON.stringify({
  reasoning: "The aims are stated.",
  quotes: [],
  result: "pass",
});

/** One deterministic criterion (both words, or one of two: 0.5) and one the judge decides. */
const CATALOG = {
  id: "probe",
  name: "Probe",
  version: "1.0.0",
  criteria: [
    {
      id: "topics",
      title: "Topics named",
      description: "Names the harbour and the budget",
      weight: 1,
      method: { kind: "function", name: "matches_all_of", args: ["harbour", "budget"] },
    },
    {
      id: "clarity",
      title: "Clear aims",
      description: "Are the aims clear?",
      weight: 1,
      method: { kind: "check" },
    },
  ],
};

/** Names the harbour, not the budget: `topics` is 1 of 2 patterns, 0.5. */
const HARBOUR_ONLY = "The project builds a sensor network for the harbour of Kiel.";

let down: OllamaServer;
let catalog: string;
let content: string;

const write = (name: string, text: string) => writeText(temp.dir, name, text);

beforeAll(async () => {
  down = await startOllamaServer({
    models: [JUDGE_MODEL],
    behaviour: { reset: "before-response" },
  });
  catalog = await write("catalog.json", JSON.stringify(CATALOG));
  content = await write("proposal.md", HARBOUR_ONLY);
});

afterAll(async () => {
  await down?.close();
});

/** The model error `evaluate` ends with: the last line of stderr. */
function lastLine(stderr: string): string {
  return stderr.trimEnd().split("\n").at(-1) ?? "";
}

function expectModelError(stderr: string) {
  expect(lastLine(stderr)).toMatch(
    new RegExp(`^evalgate: the judge model could not answer \\(1 criteria\\): .*${down.url}`),
  );
}

interface JsonCriterion {
  id: string;
  evaluated: boolean;
  score: number | null;
  judgeError?: string;
}

describe.concurrent("evalgate evaluate, the judge model down", { timeout: SPAWN_TIMEOUT }, () => {
  it("json: the deterministic score and the judge error, then the model error; exit 2", async () => {
    const run = await runEvalgate(["evaluate", content, "--catalog", catalog, "--format", "json"], {
      env: judgeEnv(down.url),
    });
    expect(run.code).toBe(2);
    const result = JSON.parse(run.stdout) as { criteria: JsonCriterion[]; notEvaluated: string[] };
    const byId = new Map(result.criteria.map((c) => [c.id, c]));
    expect(byId.get("topics")).toMatchObject({ evaluated: true, score: 0.5 });
    expect(byId.get("clarity")).toMatchObject({ evaluated: false, score: null });
    expect(byId.get("clarity")?.judgeError).toContain("judge model error");
    expect(result.notEvaluated).toEqual(["clarity"]);
    expectModelError(run.stderr);
  });

  it.for(["table", "md", "html"])("%s: the report holds both criteria; exit 2", async (format) => {
    const out = join(temp.dir, `report-${format}.out`);
    const run = await runEvalgate(
      ["evaluate", content, "--catalog", catalog, "--format", format, "--out", out],
      { env: judgeEnv(down.url) },
    );
    expect(run.code).toBe(2);
    const written = await readFile(out, "utf8");
    const text = format === "html" ? htmlText(written) : written;
    expect(text).toContain("0.50");
    expect(text).toMatch(/clarity[\s\S]*judge model error/);
    expectModelError(run.stderr);
  });

  it("junit: the judge's criterion an <error>, the deterministic one a <failure>", async () => {
    const run = await runEvalgate(
      ["evaluate", content, "--catalog", catalog, "--format", "junit"],
      { env: judgeEnv(down.url) },
    );
    expect(run.code).toBe(2);
    const root = readXml(run.stdout);
    expect(junitSchemaProblems(root)).toEqual([]);
    const [suite] = childrenNamed(root, "testsuite");
    const cases = new Map(
      childrenNamed(suite ?? root, "testcase").map((c) => [c.attributes.name, c]),
    );
    const clarity = cases.get("Clear aims (clarity)");
    expect(clarity && childrenNamed(clarity, "error")).toHaveLength(1);
    const topics = cases.get("Topics named (topics)");
    expect(topics && childrenNamed(topics, "failure")[0]?.attributes.message).toContain("0.50");
    expectModelError(run.stderr);
  });

  it("several files: those judged and the failing one reported, the rest named on stderr", async () => {
    // The first chat call answers, every later one finds the server gone.
    const flaky = await startOllamaServer({
      models: [JUDGE_MODEL],
      responder: () => PASS_ANSWER,
      behaviour: (n) => (n === 1 ? {} : { reset: "before-response" }),
    });
    try {
      const judged = await write("judged.md", `${HARBOUR_ONLY} The budget is 40,000 euros.`);
      const failing = await write("failing.md", HARBOUR_ONLY);
      const after = await write("after.md", "Never read by the judge: MARKER-AFTER.");
      const run = await runEvalgate(
        [
          "evaluate",
          judged,
          failing,
          after,
          "--catalog",
          catalog,
          "--format",
          "json",
          "--fail-under",
          "0.4",
        ],
        { env: judgeEnv(flaky.url) },
      );
      expect(run.code).toBe(2);
      const files = JSON.parse(run.stdout) as Array<{
        file: string;
        result: { criteria: JsonCriterion[] };
      }>;
      expect(files.map((f) => f.file)).toEqual([judged, failing]);
      const scores = files.map((f) => f.result.criteria.map((c) => [c.id, c.evaluated, c.score]));
      expect(scores).toEqual([
        [
          ["topics", true, 1],
          ["clarity", true, 1],
        ],
        [
          ["topics", true, 0.5],
          ["clarity", false, null],
        ],
      ]);
      const lines = run.stderr.split("\n");
      expect(lines).toContain(
        `--fail-under: ${failing}: not evaluated (a judge error is never a pass): clarity`,
      );
      expect(lines.some((line) => line.startsWith(`--fail-under: ${judged}`))).toBe(false);
      expect(lines).toContain(`not evaluated (the judge model could not answer): ${after}`);
      expect(lastLine(run.stderr)).toMatch(/^evalgate: the judge model could not answer/);
      const asked = flaky.chatRequests().map((r) => JSON.stringify(r.messages));
      expect(asked.some((body) => body.includes("MARKER-AFTER"))).toBe(false);
    } finally {
      await flaky.close();
    }
  });
});
