/**
 * `evalgate evaluate <folder>` with a catalog of function checks only: the checks read the
 * project's documents (no model is asked — the judge's address is a closed port), scored by hand.
 * A content file with --documents keeps checking the content alone.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EvaluationResultSchema } from "../../src/scoring/result.js";
import {
  closedPort,
  judgeEnv,
  runEvalgate,
  SPAWN_TIMEOUT,
  tempFolderForFile,
  writeText,
} from "./helpers.js";

const temp = tempFolderForFile();

/** `port` (weight 2) names the Port of Hamburg; `topics` (weight 1) names sensors and budget. */
const CATALOG = {
  id: "project-checks",
  name: "Project checks",
  version: "1",
  criteria: [
    {
      id: "port",
      title: "Port named",
      description: "Names the Port of Hamburg",
      weight: 2,
      method: { kind: "function", name: "contains", args: "Port of Hamburg" },
    },
    {
      id: "topics",
      title: "Topics named",
      description: "Names the sensors and the budget",
      weight: 1,
      method: { kind: "function", name: "matches_all_of", args: ["sensor", "budget"] },
    },
  ],
};

const TEAM = "The sensor team works in Kiel.";
const HAMBURG_PLAN = "Pilot quay in the Port of Hamburg, budget approved.";
const BREMEN_PLAN = "Pilot quay in the Port of Bremen, budget approved.";

let env: Record<string, string>;

async function project(name: string, plan: string): Promise<void> {
  const folder = join(temp.dir, name);
  await mkdir(folder);
  await writeText(folder, "01-team.md", TEAM);
  await writeText(folder, "02-plan.md", plan);
}

beforeAll(async () => {
  env = judgeEnv(`http://127.0.0.1:${await closedPort()}`);
  await writeText(temp.dir, "catalog.json", JSON.stringify(CATALOG));
  await project("hamburg-pilot", HAMBURG_PLAN);
  await project("bremen-pilot", BREMEN_PLAN);
  await mkdir(join(temp.dir, "sources"));
  await writeText(join(temp.dir, "sources"), "plan.md", HAMBURG_PLAN);
  await writeText(temp.dir, "proposal.md", "The sensor network stays within its budget.");
});

function evaluate(args: readonly string[]) {
  return runEvalgate(["evaluate", ...args, "--catalog", "catalog.json", "--format", "json"], {
    env,
    cwd: temp.dir,
  });
}

function resultOf(stdout: string) {
  const result = EvaluationResultSchema.parse(JSON.parse(stdout));
  return { result, scores: Object.fromEntries(result.criteria.map((c) => [c.id, c.score])) };
}

describe.concurrent("evalgate evaluate <folder>: function checks", {
  timeout: SPAWN_TIMEOUT,
}, () => {
  it("read the documents: the port in one document, the topics across two — 1.0, exit 0", async () => {
    const run = await evaluate(["hamburg-pilot"]);
    expect(run.stderr).not.toContain("evalgate:");
    expect(run.code).toBe(0);
    const { result, scores } = resultOf(run.stdout);
    expect(scores).toEqual({ port: 1, topics: 1 });
    // (2·1 + 1·1) / 3.
    expect(result.overallScore).toBe(1);
    expect(result.passed).toBe(true);
    expect(result.traces).toEqual([]);
  });

  it("score lower when no document names the port: (2·0 + 1·1) / 3, exit 1", async () => {
    const run = await evaluate(["bremen-pilot"]);
    expect(run.code).toBe(1);
    const { result, scores } = resultOf(run.stdout);
    expect(scores).toEqual({ port: 0, topics: 1 });
    expect(result.overallScore).toBeCloseTo(1 / 3, 3);
    expect(result.passed).toBe(false);
  });

  it("check a content file alone, not its --documents: the port only in a source scores 0", async () => {
    const run = await evaluate(["proposal.md", "--documents", "sources"]);
    expect(run.code).toBe(1);
    const { result, scores } = resultOf(run.stdout);
    expect(scores).toEqual({ port: 0, topics: 1 });
    expect(result.overallScore).toBeCloseTo(1 / 3, 3);
  });

  it("refuse a project whose documents are over --max-content-bytes, naming the folder, exit 2", async () => {
    const run = await evaluate(["hamburg-pilot", "--max-content-bytes", "40"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("the text of the project folder hamburg-pilot");
    expect(run.stderr).toContain("over the content budget of 40 bytes");
    expect(run.stderr).toContain("raise it with --max-content-bytes");
  });
});
